package io.quarry.qp.run;

import io.quarry.core.Json;
import io.quarry.qp.ApiResultWriter;
import io.quarry.qp.QueryExecutor;
import io.quarry.qp.QueryFailure;
import io.quarry.qp.QueryProcessor;
import io.quarry.qp.QueryTimers;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes the query on the request thread and keeps the client's connection alive meanwhile, as Metabase's streaming
 * responses do (the last step of an API answer). The query runs when the answer is written: one that has its first
 * rows (or fails) within {@link #GRACE} answers exactly as a quick one, a failure with its 4xx status (nothing has been
 * written, so the response can still take it), rows with 202. For a slower one a timer thread commits the 202 and
 * writes a newline every {@link #INTERVAL} while the request thread waits on the database (JSON allows leading
 * whitespace): that keeps proxies from dropping an idle connection, and a write that fails tells that the client has
 * gone — the statement is then cancelled on the database instead of running until its timeout. A failure after the
 * commit is written as the body (status 202, as Metabase).
 *
 * <p>A quick query thus costs no thread hand-off: its timer (one of {@link QueryTimers}) is set and cancelled, never run,
 * and wakes no thread.
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
        QueryProcessor.Prepared prepared = run.prepared();
        Object failureQuery = run.failureQuery();
        Long failureDatabaseId = run.failureDatabaseId();
        boolean superuser = run.request().caller().superuser();
        return apiAnswer(out -> {
            KeepAlive keepAlive = new KeepAlive(out, processor.timers());
            QueryExecutor.Cursor cursor;
            try {
                cursor = processor.open(prepared, keepAlive::executing);
            } catch (QueryFailure failure) {
                if (!keepAlive.stop()) {
                    // nothing written: the failure still gets its own status and Metabase's body
                    throw new QueryOutcome.FailedBeforeOutput(new QueryOutcome.Failed(failure, failureQuery, failureDatabaseId));
                }
                if (keepAlive.clientGone()) {
                    log.debug("The client of a query went away; the query was cancelled ({})", failure.getMessage());
                    return;
                }
                Map<String, Object> body = new QueryOutcome.Failed(failure, failureQuery, failureDatabaseId).body();
                if (!superuser) {
                    body.remove("class"); // the driver's class is for administrators only, as QueryFailureClassFilter does
                }
                out.write(Json.write(body).getBytes(StandardCharsets.UTF_8));
                return;
            } catch (RuntimeException | Error unexpected) {
                // no keep-alive may write into an answer that has ended
                keepAlive.stop();
                throw unexpected;
            }
            // from here on only this thread writes
            keepAlive.stop();
            if (keepAlive.clientGone()) {
                cursor.close();
                return;
            }
            cursor.stream(run.recording(new ApiResultWriter(out, envelope)));
        });
    }

    /**
     * The keep-alive of one query while it executes: after {@link #GRACE}, whitespace enough to commit the response,
     * then a newline every {@link #INTERVAL}, written by the timer's thread; a write that fails cancels the statement.
     * {@link #stop()} ends it before the request thread writes the answer itself.
     */
    static final class KeepAlive implements Runnable {
        private final OutputStream out;
        private final QueryTimers timers;
        private final AtomicReference<Statement> statement = new AtomicReference<>();
        private final Object lock = new Object();
        /** Guarded by {@code lock}: the next write, whether the request thread has taken the stream back, what was written. */
        private QueryTimers.Timer next;
        private boolean stopped;
        private boolean written;
        private volatile boolean gone;

        KeepAlive(OutputStream out, QueryTimers timers) {
            this.out = out;
            this.timers = timers;
            synchronized (lock) {
                next = timers.schedule(this, GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        }

        /** The statement about to execute, shown so that a client gone can cancel it; refused once the client has gone. */
        void executing(Statement executing) {
            statement.set(executing);
            if (gone) {
                throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, "The client went away.");
            }
        }

        @Override
        public void run() {
            synchronized (lock) {
                if (stopped) {
                    return;
                }
                try {
                    if (written) {
                        out.write(NEWLINE);
                    } else {
                        // Jersey holds back the first 8 KB of a response (to give it a Content-Length) and ignores
                        // flush() until then: the first keep-alive is whitespace enough to commit it, so that every
                        // later newline goes out
                        byte[] whitespace = new byte[COMMIT_BYTES];
                        Arrays.fill(whitespace, (byte) '\n');
                        out.write(whitespace);
                    }
                    written = true;
                    out.flush();
                } catch (IOException | RuntimeException clientGone) {
                    gone = true;
                    stopped = true;
                    cancelStatement();
                    return;
                }
                next = timers.schedule(this, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
            }
        }

        /** Ends the keep-alive (waiting for a write in progress); whether anything was written. */
        boolean stop() {
            synchronized (lock) {
                stopped = true;
                next.cancel();
                return written;
            }
        }

        boolean clientGone() {
            return gone;
        }

        private void cancelStatement() {
            Statement running = statement.get();
            if (running != null) {
                try {
                    running.cancel();
                } catch (SQLException e) {
                    log.debug("Cancelling an abandoned query failed: {}", e.getMessage());
                }
            }
        }
    }
}
