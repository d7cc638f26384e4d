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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * <p>A quick query thus costs no thread hand-off and no timer entry: it joins the set of running queries that one sweep
 * looks over every {@link #TICK} (started with the first query), and leaves it; only a keep-alive that is due goes to
 * the timer's threads.
 */
final class ExecuteWithKeepAlive implements QueryStep {
    private static final Logger log = LoggerFactory.getLogger(ExecuteWithKeepAlive.class);
    static final Duration GRACE = Duration.ofSeconds(1);
    static final Duration INTERVAL = Duration.ofSeconds(1);
    /** How often the sweep looks for keep-alives that are due: they are written up to this late. */
    static final Duration TICK = Duration.ofMillis(100);
    private static final byte[] NEWLINE = {'\n'};
    /** More than Jersey's response buffer ({@code jersey.config.contentLength.buffer}, 8 KB by default). */
    private static final int COMMIT_BYTES = org.glassfish.jersey.message.internal.CommittingOutputStream.DEFAULT_BUFFER_SIZE + 1;

    private final QueryProcessor processor;
    /** The queries executing now; a set, not a timer entry each (scheduling and cancelling one per query woke the timer). */
    private final Set<KeepAlive> running = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean sweeping = new AtomicBoolean();

    ExecuteWithKeepAlive(QueryProcessor processor) {
        this.processor = processor;
    }

    /** Hands every keep-alive that is due to the timer's threads (a slow client then holds up no other). */
    private void sweep() {
        long now = System.nanoTime();
        for (KeepAlive keepAlive : running) {
            if (keepAlive.takeIfDue(now)) {
                try {
                    processor.keepAliveTimer().execute(keepAlive);
                } catch (RejectedExecutionException stopping) {
                    return;
                }
            }
        }
    }

    private KeepAlive keepAlive(OutputStream out) {
        if (!sweeping.get() && sweeping.compareAndSet(false, true)) {
            processor.keepAliveTimer().scheduleWithFixedDelay(this::sweep, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
        }
        KeepAlive keepAlive = new KeepAlive(out, running);
        running.add(keepAlive);
        return keepAlive;
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
            KeepAlive keepAlive = keepAlive(out);
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
     * then a newline every {@link #INTERVAL}, written by a timer thread when the sweep finds it due; a write that fails
     * cancels the statement. {@link #stop()} ends it before the request thread writes the answer itself.
     */
    static final class KeepAlive implements Runnable {
        private static final long NOT_DUE = Long.MAX_VALUE;
        private final OutputStream out;
        private final Set<KeepAlive> running;
        private final AtomicReference<Statement> statement = new AtomicReference<>();
        private final Object lock = new Object();
        /** When the next write is due ({@link System#nanoTime}); {@link #NOT_DUE} while one is handed over or written. */
        private volatile long dueAt;
        /** Guarded by {@code lock}: whether the request thread has taken the stream back, what was written. */
        private boolean stopped;
        private boolean written;
        private volatile boolean gone;

        KeepAlive(OutputStream out, Set<KeepAlive> running) {
            this.out = out;
            this.running = running;
            this.dueAt = System.nanoTime() + GRACE.toNanos();
        }

        /** Whether a write is due at {@code now}; if so it is the caller's to run (the sweep's, one at a time). */
        boolean takeIfDue(long now) {
            long due = dueAt;
            if (due == NOT_DUE || now - due < 0) {
                return false;
            }
            dueAt = NOT_DUE;
            return true;
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
                    running.remove(this);
                    cancelStatement();
                    return;
                }
                dueAt = System.nanoTime() + INTERVAL.toNanos();
            }
        }

        /** Ends the keep-alive (waiting for a write in progress); whether anything was written. */
        boolean stop() {
            running.remove(this);
            synchronized (lock) {
                stopped = true;
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
