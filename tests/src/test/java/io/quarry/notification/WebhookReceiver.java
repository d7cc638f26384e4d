package io.quarry.notification;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.quarry.core.Json;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real local HTTP endpoint for webhook tests (the JDK's {@link HttpServer}): records every request and answers the
 * statuses queued with {@link #answer}, then 200.
 */
final class WebhookReceiver implements AutoCloseable {
    record Received(String method, String uri, Map<String, List<String>> headers, String body) {
        JsonNode json() {
            try {
                return Json.read(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }

        String header(String name) {
            for (var e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }
    }

    private final HttpServer server;
    final List<Received> received = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<Integer> statuses = new ConcurrentLinkedQueue<>();
    /** Milliseconds the next request waits before it is answered (a webhook that hangs), once. */
    private final java.util.concurrent.atomic.AtomicLong stall = new java.util.concurrent.atomic.AtomicLong();

    WebhookReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
                    Map.copyOf(exchange.getRequestHeaders()), body));
            long wait = stall.getAndSet(0);
            if (wait > 0) {
                try {
                    Thread.sleep(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            Integer status = statuses.poll();
            byte[] answer = (status == null || status < 300 ? "ok" : "broken").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status == null ? 200 : status, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        // one thread per request: a stalled request does not hold up the next
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** The next request hangs this long before its answer. */
    void stallNext(long millis) {
        stall.set(millis);
    }

    void answer(Integer... next) {
        statuses.addAll(List.of(next));
    }

    List<Received> to(String path) {
        List<Received> out = new ArrayList<>();
        for (Received r : received) {
            if (r.uri().startsWith(path)) {
                out.add(r);
            }
        }
        return out;
    }

    /** Waits (a few seconds at most) until {@code count} requests reached {@code path}. */
    List<Received> await(String path, int count) throws InterruptedException {
        for (int i = 0; i < 150 && to(path).size() < count; i++) {
            Thread.sleep(100);
        }
        return to(path);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
