package io.quarry.util;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Metabase's separate metrics listener: with {@code MB_PROMETHEUS_SERVER_PORT} set, {@code GET /metrics} on that port
 * (every interface, as Metabase listens) answers {@link OpsMetrics#scrape()}, unauthenticated, outside the servlet
 * container. Served by the JDK's own HTTP server on two threads (a scrape is read-only and short), so that it answers
 * even when the container's request threads are all busy. Port 0 takes a free port ({@link #port()}), for tests.
 */
public final class PrometheusServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PrometheusServer.class);

    private final HttpServer server;
    private final ExecutorService threads;

    private PrometheusServer(HttpServer server, ExecutorService threads) {
        this.server = server;
        this.threads = threads;
    }

    /** Listens on {@code port} and serves {@code metrics}; an unusable port fails start-up, as Metabase's does. */
    public static PrometheusServer start(int port, OpsMetrics metrics) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(port), 16);
        } catch (IOException e) {
            throw new IllegalStateException("Failed to initialize Prometheus on port " + port + ": " + e.getMessage(), e);
        }
        AtomicInteger n = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "quarry-prometheus-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(threads);
        server.createContext("/", exchange -> answer(exchange, metrics));
        server.start();
        log.info("Serving Prometheus metrics on port {} at /metrics", server.getAddress().getPort());
        return new PrometheusServer(server, threads);
    }

    private static void answer(HttpExchange exchange, OpsMetrics metrics) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!"/metrics".equals(exchange.getRequestURI().getPath())) {
                send(exchange, 404, "text/plain; charset=utf-8", "Not found\n", method);
            } else if (!"GET".equals(method) && !"HEAD".equals(method)) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, "text/plain; charset=utf-8", "Method not allowed\n", method);
            } else {
                send(exchange, 200, OpsMetrics.CONTENT_TYPE, metrics.scrape(), method);
            }
        }
    }

    private static void send(HttpExchange exchange, int status, String contentType, String text, String method) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        boolean head = "HEAD".equals(method);
        exchange.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** The port listened on. */
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
