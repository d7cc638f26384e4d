package io.quarry.testing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Quarry in a JVM of its own, for tests that kill the server process ({@code kill -9}): starts a {@link TestServer}
 * with the configuration given as {@code KEY=VALUE} arguments, prints {@code QUARRY_URL=<base>} and runs until killed.
 */
public final class ServerProcess {
    public static final String URL_LINE = "QUARRY_URL=";

    private ServerProcess() {
    }

    public static void main(String[] args) throws InterruptedException {
        Map<String, String> config = new LinkedHashMap<>();
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            config.put(kv[0], kv[1]);
        }
        TestServer server = TestServer.startWith(config);
        System.out.println(URL_LINE + server.base);
        System.out.flush();
        Thread.currentThread().join();
    }

    /** A started child JVM: its process and the base URL it serves. */
    public record Child(Process process, java.net.URI base) {
    }

    /**
     * Starts {@link ServerProcess} on this JVM's class path with {@code config}; its output goes to {@code log}.
     * Waits until it serves (at most 120 s).
     */
    public static Child start(Map<String, String> config, java.nio.file.Path log) throws java.io.IOException {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(
                java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-Xshare:off",
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-DMB_LOAD_SAMPLE_CONTENT=false",
                "-Dlogback.configurationFile=" + java.nio.file.Path.of("bench/logback-bench.xml").toAbsolutePath(),
                "-cp", System.getProperty("java.class.path"),
                ServerProcess.class.getName()));
        config.forEach((k, v) -> command.add(k + "=" + v));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        java.util.concurrent.CompletableFuture<java.net.URI> base = new java.util.concurrent.CompletableFuture<>();
        Thread pump = new Thread(() -> {
            try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(process.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
                 var out = java.nio.file.Files.newBufferedWriter(log, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND)) {
                String line;
                while ((line = in.readLine()) != null) {
                    out.write(line);
                    out.newLine();
                    out.flush();
                    if (line.startsWith(URL_LINE)) {
                        base.complete(java.net.URI.create(line.substring(URL_LINE.length())));
                    }
                }
            } catch (java.io.IOException e) {
                // the process was killed
            }
            base.completeExceptionally(new IllegalStateException("the server process ended before serving; see " + log));
        }, "server-process-output");
        pump.setDaemon(true);
        pump.start();
        try {
            return new Child(process, base.get(120, java.util.concurrent.TimeUnit.SECONDS));
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IllegalStateException("The server process did not start; see " + log, e);
        }
    }
}
