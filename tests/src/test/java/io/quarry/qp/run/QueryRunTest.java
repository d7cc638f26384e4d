package io.quarry.qp.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.qp.QueryFailure;
import io.quarry.qp.export.ExportFormat;
import io.quarry.qp.export.ExportRequest;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a run echoes in failure bodies and results, by kind of request: the rules the resources used to repeat. */
class QueryRunTest {
    private static final Caller USER = new Caller(7L, false, "session", false, null);
    private static final OffsetDateTime NOW = OffsetDateTime.parse("2026-01-01T12:00:00Z");

    private static JsonNode json(String text) {
        try {
            return Json.read(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static ObjectNode query() {
        return (ObjectNode) json("{\"database\": 3, \"type\": \"native\", \"native\": {\"query\": \"select 1\"}}");
    }

    private static QueryRun start(QueryRequest request) {
        return QueryRun.start(request, NOW);
    }

    @Test
    void parametersAreSetOnACopyOfTheQuery() {
        ObjectNode stored = query();
        JsonNode parameters = json("[{\"id\": \"p\", \"value\": 1}]");
        QueryRun run = start(QueryRequest.savedCard(QueryContext.QUESTION, USER, new QueryRequest.SavedCard(1, 3L), stored,
                parameters, QueryRequest.CacheRules.NONE));
        assertEquals(parameters, run.query().get("parameters"));
        assertFalse(stored.has("parameters"), "the stored query is left as it was");
    }

    @Test
    void absentParametersKeepTheQueryAsItIs() {
        ObjectNode stored = query();
        for (JsonNode none : new JsonNode[] {null, json("null"), Json.object().path("parameters")}) {
            QueryRun run = start(QueryRequest.savedCard(QueryContext.DASHBOARD_CARD, USER, new QueryRequest.SavedCard(1, 3L),
                    stored, none, QueryRequest.CacheRules.NONE));
            assertSame(stored, run.query());
        }
    }

    @Test
    void aFailureNamesTheCardsDatabaseOrTheOneAskedFor() {
        assertEquals(9L, start(QueryRequest.savedCard(QueryContext.QUESTION, USER, new QueryRequest.SavedCard(1, 9L), query(),
                null, QueryRequest.CacheRules.NONE)).failureDatabaseId());
        assertEquals(3L, start(QueryRequest.adHoc(USER, query())).failureDatabaseId());
        assertNull(start(QueryRequest.adHoc(USER, query()).asPivot()).failureDatabaseId(), "as v0.63's /api/dataset/pivot");
        assertNull(start(QueryRequest.adHoc(USER, json("{\"database\": \"x\"}"))).failureDatabaseId());
        assertNull(start(QueryRequest.adHoc(USER, null)).failureDatabaseId());
    }

    @Test
    void aFileDownloadEchoesNoQueryInItsFailure() {
        ObjectNode query = query();
        QueryRun csv = start(QueryRequest.download(USER, query, null,
                new QueryRequest.Download(ExportFormat.CSV, ExportRequest.Options.DEFAULT, "query_result")));
        QueryRun api = start(QueryRequest.download(USER, query, null,
                new QueryRequest.Download(ExportFormat.API, ExportRequest.Options.DEFAULT, "query_result")));
        assertNull(csv.failureQuery());
        assertSame(query, api.failureQuery());
        assertSame(query, start(QueryRequest.adHoc(USER, query)).failureQuery());
    }

    @Test
    void theEchoedAdHocQueryShowsTheMiddlewareApplied() {
        ObjectNode echoed = (ObjectNode) QueryRun.withMiddleware(query());
        assertTrue(echoed.path("middleware").path("js-int-to-string?").asBoolean());
        assertTrue(echoed.path("middleware").path("add-default-userland-constraints?").asBoolean());
        ObjectNode own = query();
        own.putObject("middleware").put("js-int-to-string?", false);
        assertFalse(((JsonNode) QueryRun.withMiddleware(own)).path("middleware").path("js-int-to-string?").asBoolean());
        assertFalse(own.path("middleware").has("add-default-userland-constraints?"), "the request itself is not changed");
    }

    @Test
    void onlyADownloadRunsInTheExportContext() {
        assertThrows(IllegalArgumentException.class, () -> new QueryRequest(QueryContext.EXPORT, USER, query(), null, null,
                QueryRequest.CacheRules.NONE, null, false));
        assertThrows(IllegalArgumentException.class, () -> new QueryRequest(QueryContext.AD_HOC, USER, query(), null, null,
                QueryRequest.CacheRules.NONE, new QueryRequest.Download(ExportFormat.CSV, ExportRequest.Options.DEFAULT, "q"), false));
    }

    @Test
    void theFailureBodyIsMetabases() {
        QueryOutcome.Failed failed = new QueryOutcome.Failed(
                new QueryFailure(QueryFailure.Type.MISSING_PERMISSIONS, "No."), Map.of("database", 3), 3L);
        assertEquals(403, failed.status());
        Map<String, Object> body = failed.body();
        assertEquals(List.of("status", "error", "error_type", "state", "json_query", "database_id", "row_count", "running_time",
                "data"), List.copyOf(body.keySet()));
        assertEquals("failed", body.get("status"));
        assertEquals("missing-required-permissions", body.get("error_type"));
    }
}
