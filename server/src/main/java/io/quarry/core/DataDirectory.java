package io.quarry.core;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Where Quarry keeps its files by default: the H2 application database ({@code quarry.db}) and the generated Sample
 * Database ({@code plugins/}). {@code MB_DATA_DIR} names it; {@code MB_DB_FILE} and {@code MB_PLUGINS_DIR} still win
 * for their own file. Without a setting the working directory is used when it is writable (as {@code mvn jetty:run}
 * and Metabase's jar do), else a directory the container gives this one deployment; two contexts never share it.
 */
public final class DataDirectory {
    public static final String KEY = "MB_DATA_DIR";

    private DataDirectory() {
    }

    /** What the container tells Quarry about this deployment. Any of the paths may be null. */
    public record Deployment(Path workingDirectory, String contextPath, Path catalinaBase, Path containerTempDirectory) {
    }

    /**
     * The default data directory of a deployment.
     * <ul>
     * <li>writable working directory: the working directory itself for the root context (its files are where they
     * always were: {@code ./quarry.db}, {@code ./plugins}), {@code ./quarry-<context>} for any other context;</li>
     * <li>else, under Tomcat, {@code $CATALINA_BASE/work/quarry/<context>} (Tomcat leaves it alone on redeploy,
     * unlike the context's own work directory, which it deletes with the WAR);</li>
     * <li>else the container's per-context temporary directory ({@code jakarta.servlet.context.tempdir});</li>
     * <li>else {@code java.io.tmpdir/quarry-<context>}.</li>
     * </ul>
     */
    public static Path defaultFor(Deployment deployment) {
        String name = contextName(deployment.contextPath());
        Path working = deployment.workingDirectory();
        if (working != null && writable(working)) {
            return "ROOT".equals(name) ? working.toAbsolutePath().normalize() : working.resolve("quarry-" + name).toAbsolutePath().normalize();
        }
        if (deployment.catalinaBase() != null) {
            Path work = deployment.catalinaBase().resolve("work");
            if (writable(work)) {
                return work.resolve("quarry").resolve(name).toAbsolutePath().normalize();
            }
        }
        if (deployment.containerTempDirectory() != null && writable(deployment.containerTempDirectory())) {
            return deployment.containerTempDirectory().resolve("quarry-data").toAbsolutePath().normalize();
        }
        return Path.of(System.getProperty("java.io.tmpdir")).resolve("quarry-" + name).toAbsolutePath().normalize();
    }

    /** The context path as a file name, Tomcat's way: {@code ""} is ROOT, {@code /a/b} is {@code a#b}. */
    static String contextName(String contextPath) {
        if (contextPath == null || contextPath.isEmpty() || contextPath.equals("/")) {
            return "ROOT";
        }
        return contextPath.replaceFirst("^/", "").replace('/', '#').replaceAll("[^A-Za-z0-9._#-]", "_").toLowerCase(Locale.ROOT);
    }

    /** A directory Quarry may create files in (it need not exist yet, if its nearest existing parent is writable). */
    public static boolean writable(Path directory) {
        Path existing = directory.toAbsolutePath().normalize();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        return existing != null && Files.isDirectory(existing) && Files.isWritable(existing);
    }
}
