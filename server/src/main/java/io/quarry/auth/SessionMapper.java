package io.quarry.auth;

import java.time.OffsetDateTime;
import org.apache.ibatis.annotations.Param;

public interface SessionMapper {
    void insertSession(@Param("keyHash") String keyHash, @Param("userId") long userId, @Param("createdAt") OffsetDateTime createdAt,
                       @Param("type") String type);

    /** The user id of a session created after {@code notBefore}, or null. */
    Long findSessionUser(@Param("keyHash") String keyHash, @Param("notBefore") OffsetDateTime notBefore);

    /** When the session began (null when there is none). */
    OffsetDateTime findSessionStart(@Param("keyHash") String keyHash);

    int deleteSession(@Param("keyHash") String keyHash);

    int deleteSessionsOfUser(@Param("userId") long userId);

    int deleteSessionsCreatedBefore(@Param("before") OffsetDateTime before);

    void insertLoginHistory(@Param("userId") long userId, @Param("at") OffsetDateTime at, @Param("sessionHash") String sessionHash,
                            @Param("deviceId") String deviceId, @Param("device") String deviceDescription,
                            @Param("ip") String ipAddress);

    /** A user's sign-ins, newest first; {@code active} when the session they opened still exists and has not expired. */
    java.util.List<LoginHistoryEntry> listLoginHistory(@Param("userId") long userId, @Param("notBefore") OffsetDateTime notBefore);

    /** One row of login_history as the API may show it: never the session hash. */
    final class LoginHistoryEntry {
        public OffsetDateTime loggedInAt;
        public String deviceDescription;
        public String ipAddress;
        public boolean active;
    }
}
