package io.quarry.qp.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.qp.QueryFailure;
import io.quarry.qp.export.ExportFormat;
import io.quarry.qp.export.ExportRequest;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The runner itself, with hand-written steps: order, the failure it answers, which steps a request takes. */
class QueryRunnerTest {
    private static final Caller USER = new Caller(7L, false, "session", false, null);
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T12:00:00Z"), ZoneOffset.UTC);

    private final List<String> trace = new ArrayList<>();

    /** Notes its name, before and after the steps that follow it. */
    private QueryStep step(String name) {
        return (run, next) -> {
            trace.add(name);
            QueryOutcome outcome = next.proceed(run);
            trace.add("/" + name);
            return outcome;
        };
    }

    private static QueryStep answer(String name, List<String> trace) {
        return (run, next) -> {
            trace.add(name);
            return new QueryOutcome.Streamed(202, "application/json", Map.of(), out -> { });
        };
    }

    private static ObjectNode query() {
        ObjectNode query = Json.object();
        query.put("database", 3);
        return query;
    }

    @Test
    void stepsRunInTheirOrderAroundTheAnswer() {
        QueryRunner runner = new QueryRunner(CLOCK, List.of(step("a"), step("b"), answer("answer", trace)), List.of());
        QueryOutcome outcome = runner.run(QueryRequest.adHoc(USER, query()));
        assertInstanceOf(QueryOutcome.Streamed.class, outcome);
        assertEquals(List.of("a", "b", "answer", "/b", "/a"), trace);
    }

    @Test
    void aQueryFailureFromAnyStepIsTheFailureBodyAndStopsTheRest() {
        QueryStep refuse = (run, next) -> {
            throw new QueryFailure(QueryFailure.Type.MISSING_PERMISSIONS, "You do not have permissions to run this query.");
        };
        QueryRunner runner = new QueryRunner(CLOCK, List.of(step("a"), refuse, answer("answer", trace)), List.of());
        ObjectNode query = query();
        QueryOutcome.Failed failed = assertInstanceOf(QueryOutcome.Failed.class, runner.run(QueryRequest.adHoc(USER, query)));
        assertEquals(403, failed.status());
        assertSame(query, failed.jsonQuery());
        assertEquals(3L, failed.databaseId());
        assertEquals(List.of("a"), trace);
    }

    @Test
    void downloadsTakeTheirOwnSteps() {
        QueryRunner runner = new QueryRunner(CLOCK, List.of(answer("api", trace)), List.of(answer("download", trace)));
        runner.run(QueryRequest.download(USER, query(), null,
                new QueryRequest.Download(ExportFormat.CSV, ExportRequest.Options.DEFAULT, "query_result")));
        runner.run(QueryRequest.savedCard(QueryContext.DASHBOARD_CARD, USER, new QueryRequest.SavedCard(1, 3L), query(), null,
                QueryRequest.CacheRules.NONE));
        assertEquals(List.of("download", "api"), trace);
    }

    @Test
    void theRunStartsOnTheClock() {
        List<OffsetDateTime> started = new ArrayList<>();
        QueryStep look = (run, next) -> {
            started.add(run.startedAt());
            return next.proceed(run);
        };
        new QueryRunner(CLOCK, List.of(look, answer("answer", trace)), List.of()).run(QueryRequest.adHoc(USER, query()));
        assertEquals(List.of(OffsetDateTime.now(CLOCK)), started);
    }

    @Test
    void subscriptionsTakeTheirOwnSteps() {
        QueryRunner runner = new QueryRunner(CLOCK, List.of(answer("api", trace)), List.of(answer("download", trace)),
                List.of(answer("subscription", trace)), List.of(answer("attachment", trace)));
        runner.run(QueryRequest.savedCard(QueryContext.SUBSCRIPTION, USER, new QueryRequest.SavedCard(1, 3L), query(), null,
                QueryRequest.CacheRules.NONE));
        runner.run(QueryRequest.subscription(USER, new QueryRequest.SavedCard(1, 3L), query(), new QueryRequest.Download(
                io.quarry.qp.export.ExportFormat.of("csv"), io.quarry.qp.export.ExportRequest.Options.DEFAULT, "orders")));
        assertEquals(List.of("subscription", "attachment"), trace);
    }

