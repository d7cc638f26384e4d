package io.quarry.security;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP port standing in for a database server: counts the connections made to it and closes each at once (the client
 * fails fast). A test asserts that a refused request made none.
 */
final class CountingListener implements AutoCloseable {
    private final ServerSocket socket;
    private final AtomicInteger accepted = new AtomicInteger();
    private final Thread acceptor;

    CountingListener() throws IOException {
        socket = new ServerSocket(0);
        acceptor = new Thread(() -> {
            while (!socket.isClosed()) {
                try (Socket ignored = socket.accept()) {
                    accepted.incrementAndGet();
                } catch (IOException e) {
                    return; // closed
                }
            }
        }, "counting-listener");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return socket.getLocalPort();
    }

    /** Connections made so far (after a short grace for one in flight). */
    int accepted() throws InterruptedException {
        Thread.sleep(200);
        return accepted.get();
    }

    /** Server-engine details whose host and port are this listener. */
    Map<String, Object> details(Object... more) {
        Map<String, Object> details = new java.util.LinkedHashMap<>(Map.of("host", "127.0.0.1", "port", port(), "dbname", "x",
                "user", "u", "password", "p"));
        for (int i = 0; i < more.length; i += 2) {
            details.put((String) more[i], more[i + 1]);
        }
        return details;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
