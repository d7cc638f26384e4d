package io.quarry.qp.run;

import io.quarry.qp.QueryFailure;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What running a query came to, without any HTTP type in it: a query that failed before its answer started
 * ({@link Failed}, with Metabase's failure body) or an answer to stream ({@link Streamed}). The web layer turns either
 * into a response.
 */
public sealed interface QueryOutcome permits QueryOutcome.Failed, QueryOutcome.Streamed, QueryOutcome.Materialized,
        QueryOutcome.Read {

    /** A failure before anything was written: its status (4xx, or 500 for Quarry's faults) and Metabase's body. */
    record Failed(QueryFailure failure, Object jsonQuery, Long databaseId) implements QueryOutcome {
        public int status() {
            return failure.type().status;
        }

        /** {@code status: failed}, the database's message, the error type, the query as sent. */
        public Map<String, Object> body() {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("status", "failed");
            body.put("error", failure.getMessage());
            body.put("error_type", failure.type().key);
            if (failure.getCause() != null) {
                body.put("class", "class " + failure.getCause().getClass().getName());
            }
            body.put("state", failure.sqlState());
            body.put("json_query", jsonQuery);
            body.put("database_id", databaseId);
            body.put("row_count", 0);
            body.put("running_time", 0);
            body.put("data", Map.of("rows", List.of(), "cols", List.of()));
            return body;
        }
    }

    /**
     * An answer streamed as it is computed: its status (202 for API results, a download's own), content type, headers
     * (in order) and body. The body may throw {@link FailedBeforeOutput} when the query fails before it wrote a byte.
     */
    record Streamed(int status, String contentType, Map<String, String> headers, Body body) implements QueryOutcome {
    }

    /**
     * A query whose result went into a table of its own database rather than to a client (a persisted model's
     * refresh): the database it ran on.
     */
    record Materialized(long databaseId) implements QueryOutcome {
    }

    /**
     * A query Quarry read itself (a card's result metadata, a filter's values): its rows or columns went to the
     * reader the runner was given, not to a client. The database it ran on.
     */
    record Read(long databaseId) implements QueryOutcome {
    }

    /** Writes an answer. */
    interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    /** A streamed answer that failed before any byte of it was written: the failure can still have its own status. */
    final class FailedBeforeOutput extends RuntimeException {
        private final transient Failed failed;

        public FailedBeforeOutput(Failed failed) {
            super(failed.failure().getMessage(), failed.failure());
            this.failed = failed;
        }

        public Failed failed() {
            return failed;
        }
    }
}
