package io.quarry.auth;

import io.quarry.appdb.Db;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A user's sign-ins, as {@code GET /api/login-history/current} shows them. */
public final class LoginHistory {
    private final Db db;
    private final SessionService sessions;
    private final Clock clock;

    public LoginHistory(Db db, SessionService sessions, Clock clock) {
        this.db = db;
        this.sessions = sessions;
        this.clock = clock;
    }

    /**
     * Newest first: {@code timestamp}, {@code device_description} (the user agent, described), {@code ip_address},
     * {@code active} (its session is still open). Metabase also geolocates the address ({@code location},
     * {@code timezone}); Quarry asks no outside service, so those are null.
     */
    public List<Map<String, Object>> of(long userId) {
        OffsetDateTime notBefore = OffsetDateTime.now(clock).minus(sessions.maxAge());
        return db.with(SessionMapper.class, m -> m.listLoginHistory(userId, notBefore)).stream().map(entry -> {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("timestamp", entry.loggedInAt);
            view.put("device_description", UserAgents.describe(entry.deviceDescription));
            view.put("ip_address", entry.ipAddress);
            view.put("active", entry.active);
            view.put("location", null);
            view.put("timezone", null);
            return view;
        }).toList();
    }
}
