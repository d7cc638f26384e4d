package io.quarry.publicsharing;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A server with the Sample Database, a collection no ordinary user may read, and in it a native card counting orders
 * with an optional {@code category} filter (template tag id {@code tag-cat}) and a dashboard showing it with a
 * {@code category} filter (parameter id {@code cat}). Public links and signed embeds share these.
 */
public final class SharingFixture implements AutoCloseable {
    public final TestServer server;
    public final Api anonymous;
    public final Api admin;
    public final Api user;
    public final Path sample;
    public final long databaseId;
    public final long lockedCollection;
    public final long cardId;
    public final long dashboardId;
    public final long dashcardId;

    public SharingFixture(String directory) throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        user = Fixtures.ordinaryCaller(anonymous, admin);
        sample = SampleDatabase.ensure(Path.of("target", directory).toAbsolutePath());
        databaseId = admin.post(200, "database", Map.of("engine", "h2", "name", "Sample Database", "details",
                Map.of("db", "file:" + sample + ";ACCESS_MODE_DATA=r", "user", SampleDatabase.USER, "password", SampleDatabase.PASSWORD)))
                .json().get("id").asLong();
        server.quarry().sync.syncInBackground(databaseId).get();
        lockedCollection = collection("Locked");
        cardId = admin.post(200, "card", Map.of("name", "Orders by category", "display", "scalar", "visualization_settings", Map.of(),
                "collection_id", lockedCollection,
                "dataset_query", Map.of("database", databaseId, "type", "native", "native", Map.of(
                        "query", "SELECT COUNT(*) AS n FROM ORDERS o JOIN PRODUCTS p ON p.ID = o.PRODUCT_ID [[WHERE p.CATEGORY = {{category}}]]",
                        "template-tags", Map.of("category", Map.of("id", "tag-cat", "name", "category", "display-name", "Category",
                                "type", "text"))))))
                .json().get("id").asLong();
        dashboardId = admin.post(200, "dashboard", Map.of("name", "Orders", "collection_id", lockedCollection, "parameters",
                List.of(Map.of("id", "cat", "name", "Category", "slug", "category", "type", "category")))).json().get("id").asLong();
        Map<String, Object> dc = new LinkedHashMap<>();
        dc.put("id", -1);
        dc.put("card_id", cardId);
        dc.put("row", 0);
        dc.put("col", 0);
        dc.put("size_x", 4);
        dc.put("size_y", 4);
        dc.put("parameter_mappings", List.of(Map.of("parameter_id", "cat", "card_id", cardId,
                "target", List.of("variable", List.of("template-tag", "category")))));
        dashcardId = admin.put(200, "dashboard/" + dashboardId, Map.of("dashcards", List.of(dc))).json()
                .get("dashcards").get(0).get("id").asLong();
    }

    /** A top-level collection made directly in the application database; only admins have rights on it. */
    private long collection(String name) throws Exception {
        try (Connection c = AppDbSql.connect(server);
             PreparedStatement s = c.prepareStatement("INSERT INTO collection (name, slug, location, created_at) "
                     + "VALUES (?, ?, '/', CURRENT_TIMESTAMP)", Statement.RETURN_GENERATED_KEYS)) {
            s.setString(1, name);
            s.setString(2, name.toLowerCase());
            s.executeUpdate();
            try (ResultSet keys = s.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    /** Orders (of a category, or all with null) counted with plain SQL on the sample database. */
    public long reference(String category) throws Exception {
        try (Connection c = SampleDatabase.connect(sample);
             PreparedStatement s = c.prepareStatement(category == null ? "SELECT COUNT(*) FROM PUBLIC.ORDERS"
                     : "SELECT COUNT(*) FROM PUBLIC.ORDERS o JOIN PUBLIC.PRODUCTS p ON p.ID = o.PRODUCT_ID WHERE p.CATEGORY = ?")) {
            if (category != null) {
                s.setString(1, category);
            }
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    public static long count(JsonNode result) {
        return result.get("data").get("rows").get(0).get(0).asLong();
    }

    /** The count in a one-cell CSV (header line, then the value). */
    public static long csvCount(String csv) {
        return Long.parseLong(csv.split("\n")[1].trim());
    }

    @Override
    public void close() {
        server.close();
    }
}
