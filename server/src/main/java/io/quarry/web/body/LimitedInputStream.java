package io.quarry.web.body;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Counts the bytes read and fails as soon as they pass the limit, so no caller ever buffers more than that. */
final class LimitedInputStream extends FilterInputStream {
    static final class TooLarge extends IOException {
        TooLarge() {
            super("Request body too large");
        }
    }

    private final long limit;
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

    private void count(long n) throws TooLarge {
        count += n;
        if (count > limit) {
            throw new TooLarge();
        }
    }
}
