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
    private final PulseService pulses;
    private final boolean throttled;
    /** Every call counts, valid or not: 50 an hour per client, reported under "unsubscribe" (Metabase's throttle). */
    private final Throttle byIp;

    public UnsubscribeService(Settings settings, PulseService pulses, AppConfig config, Clock clock) {
        this.settings = settings;
        this.pulses = pulses;
        this.throttled = !config.sessionThrottleDisabled;
        this.byIp = new Throttle("unsubscribe", 50, Duration.ofHours(1).toMillis(), clock);
    }

    /** Removes the address from the pulse's email channel; answers the pulse's name (Metabase's {@code title}). */
    public String unsubscribe(String email, String hash, long pulseId, String ip) {
        checkHash(email, hash, pulseId, ip);
        if (!pulses.exists(pulseId)) {
            throw ApiException.notFound();
        }
        if (!pulses.removeEmail(pulseId, email)) {
            throw ApiException.badRequest("Email for pulse-id doesn't exist.");
        }
        return pulses.nameOf(pulseId);
    }

    /** Puts the address back on the pulse's email channel. */
    public String undo(String email, String hash, long pulseId, String ip) {
        checkHash(email, hash, pulseId, ip);
        if (!pulses.exists(pulseId)) {
            throw ApiException.notFound();
        }
        if (!pulses.addEmail(pulseId, email)) {
            throw ApiException.badRequest("Email for pulse-id already exists.");
        }
        return pulses.nameOf(pulseId);
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
