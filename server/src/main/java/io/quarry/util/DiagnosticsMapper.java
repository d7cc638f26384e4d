package io.quarry.util;

import java.time.OffsetDateTime;

/** Counts for the anonymous usage statistics and the bug report: numbers only, never who. */
public interface DiagnosticsMapper {
    UserStats userStats();

    long countGroups();

    long countApiKeys();

    /** People only (not the users behind API keys). */
    final class UserStats {
        public long total;
        public Long active;
        public Long admin;
        public Long loggedIn;
        public Long sso;
        public OffsetDateTime firstJoined;
    }
}
