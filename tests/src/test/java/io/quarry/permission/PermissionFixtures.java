package io.quarry.permission;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Users, groups, databases and graph edits for the data permission tests. */
final class PermissionFixtures {
    static final String PASSWORD = "Sunny-day-77";
    private static final AtomicInteger SEQ = new AtomicInteger();

    private PermissionFixtures() {
    }

    /** Adds the small H2 shop as a database and waits for its first sync; returns its id. */
    static long addShop(TestServer server, Api admin, String name) throws Exception {
        long id = admin.post(200, "database", Map.of("engine", "h2", "name", name,
                "details", Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(id).get();
        return id;
    }

    static long group(Api admin, String name) {
        return admin.post(200, "permissions/group", Map.of("name", name + "-" + SEQ.incrementAndGet())).json().get("id").asLong();
    }

    /** A new user in All Users and the given groups, signed in. */
    static Api user(Api anonymous, Api admin, long... groups) {
        String email = "perm-" + SEQ.incrementAndGet() + "@example.com";
        List<Map<String, Object>> memberships = new ArrayList<>();
        memberships.add(Map.of("id", 1));
        for (long g : groups) {
            memberships.add(Map.of("id", g));
        }
        admin.post(200, "user", Map.of("email", email, "first_name", "P", "last_name", "U" + SEQ.get(), "password", PASSWORD,
                "user_group_memberships", memberships));
        return anonymous.as(Fixtures.login(anonymous, email, PASSWORD));
    }

    static long revision(Api admin) {
        return admin.get(200, "permissions/graph").json().get("revision").asLong();
    }

    /** Sets one group's permissions on one database through PUT /api/permissions/graph (current revision). */
    static JsonNode grant(Api admin, long group, long db, Object... pairs) {
        Map<String, Object> perms = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            perms.put((String) pairs[i], pairs[i + 1]);
        }
        return admin.put(200, "permissions/graph", Map.of("revision", revision(admin),
                "groups", Map.of(String.valueOf(group), Map.of(String.valueOf(db), perms)))).json();
    }

    static long tableId(Api admin, long db, String name) {
        for (JsonNode t : admin.get(200, "database/" + db + "/metadata").json().get("tables")) {
            if (t.get("name").asText().equals(name)) {
                return t.get("id").asLong();
            }
        }
        throw new AssertionError("no table " + name);
    }
}
