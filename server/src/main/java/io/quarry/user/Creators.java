package io.quarry.user;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.ibatis.session.SqlSession;

/** Metabase's hydrated {@code creator} of a piece of content (segments, snippets). */
public final class Creators {
    private Creators() {
    }

    /** The user as the {@code user} of a revision (its author summary), looked up once per request; null when unknown. */
    public static Map<String, Object> author(SqlSession session, Long userId, Map<Long, User> users) {
        User u = find(session, userId, users);
        return u == null ? null : u.summary().author();
    }

    private static User find(SqlSession session, Long userId, Map<Long, User> users) {
        return userId == null ? null : users.computeIfAbsent(userId, id -> session.getMapper(UserMapper.class).findUser(id));
    }

    /** The user as a {@code creator} map, looked up once per request through {@code users}; null when unknown. */
    public static Map<String, Object> of(SqlSession session, Long userId, Map<Long, User> users) {
        User u = find(session, userId, users);
        if (u == null) {
            return null;
        }
        Map<String, Object> v = u.summary().view();
        v.put("date_joined", u.dateJoined);
        v.put("last_login", u.lastLogin);
        v.put("is_qbnewb", u.isQbnewb);
        v.put("is_superuser", u.isSuperuser);
        v.put("locale", u.locale);
        return v;
    }
}
