package io.quarry.embed;

import io.quarry.setting.Settings;
import io.quarry.web.security.FrameAncestors;
import java.util.function.Supplier;

/**
 * The origins that may frame Quarry for interactive embedding, as Metabase's {@code security.clj} has them: those of
 * {@code embedding-app-origins-interactive} while {@code enable-embedding-interactive} is on, else none. Every
 * response asks, so the answer is kept for a second (Metabase likewise serves settings from a cache) instead of
 * reading the application database on each request; a change shows within that second.
 */
public final class InteractiveFrameOrigins implements FrameAncestors {
    static final long TTL_NANOS = 1_000_000_000L;

    private final Supplier<Settings> settings;
    private volatile Cached cached;

    /** {@code settings} gives null while Quarry is starting. */
    public InteractiveFrameOrigins(Supplier<Settings> settings) {
        this.settings = settings;
    }

    @Override
    public String origins() {
        long now = System.nanoTime();
        Cached last = cached;
        if (last != null && now - last.at < TTL_NANOS) {
            return last.origins;
        }
        Settings current = settings.get();
        if (current == null) {
            return null;
        }
        String origins = current.bool("enable-embedding-interactive") ? current.string("embedding-app-origins-interactive") : null;
        cached = new Cached(now, origins);
        return origins;
    }

    private record Cached(long at, String origins) {
    }
}
