package io.quarry.notification;

import io.quarry.auth.Throttle;
import io.quarry.core.AppConfig;
import io.quarry.setting.Settings;
import io.quarry.web.error.ApiException;
import java.time.Clock;
import java.time.Duration;

/**
 * Unsubscribing people who are not users from a pulse, with the hash their email carried
 * ({@code POST /api/session/pulse/unsubscribe[/undo]} and the v0.63 names {@code /api/pulse/unsubscribe[/undo]}).
 */
public final class UnsubscribeService {
    private final Settings settings;
    private final boolean throttled;
    /** Every call counts, valid or not: 50 an hour per client, reported under "unsubscribe" (Metabase's throttle). */
    private final Throttle byIp;

    public UnsubscribeService(Settings settings, AppConfig config, Clock clock) {
        this.settings = settings;
        this.throttled = !config.sessionThrottleDisabled;
        this.byIp = new Throttle("unsubscribe", 50, Duration.ofHours(1).toMillis(), clock);
    }

    public void unsubscribe(String email, String hash, long pulseId, String ip) {
        checkHash(email, hash, pulseId, ip);
        // Removing the address from the pulse's email channel lands with pulses (notifications). Until then no pulse
        // exists, so a genuine link answers what Metabase answers for a pulse that is gone: 404.
        throw ApiException.notFound();
    }

    public void undo(String email, String hash, long pulseId, String ip) {
        checkHash(email, hash, pulseId, ip);
        // Adding the address back lands with pulses (notifications), as above.
        throw ApiException.notFound();
    }

    private void checkHash(String email, String hash, long pulseId, String ip) {
        if (throttled) {
            byIp.checkAndRecord(ip);
        }
        if (!UnsubscribeHash.matches(settings.string("site-uuid-for-unsubscribing-url"), email, pulseId, hash)) {
            throw ApiException.badRequest("Invalid hash.");
        }
    }
}
