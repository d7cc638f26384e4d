package io.quarry.user;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.boot.AppState;
import io.quarry.boot.Quarry;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Small helpers shared by the user, group and membership HTTP tests. */
final class Support {
    static final String PASSWORD = "Sunny-day-77";
    private static final AtomicInteger SEQ = new AtomicInteger();

    private Support() {
    }

    /** A map that, unlike Map.of, keeps its order and accepts null values (to send JSON null). */
    static Map<String, Object> map(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], pairs[i + 1]);
        }
        return m;
    }

    /** A fresh address containing {@code tag}, so a test can find its own users with {@code query}. */
    static String email(String tag) {
        return tag + "-" + SEQ.incrementAndGet() + "@example.com";
    }

    /** Creates a user through the API (as an administrator) and returns the created record. */
    static JsonNode createUser(Api api, String admin, String email, String first, String last, Object... extra) {
        Map<String, Object> body = map("email", email, "first_name", first, "last_name", last, "password", PASSWORD);
        body.putAll(map(extra));
        return api.as(admin).post(200, "user", body).json();
    }

    /** Creates a user and signs them in; returns [id, session]. */
    static Person person(Api api, String admin, String tag, String first, String last, Object... extra) {
        String email = email(tag);
        JsonNode user = createUser(api, admin, email, first, last, extra);
        return new Person(user.get("id").asLong(), email, Fixtures.login(api, email, PASSWORD));
    }

    record Person(long id, String email, String session) {
    }

    static long createGroup(Api api, String admin, String name) {
        return api.as(admin).post(200, "permissions/group", map("name", name)).json().get("id").asLong();
    }

    static List<Long> groupIds(JsonNode user) {
        List<Long> ids = new ArrayList<>();
        for (JsonNode m : user.get("user_group_memberships")) {
            ids.add(m.get("id").asLong());
        }
        return ids;
    }

    static List<Long> ids(JsonNode array) {
        List<Long> ids = new ArrayList<>();
        for (JsonNode n : array) {
            ids.add(n.get("id").asLong());
        }
        return ids;
    }

    static Quarry quarry(TestServer server) {
        return AppState.of(server.webapp().getServletContext()).quarry();
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
