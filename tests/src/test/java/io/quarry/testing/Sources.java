package io.quarry.testing;

import java.nio.file.Path;

/**
 * Where the tests find files of the checkout: the server module (its web app and Java sources, which the border, docs
 * and UI tests read) and the checkout's root (bench configuration). The tests run in the tests module's directory;
 * the build passes both locations as system properties, and the defaults fit a run from that directory.
 */
public final class Sources {
    private Sources() {
    }

    /** A path inside the server module, e.g. {@code server("src/main/webapp")}. */
    public static Path server(String relative) {
        return Path.of(System.getProperty("quarry.server.dir", "../server")).resolve(relative).toAbsolutePath().normalize();
    }

    /** A path from the checkout's root, e.g. {@code repo("bench/logback-bench.xml")}. */
    public static Path repo(String relative) {
        return Path.of(System.getProperty("quarry.repo.dir", "..")).resolve(relative).toAbsolutePath().normalize();
    }
}
