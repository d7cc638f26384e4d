package io.quarry.qp.run;

import io.quarry.core.Json;
import io.quarry.qp.ApiResultWriter;
import io.quarry.qp.QueryExecutor;
import io.quarry.qp.QueryFailure;
import io.quarry.qp.QueryProcessor;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes the query on a worker thread while the HTTP thread keeps the client's connection alive, as Metabase's
 * streaming responses do (the last step of an API answer). A query that has its first rows (or fails) within
 * {@link #GRACE} answers exactly as a quick one: a failure with its 4xx status, rows with 202. A slower one commits the
 * 202 and writes a newline every {@link #INTERVAL} until it has rows (JSON allows leading whitespace): that keeps
 * proxies from dropping an idle connection, and a write that fails tells that the client has gone — the statement is
 * then cancelled on the database instead of running until its timeout. A failure after the commit is written as the
 * body (status 202, as Metabase).
 */
final class ExecuteWithKeepAlive implements QueryStep {
    private static final Logger log = LoggerFactory.getLogger(ExecuteWithKeepAlive.class);
    static final Duration GRACE = Duration.ofSeconds(1);
    static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final byte[] NEWLINE = {'\n'};
    /** More than Jersey's response buffer ({@code jersey.config.contentLength.buffer}, 8 KB by default). */
    private static final int COMMIT_BYTES = org.glassfish.jersey.message.internal.CommittingOutputStream.DEFAULT_BUFFER_SIZE + 1;

    private final QueryProcessor processor;

    ExecuteWithKeepAlive(QueryProcessor processor) {
        this.processor = processor;
    }

    /** An API answer: 202 and Metabase's result object as JSON. */
    static QueryOutcome apiAnswer(QueryOutcome.Body body) {
        return new QueryOutcome.Streamed(202, "application/json", Map.of(), body);
    }

    @Override
    public QueryOutcome apply(QueryRun run, Chain next) {
        ApiResultWriter.Envelope envelope = run.envelope(Map.of());
        Running running = new Running(processor, run.prepared());
        // a failure within the grace period is thrown: the runner answers it with its own status
        QueryExecutor.Cursor early = running.await(GRACE);
        Object failureQuery = run.failureQuery();
        Long failureDatabaseId = run.failureDatabaseId();
        boolean superuser = run.request().caller().superuser();
        return apiAnswer(out -> {
            QueryExecutor.Cursor cursor = early;
            if (cursor == null) {
                try {
                    cursor = running.awaitWritingNewlines(out);
                } catch (QueryFailure failure) {
                    Map<String, Object> body = new QueryOutcome.Failed(failure, failureQuery, failureDatabaseId).body();
                    if (!superuser) {
                        body.remove("class"); // the driver's class is for administrators only, as QueryFailureClassFilter does
                    }
                    out.write(Json.write(body).getBytes(StandardCharsets.UTF_8));
                    return;
                }
            }
            cursor.stream(run.recording(new ApiResultWriter(out, envelope)));
        });
    }

    /** A query executing on a worker thread, cancelled when its client goes away. */
    static final class Running {
        private final AtomicReference<Statement> statement = new AtomicReference<>();
        private volatile boolean abandoned;
        private final CompletableFuture<QueryExecutor.Cursor> result;

        Running(QueryProcessor processor, QueryProcessor.Prepared prepared) {
            result = CompletableFuture.supplyAsync(() -> processor.open(prepared, s -> {
                statement.set(s);
                if (abandoned) {
                    throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, "The client went away.");
                }
            }), processor.workers());
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
            // Jersey holds back the first 8 KB of a response (to give it a Content-Length) and ignores flush() until
            // then: the first keep-alive is whitespace enough to commit the response, so that every later newline goes out.
            byte[] whitespace = new byte[COMMIT_BYTES];
            Arrays.fill(whitespace, (byte) '\n');
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
}