    @Test
    void contextsStillToComeAreNotServed() {
        QueryRunner runner = new QueryRunner(CLOCK, List.of(answer("api", trace)), List.of());
        assertThrows(UnsupportedOperationException.class, () -> runner.run(new QueryRequest(QueryContext.PERSISTENCE_REFRESH,
                USER, query(), null, null, QueryRequest.CacheRules.NONE, null, false)));
        assertNull(QueryContext.EXPORT.key, "a download's context is its format's");
    }

    @Test
    void subscriptionsRunAsTheirCreatorAsAnswerOrAttachment() {
        QueryRunner runner = new QueryRunner(CLOCK, List.of(answer("api", trace)), List.of(answer("download", trace)));
        QueryRequest.SavedCard card = new QueryRequest.SavedCard(1, 1L);
        QueryRequest answer = QueryRequest.subscription(USER, card, query(), null);
        assertEquals(QueryContext.SUBSCRIPTION, answer.context());
        assertEquals(USER, answer.caller());
        runner.run(answer);
        runner.run(QueryRequest.subscription(USER, card, query(), new QueryRequest.Download(io.quarry.qp.export.ExportFormat.of("csv"),
                io.quarry.qp.export.ExportRequest.Options.DEFAULT, "orders")));
        assertEquals(List.of("api", "download"), trace, "a runner built with two lists serves subscriptions with them");
    }

    @Test
    void publicAndEmbeddedQueriesRunAnonymouslyWithTheCardsRights() {
        QueryRunner runner = new QueryRunner(CLOCK, List.of(answer("api", trace)), List.of());
        for (QueryContext context : List.of(QueryContext.PUBLIC, QueryContext.EMBED)) {
            QueryRequest request = QueryRequest.trusted(context, new QueryRequest.SavedCard(1, 1L), query(), null, null);
            assertTrue(request.trusted());
            assertFalse(request.caller().authenticated());
            runner.run(request);
        }
        assertThrows(IllegalArgumentException.class, () -> new QueryRequest(QueryContext.PUBLIC, USER, query(), null, null,
                QueryRequest.CacheRules.NONE, null, false), "a public query is a saved card's");
        assertThrows(IllegalArgumentException.class, () -> QueryRequest.trusted(QueryContext.QUESTION,
                new QueryRequest.SavedCard(1, 1L), query(), null, null));
    }

    @Test
    void queriesQuarryReadsItselfHaveTheirOwnEntries() {
        QueryRunner runner = new QueryRunner(CLOCK, List.of(answer("api", trace)), List.of(answer("download", trace)));
        QueryRequest metadata = QueryRequest.internal(QueryContext.INTERNAL, USER, query());
        QueryRequest values = QueryRequest.internal(QueryContext.PARAMETER_VALUES, USER, query());
        QueryRequest shared = QueryRequest.sharedParameterValues(query());
        for (QueryRequest request : List.of(metadata, values, shared)) {
            assertThrows(UnsupportedOperationException.class, () -> runner.run(request), "not answered to a client");
        }
        assertEquals(List.of(), trace, "no client step ran");
        assertThrows(IllegalArgumentException.class, () -> QueryRequest.internal(QueryContext.AD_HOC, USER, query()));
        assertThrows(IllegalArgumentException.class, () -> runner.columns(values), "values are rows, not columns");
        assertThrows(IllegalArgumentException.class, () -> runner.rows(metadata, null), "metadata is columns, not rows");
        assertThrows(UnsupportedOperationException.class, () -> runner.columns(metadata),
                "a runner of given steps has no query processor to run internal queries with");
    }

    @Test
    void internalQueriesTakeTheirRightsFromTheirContext() {
        QueryRequest metadata = QueryRequest.internal(QueryContext.INTERNAL, USER, query());
        assertFalse(metadata.trusted());
        assertFalse(metadata.runsAsSaved(), "a card being saved is checked as the caller's ad-hoc query");
        QueryRequest values = QueryRequest.internal(QueryContext.PARAMETER_VALUES, USER, query());
        assertFalse(values.trusted());
        assertTrue(values.runsAsSaved(), "filter values are read as a saved question's: only blocked data is refused");
        QueryRequest shared = QueryRequest.sharedParameterValues(query());
        assertTrue(shared.trusted(), "a public link's filter values are read with the link's rights");
        assertFalse(shared.caller().authenticated());
        assertTrue(shared.runsAsSaved());
    }
}
