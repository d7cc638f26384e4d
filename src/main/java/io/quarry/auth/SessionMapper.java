package io.quarry.auth;

import java.time.OffsetDateTime;
import org.apache.ibatis.annotations.Param;

public interface SessionMapper {
    void insertSession(@Param("keyHash") String keyHash, @Param("userId") long userId, @Param("createdAt") OffsetDateTime createdAt,
                       @Param("type") String type);

    /** The user id of a session created after {@code notBefore}, or null. */
    Long findSessionUser(@Param("keyHash") String keyHash, @Param("notBefore") OffsetDateTime notBefore);

    int deleteSession(@Param("keyHash") String keyHash);

    int deleteSessionsOfUser(@Param("userId") long userId);

    int deleteSessionsCreatedBefore(@Param("before") OffsetDateTime before);

    void insertLoginHistory(@Param("userId") long userId, @Param("at") OffsetDateTime at, @Param("sessionHash") String sessionHash,
                            @Param("deviceId") String deviceId, @Param("device") String deviceDescription,
                            @Param("ip") String ipAddress);

    java.util.List<java.util.Map<String, Object>> listLoginHistory(@Param("userId") long userId);
}
