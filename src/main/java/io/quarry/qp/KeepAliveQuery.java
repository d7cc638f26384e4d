package io.quarry.qp;

import io.quarry.core.Json;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes a query on a worker thread while the HTTP thread keeps the client's connection alive, as Metabase's
 * streaming responses do. A query that has its first rows (or fails) within {@link #GRACE} answers exactly as before: a
 * failure with its 4xx status, rows with 202. A slower one commits the 202 and writes a newline every
 * {@link #INTERVAL} until it has rows (JSON allows leading whitespace): that keeps proxies from dropping an idle
 * connection, and a write that fails tells that the client has gone — the statement is then cancelled on the database
 * instead of running until its timeout. A failure after the commit is written as the body (status 202, as Metabase).
 */
public final class KeepAliveQuery {
    private static final Logger log = LoggerFactory.getLogger(KeepAliveQuery.class);
    static final Duration GRACE = Duration.ofSeconds(1);
    static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final byte[] NEWLINE = {'\n'};
    /** More than Jersey's response buffer ({@code jersey.config.contentLength.buffer}, 8 KB by default). */
    private static final int COMMIT_BYTES = org.glassfish.jersey.message.internal.CommittingOutputStream.DEFAULT_BUFFER_SIZE + 1;

    /** Writes the result of an executed query to the response body. */
    public interface Body {
        void write(QueryExecutor.Cursor cursor, OutputStream out) throws IOException;
    }

    private final AtomicReference<Statement> statement = new AtomicReference<>();
    private volatile boolean abandoned;
    private final CompletableFuture<QueryExecutor.Cursor> result;

    private KeepAliveQuery(QueryProcessor processor, QueryProcessor.Prepared prepared) {
        result = CompletableFuture.supplyAsync(() -> processor.open(prepared, s -> {
            statement.set(s);
            if (abandoned) {
                throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, "The client went away.");
            }
        }), processor.workers());
    }

    /**
     * Runs {@code prepared} and answers: Metabase's failure response for a failure within the grace period, else a 202
     * whose body {@code body} writes (after keep-alive newlines when the query is slow; the failure body for a later
     * failure). {@code request} and {@code databaseId} go into the failure body.
     */
    public static Response respond(QueryProcessor processor, QueryProcessor.Prepared prepared, Object request, Long databaseId,
                                   Body body) {
        KeepAliveQuery running = new KeepAliveQuery(processor, prepared);
        QueryExecutor.Cursor early;
        try {
            early = running.await(GRACE);
        } catch (QueryFailure failure) {
            return QueryResponses.failure(failure, request, databaseId);
        }
        StreamingOutput stream = out -> {
            QueryExecutor.Cursor cursor = early;
            if (cursor == null) {
                try {
                    cursor = running.awaitWritingNewlines(out);
                } catch (QueryFailure failure) {
                    // The caller is not known here: the driver's class is for administrators only (QueryFailureClassFilter).
                    java.util.Map<String, Object> failureBody = QueryResponses.failureBody(failure, request, databaseId);
                    failureBody.remove("class");
                    out.write(Json.write(failureBody).getBytes(StandardCharsets.UTF_8));
                    return;
                }
            }
            body.write(cursor, out);
        };
        return Response.status(202).type(MediaType.APPLICATION_JSON_TYPE).entity(stream).build();
    }

    /** The cursor when the query executed within {@code wait}; null while it still runs; a failure is thrown. */
    QueryExecutor.Cursor await(Duration wait) {
        try {
            return unwrap(() -> result.get(wait.toMillis(), TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            return null;
        }
    }

    /** Waits for the query, writing a newline every interval; a failed write abandons (cancels) the query. */
    QueryExecutor.Cursor awaitWritingNewlines(OutputStream out) throws IOException {
        // Jersey holds back the first 8 KB of a response (to give it a Content-Length) and ignores flush() until then:
        // the first keep-alive is whitespace enough to commit the response, so that every later newline goes out.
        byte[] whitespace = new byte[COMMIT_BYTES];
        java.util.Arrays.fill(whitespace, (byte) '\n');
        boolean first = true;
        while (true) {
            try {
                out.write(first ? whitespace : NEWLINE);
                out.flush();
                first = false;
            } catch (IOException | RuntimeException gone) {
                abandon();
                throw gone;
            }
            try {
                return unwrap(() -> result.get(INTERVAL.toMillis(), TimeUnit.MILLISECONDS));
            } catch (TimeoutException e) {
                // still running
            }
        }
    }

    /** The client has gone: cancel the running statement, and close the cursor should it arrive anyway. */
    void abandon() {
        abandoned = true;
        Statement running = statement.get();
        if (running != null) {
            try {
                running.cancel();
            } catch (SQLException e) {
                log.debug("Cancelling an abandoned query failed: {}", e.getMessage());
            }
        }
        result.whenComplete((cursor, failure) -> {
            if (cursor != null) {
                cursor.close();
            }
        });
    }

    private interface Get {
        QueryExecutor.Cursor get() throws InterruptedException, ExecutionException, TimeoutException;
    }

    private QueryExecutor.Cursor unwrap(Get get) throws TimeoutException {
        try {
            return get.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandon();
            throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, "The query was interrupted.");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }
}
