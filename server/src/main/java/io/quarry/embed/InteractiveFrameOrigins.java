package io.quarry.embed;

import io.quarry.setting.Settings;
import io.quarry.web.security.FrameAncestors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The origins that may frame Quarry for interactive embedding, as Metabase's {@code security.clj} has them: those of
 * {@code embedding-app-origins-interactive} while {@code enable-embedding-interactive} is on, else none. Every
 * response asks, so the answer is kept for a second (Metabase likewise serves settings from a cache) instead of
 * reading the application database on each request; a change shows within about that second.
 *
 * <p>A response never waits on the application database for it: once a value is known, an expired one is still
 * answered while one background thread reads the settings again (a frozen application database would otherwise hold
 * every answer, {@code /api/health} included, until its socket timeout: AppDatabaseOutageIT). Only the very first
 * call reads synchronously.
 */
public final class InteractiveFrameOrigins implements FrameAncestors {
    static final long TTL_NANOS = 1_000_000_000L;
    private static final Logger log = LoggerFactory.getLogger(InteractiveFrameOrigins.class);

    private final Supplier<Settings> settings;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private volatile Cached cached;

    /** {@code settings} gives null while Quarry is starting. */
    public InteractiveFrameOrigins(Supplier<Settings> settings) {
        this.settings = settings;
    }

    @Override
    public String origins() {
        Cached last = cached;
        if (last == null) {
            Cached read = read();
            return read == null ? null : read.origins;
        }
        if (System.nanoTime() - last.at >= TTL_NANOS && refreshing.compareAndSet(false, true)) {
            Thread refresh = new Thread(() -> {
                try {
                    read();
                } catch (RuntimeException e) {
                    log.debug("Interactive embedding origins not read: {}", e.toString());
                } finally {
                    refreshing.set(false);
                }
            }, "quarry-frame-origins");
            refresh.setDaemon(true);
            refresh.start();
        }
        return last.origins;
    }

    /** Reads the settings and keeps the answer; null while Quarry is starting. */
    private Cached read() {
        Settings current = settings.get();
        if (current == null) {
            return null;
        }
        String origins = current.bool("enable-embedding-interactive") ? current.string("embedding-app-origins-interactive") : null;
        Cached read = new Cached(System.nanoTime(), origins);
        cached = read;
        return read;
    }

    private record Cached(long at, String origins) {
    }
}
