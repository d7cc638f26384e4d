package io.quarry.assistant;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.boot.Quarry;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The Sample Database added to a test server and synced, and its queries run over HTTP. */
final class SampleData {
    private SampleData() {
    }

    /** Adds the Sample Database (read-only H2) as {@code admin} and waits for its sync and field values. */
    static long add(Quarry quarry, Api admin, String name) throws Exception {
        Path sample = SampleDatabase.ensure(Files.createTempDirectory("quarry-sample"));
        long id = admin.post(200, "database", Map.of("engine", "h2", "name", name, "details",
                Map.of("db", "file:" + sample + ";ACCESS_MODE_DATA=r", "user", SampleDatabase.USER, "password",
                        SampleDatabase.PASSWORD))).json().get("id").asLong();
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline) {
            if ("complete".equals(admin.get(200, "database/" + id).json().get("initial_sync_status").asText())
                    && !quarry.sync.isSyncing(id)) {
                return id;
            }
            Thread.sleep(100);
        }
        fail("The sample database did not sync in time");
        return id;
    }

    /** Runs native SQL through {@code POST /api/dataset} and answers its rows and column names. */
    static Result run(Api api, long databaseId, String sql) {
        JsonNode result = api.post(202, "dataset", Map.of("database", databaseId, "type", "native",
                "native", Map.of("query", sql))).json();
        List<String> cols = new ArrayList<>();
        result.path("data").path("cols").forEach(c -> cols.add(c.path("name").asText()));
        List<List<Object>> rows = new ArrayList<>();
        for (JsonNode row : result.path("data").path("rows")) {
            List<Object> values = new ArrayList<>();
            row.forEach(v -> values.add(v.isNull() ? null : v.isNumber() ? (Object) v.numberValue() : v.asText()));
            rows.add(values);
        }
        return new Result(cols, rows);
    }

    record Result(List<String> cols, List<List<Object>> rows) {
        /** The values of the ID column, sorted. */
        List<String> ids() {
            int at = cols.indexOf("ID");
            if (at < 0) {
                fail("no ID column in " + cols);
            }
            return rows.stream().map(row -> String.valueOf(row.get(at))).sorted().toList();
        }

        /** Rows as text, numbers to 9 significant digits, date-times to their day, sorted (limits compare order). */
        List<String> normalised() {
            List<String> out = new ArrayList<>();
            for (List<Object> row : rows) {
                List<String> cells = new ArrayList<>();
                for (Object v : row) {
                    if (v instanceof Number n) {
                        cells.add(new java.math.BigDecimal(n.toString()).round(new java.math.MathContext(9)).stripTrailingZeros()
                                .toPlainString());
                    } else if (v instanceof String text && text.matches("\\d{4}-\\d{2}-\\d{2}.*")) {
                        cells.add(text.substring(0, 10));
                    } else {
                        cells.add(String.valueOf(v));
                    }
                }
                out.add(String.join("|", cells));
            }
            return out.stream().sorted().toList();
        }
    }
}
