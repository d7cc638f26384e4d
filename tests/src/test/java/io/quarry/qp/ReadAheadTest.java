package io.quarry.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Rows read on a second thread: in order, bounded, failures handed over, and a clean stop. */
@Timeout(10)
class ReadAheadTest {
    /** Rows 0..count-1, counting how many were read. */
    private static final class Counting implements ReadAhead.Rows {
        final AtomicInteger read = new AtomicInteger();
        final int count;

        Counting(int count) {
            this.count = count;
        }

        @Override
        public Object[] next() {
            int n = read.get();
            if (n == count) {
                return null;
            }
            read.incrementAndGet();
            return new Object[]{n};
        }
    }

    @Test
    void everyRowInOrderThenTheEnd() throws Exception {
        for (int count : new int[]{0, 1, 255, 256, 257, 10_000}) {
            Counting rows = new Counting(count);
            try (ReadAhead ahead = new ReadAhead(rows, 256, 4)) {
                for (int i = 0; i < count; i++) {
                    assertEquals(i, ahead.next()[0]);
                }
                assertNull(ahead.next());
                assertNull(ahead.next(), "the end stays the end");
            }
        }
    }

    @Test
    void readsOnlyABoundedWayAhead() throws Exception {
        Counting rows = new Counting(1_000_000);
        try (ReadAhead ahead = new ReadAhead(rows, 100, 3)) {
            ahead.next();
            Thread.sleep(300);
            // the batch being taken, three queued, one being filled
            assertTrue(rows.read.get() <= 100 * 5, rows.read.get() + " rows read");
        }
        int atClose = rows.read.get();
        Thread.sleep(100);
        assertEquals(atClose, rows.read.get(), "nothing is read after close");
    }

    @Test
    void aFailureReachesTheReaderAfterTheRowsBeforeIt() throws Exception {
        SQLException broken = new SQLException("connection lost");
        AtomicInteger n = new AtomicInteger();
        ReadAhead.Rows rows = () -> {
            if (n.get() == 300) {
                throw broken;
            }
            return new Object[]{n.getAndIncrement()};
        };
        try (ReadAhead ahead = new ReadAhead(rows, 256, 4)) {
            for (int i = 0; i < 300; i++) {
                assertEquals(i, ahead.next()[0]);
            }
            assertSame(broken, assertThrows(SQLException.class, ahead::next));
        }
        QueryFailure timeout = new QueryFailure(QueryFailure.Type.TIMED_OUT, "too slow");
        try (ReadAhead ahead = new ReadAhead(() -> {
            throw timeout;
        }, 256, 4)) {
            assertSame(timeout, assertThrows(QueryFailure.class, ahead::next));
        }
    }

    @Test
    void closingEarlyStopsTheReaderThread() throws Exception {
        Counting rows = new Counting(Integer.MAX_VALUE);
        ReadAhead ahead = new ReadAhead(rows, 10, 2);
        ahead.next();
        long start = System.nanoTime();
        ahead.close();
        assertTrue((System.nanoTime() - start) / 1_000_000 < 2_000, "close waits for the reader to stop, briefly");
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().startsWith("quarry-read-ahead")
                && t.isAlive()), "no reader thread left");
    }
}
