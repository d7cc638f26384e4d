package io.quarry.testing;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Quarry in a JVM of its own, for tests that kill the server process ({@code kill -9}): {@link #main} starts a
 * {@link TestServer} with the configuration given as {@code KEY=VALUE} arguments, prints {@code QUARRY_URL=<base>} and
 * runs until killed; {@link #start} launches it from a test.
 */
public final class ServerProcess {
    public static final String URL_LINE = "QUARRY_URL=";
    private static final String WAR = "--war";
    private static final String CONTEXT = "--context";

    private ServerProcess() {
    }

    public static void main(String[] args) throws InterruptedException {
        Map<String, String> config = new LinkedHashMap<>();
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            config.put(kv[0], kv[1]);
        }
        String war = config.remove(WAR);
        String context = config.remove(CONTEXT);
        URI base;
        if (war == null) {
            base = TestServer.startWith(config).base;
        } else if (context.contains(",")) {
            base = deployAll(Path.of(war), List.of(context.split(",")));
        } else {
            base = TestServer.deployWar(Path.of(war), context, config).base;
        }
        System.out.println(URL_LINE + base);
        System.out.flush();
        Thread.currentThread().join();
    }

    /**
     * The WAR deployed at several context paths of one container (one server, one port), as Tomcat deploys
     * {@code ROOT.war} and {@code quarry.war} side by side; answers the server's root URL without waiting for Quarry.
     */
    private static URI deployAll(Path war, List<String> contextPaths) {
        org.eclipse.jetty.server.Server server = new org.eclipse.jetty.server.Server();
        org.eclipse.jetty.server.ServerConnector connector = new org.eclipse.jetty.server.ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        org.eclipse.jetty.server.handler.ContextHandlerCollection contexts = new org.eclipse.jetty.server.handler.ContextHandlerCollection();
        for (String contextPath : contextPaths) {
            org.eclipse.jetty.ee10.webapp.WebAppContext webapp = new org.eclipse.jetty.ee10.webapp.WebAppContext();
            webapp.setContextPath(contextPath);
            webapp.setWar(war.toAbsolutePath().toString());
            webapp.setParentLoaderPriority(false);
            webapp.setExtractWAR(true);
            webapp.setThrowUnavailableOnStartupException(true);
            contexts.addHandler(webapp);
        }
        server.setHandler(contexts);
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException("Jetty did not start", e);
        }
        return URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/");
    }

    /** A started child JVM: its process and the base URL it serves. */
    public record Child(Process process, URI base) {
    }

    /**
     * Starts {@link ServerProcess} on this JVM's class path (the test class path) with {@code config}; its output is
     * appended to {@code log}. Waits until it serves, at most 120 s.
     */
    public static Child start(Map<String, String> config, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-Xshare:off",
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-DMB_LOAD_SAMPLE_CONTENT=false",
                "-Dlogback.configurationFile=" + Sources.repo("bench/logback-bench.xml"),
                "-cp", System.getProperty("java.class.path"),
                ServerProcess.class.getName()));
        config.forEach((k, v) -> command.add(k + "=" + v));
        return launch(new ProcessBuilder(command), log);
    }

    /**
     * Deploys the built {@code war} at {@code contextPath} in a child JVM as a container would run it: its working
     * directory is {@code workingDirectory}, with no Quarry setting at all (no init-parameter, no {@code MB_*}
     * environment variable or system property) and {@code tmp} as {@code java.io.tmpdir}. The directory permissions
     * hold for the child even when the tests run as root: it then runs without the capabilities that bypass them
     * ({@code setpriv}, util-linux), as an ordinary container user would.
     */
    public static Child startWar(Path war, String contextPath, Path workingDirectory, Path tmp, Path log) throws IOException {
        return startWars(war, List.of(contextPath), workingDirectory, tmp, log);
    }

    /**
     * {@link #startWar} at several context paths of one container; with more than one, {@link Child#base} is the
     * server's root URL and Quarry may still be starting in each context.
     */
    public static Child startWars(Path war, List<String> contextPaths, Path workingDirectory, Path tmp, Path log) throws IOException {
        List<String> command = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("setpriv", "--bounding-set", "-dac_override,-dac_read_search"));
        }
        command.addAll(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-Xshare:off",
                "-Djava.io.tmpdir=" + tmp.toAbsolutePath(),
                "-cp", System.getProperty("java.class.path"),
                ServerProcess.class.getName(),
                WAR + "=" + war.toAbsolutePath(), CONTEXT + "=" + String.join(",", contextPaths)));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("MB_"));
        return launch(builder, log);
    }

    private static Child launch(ProcessBuilder builder, Path log) throws IOException {
        Process process = builder.redirectErrorStream(true).start();
        CompletableFuture<URI> base = new CompletableFuture<>();
        Thread pump = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                 BufferedWriter out = Files.newBufferedWriter(log, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
                String line;
                while ((line = in.readLine()) != null) {
                    out.write(line);
                    out.newLine();
                    out.flush();
                    if (line.startsWith(URL_LINE)) {
                        base.complete(URI.create(line.substring(URL_LINE.length())));
                    }
                }
            } catch (IOException e) {
                // the process was killed
            }
            base.completeExceptionally(new IllegalStateException("the server process ended before serving; see " + log));
        }, "server-process-output");
        pump.setDaemon(true);
        pump.start();
        try {
            return new Child(process, base.get(120, TimeUnit.SECONDS));
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IllegalStateException("The server process did not start; see " + log, e);
        }
    }
}
