package io.quarry.web.body;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Counts the bytes read and fails as soon as they pass the limit, so no caller ever buffers more than that; and fails a
 * body that, {@link #GRACE_NANOS} after its first read, has arrived slower than {@link #MIN_BYTES_PER_SECOND} (a
 * client trickling its body holds a request thread; the container's idle timeout restarts with every byte). The grace
 * keeps a pause between a body's packets, or a small body sent in pieces, from ever being refused.
 */
final class LimitedInputStream extends FilterInputStream {
    static final long GRACE_NANOS = 10_000_000_000L;
    static final long MIN_BYTES_PER_SECOND = 1024;

    static final class TooLarge extends IOException {
        TooLarge() {
            super("Request body too large");
        }
    }

    /** The body arrived slower than the minimum rate once the grace had passed. */
    static final class TooSlow extends IOException {
        TooSlow() {
            super("Request body arrived too slowly");
        }
    }

    private final long limit;
    private final long started = System.nanoTime();
    private long count;

    LimitedInputStream(InputStream in, long limit) {
        super(in);
        this.limit = limit;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            count(1);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, (int) Math.min(length, limit - count + 1));
        if (n > 0) {
            count(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(Math.min(n, limit - count + 1));
        count(skipped);
        return skipped;
    }

    private void count(long n) throws IOException {
        count += n;
        if (count > limit) {
            throw new TooLarge();
        }
        long elapsed = System.nanoTime() - started;
        if (elapsed > GRACE_NANOS && count * 1_000_000_000.0 / elapsed < MIN_BYTES_PER_SECOND) {
            throw new TooSlow();
        }
    }
}
