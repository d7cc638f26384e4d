package io.quarry.user;

import io.quarry.appdb.Db;
import io.quarry.auth.Passwords;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.ibatis.session.SqlSession;

/** People: creating them, reading them, and the wire form clients expect. */
public final class UserService {
    private final Db db;
    private final Clock clock;

    public UserService(Db db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    /** What a new user is made of; {@code password} null means a random one (invited users set theirs by email). */
    public record NewUser(String email, String firstName, String lastName, String password, boolean superuser,
                          Map<String, Object> loginAttributes, String locale) {
    }

    /** Inserts a user with memberships in All Users (and Administrators when asked), inside the caller's transaction. */
    public User insert(SqlSession session, NewUser spec) {
        UserMapper users = session.getMapper(UserMapper.class);
        OffsetDateTime now = now();
        User user = new User();
        user.email = spec.email().trim().toLowerCase(Locale.ROOT);
        user.firstName = spec.firstName();
        user.lastName = spec.lastName();
        user.passwordSalt = Passwords.newSalt();
        user.password = Passwords.hash(user.passwordSalt, spec.password() != null ? spec.password()
                : java.util.UUID.randomUUID().toString());
        user.loginAttributes = spec.loginAttributes();
        user.locale = spec.locale();
        user.dateJoined = now;
        user.updatedAt = now;
        users.insertUser(user);
        addMembership(users, user.id, Group.ALL_USERS, false);
        if (spec.superuser()) {
            addMembership(users, user.id, Group.ADMINISTRATORS, false);
        }
        user.isSuperuser = spec.superuser();
        return user;
    }

    static void addMembership(UserMapper users, long userId, long groupId, boolean manager) {
        Membership m = new Membership();
        m.userId = userId;
        m.groupId = groupId;
        m.isGroupManager = manager;
        users.insertMembership(m);
    }

    public User find(long id) {
        return db.with(UserMapper.class, m -> m.findUser(id));
    }

    public User findByEmail(String email) {
        return db.with(UserMapper.class, m -> m.findUserByEmail(email.trim().toLowerCase(Locale.ROOT)));
    }

    /** Memberships of many users in one query (no N+1 when listing). */
    public Map<Long, List<Membership>> membershipsOf(SqlSession session, Collection<Long> userIds) {
        Map<Long, List<Membership>> byUser = new HashMap<>();
        if (userIds.isEmpty()) {
            return byUser;
        }
        for (Membership m : session.getMapper(UserMapper.class).listMembershipsOfUsers(userIds)) {
            byUser.computeIfAbsent(m.userId, k -> new ArrayList<>()).add(m);
        }
        return byUser;
    }

    /** The JSON form of a user, as Metabase's {@code GET /api/user/:id} returns it. */
    public static Map<String, Object> view(User u, List<Membership> memberships) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", u.id);
        v.put("email", u.email);
        v.put("first_name", u.firstName);
        v.put("last_name", u.lastName);
        v.put("common_name", u.commonName());
        v.put("is_active", u.isActive);
        v.put("is_superuser", u.isSuperuser);
        v.put("is_qbnewb", u.isQbnewb);
        v.put("is_datasetnewb", u.isDatasetnewb);
        v.put("is_installer", u.id != null && u.id == 1L);
        v.put("locale", u.locale);
        v.put("last_login", u.lastLogin);
        v.put("first_login", u.dateJoined);
        v.put("date_joined", u.dateJoined);
        v.put("updated_at", u.updatedAt);
        v.put("sso_source", u.ssoSource);
        v.put("login_attributes", u.loginAttributes);
        v.put("type", u.userType);
        List<Map<String, Object>> groups = new ArrayList<>();
        List<Long> groupIds = new ArrayList<>();
        if (memberships != null) {
            for (Membership m : memberships) {
                Map<String, Object> g = new LinkedHashMap<>();
                g.put("id", m.groupId);
                g.put("is_group_manager", m.isGroupManager);
                groups.add(g);
                groupIds.add(m.groupId);
            }
        }
        v.put("user_group_memberships", groups);
        v.put("group_ids", groupIds);
        v.put("personal_collection_id", null);
        return v;
    }

    private OffsetDateTime now() {
        return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
    }
}
