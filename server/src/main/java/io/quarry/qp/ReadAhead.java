package io.quarry.qp;

import java.sql.SQLException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads a result's rows on a thread of its own, a few batches ahead of the thread that writes them, so that the
 * database producing rows, the driver decoding them and the writer formatting and sending them overlap instead of
 * taking turns (a streamed PostgreSQL result is fetched one batch at a time, the database idle meanwhile). At most
 * {@code batches} batches of {@code batchRows} rows are held. {@link #close} stops the reader and waits for it, so that
 * the result set can then be closed safely.
 */
final class ReadAhead implements AutoCloseable {
    /** Reads the next row into a new array; null at the end of the result. */
    interface Rows {
        Object[] next() throws SQLException;
    }

    /** A batch of rows; {@code last} after the final one, {@code failure} when reading failed. */
    private record Batch(Object[][] rows, int size, boolean last, Throwable failure) {
    }

    private static final long POLL_MILLIS = 100;

    private final BlockingQueue<Batch> queue;
    private final Rows rows;
    private final int batchRows;
    private final Thread thread;
    private volatile boolean stopped;
    private Batch current;
    private int position;

    ReadAhead(Rows rows, int batchRows, int batches) {
        this.rows = rows;
        this.batchRows = batchRows;
        this.queue = new ArrayBlockingQueue<>(batches);
        this.thread = new Thread(this::read, "quarry-read-ahead");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void read() {
        while (!stopped) {
            Object[][] batch = new Object[batchRows][];
            int size = 0;
            Object[] row = null;
            try {
                while (size < batchRows && (row = rows.next()) != null) {
                    batch[size++] = row;
                }
            } catch (Throwable failure) {
                // the rows read before the failure first, then the failure
                if (size > 0) {
                    put(new Batch(batch, size, false, null));
                }
                put(new Batch(new Object[0][], 0, true, failure));
                return;
            }
            boolean last = row == null;
            if (!put(new Batch(batch, size, last, null)) || last) {
                return;
            }
        }
    }

    /** Queues a batch, waiting for room unless stopped; false when stopped. */
    private boolean put(Batch batch) {
        try {
            while (!stopped) {
                if (queue.offer(batch, POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /** The next row, or null at the end; the reader's failure is rethrown here. */
    Object[] next() throws SQLException {
        while (current == null || position == current.size()) {
            if (current != null && current.last()) {
                return null;
            }
            try {
                current = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("Interrupted while reading rows", e);
            }
            position = 0;
            if (current.failure() != null) {
                Throwable failure = current.failure();
                current = new Batch(new Object[0][], 0, true, null);
                if (failure instanceof SQLException e) {
                    throw e;
                }
                if (failure instanceof RuntimeException e) {
                    throw e;
                }
                if (failure instanceof Error e) {
                    throw e;
                }
                throw new IllegalStateException(failure);
            }
        }
        return current.rows()[position++];
    }

    /** Stops reading ahead and waits until the reader has let go of the result set. */
    @Override
    public void close() {
        stopped = true;
        queue.clear();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
