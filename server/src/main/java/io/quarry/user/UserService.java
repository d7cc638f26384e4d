package io.quarry.user;

import io.quarry.appdb.Db;
import io.quarry.auth.Passwords;
import io.quarry.auth.SessionMapper;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.core.Caller;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.ibatis.exceptions.PersistenceException;
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
        Map<String, Object> v = u.summary().view();
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

    // --- managing people over HTTP -------------------------------------------------------------------------------

    static final String LAST_ADMIN = "You cannot remove the last member of the 'Admin' group!";

    /** One entry of {@code user_group_memberships}; {@code manager} null means "keep as is" (false for a new one). */
    public record MembershipSpec(long groupId, Boolean manager) {
    }

    /** A created user and the plaintext reset token their invite links to. */
    public record Created(User user, String resetToken) {
    }

    /**
     * What {@code PUT /api/user/:id} asked for. For the nullable fields, {@code has…} tells "sent (maybe as null)" from
     * "not sent"; email and is_superuser count only when non-null, as in Metabase.
     */
    public static final class Changes {
        public String email;
        public boolean hasFirstName;
        public String firstName;
        public boolean hasLastName;
        public String lastName;
        public boolean hasLocale;
        public String locale;
        public boolean hasLoginAttributes;
        public Map<String, Object> loginAttributes;
        public Boolean superuser;
        public List<MembershipSpec> memberships;
    }

    /** A page of users and how many match in all. */
    public record Page(List<Map<String, Object>> data, long total) {
    }

    /** Ids of the groups (other than All Users) that a user manages; empty for everyone else. */
    public Set<Long> managedGroups(long userId) {
        List<Long> ids = db.with(UserMapper.class, m -> m.listManagedGroupIds(userId));
        return new TreeSet<>(ids);
    }

    /** Users matching the query, with their memberships (two queries, whatever the page size). */
    public Page list(UserQuery query) {
        return db.tx(session -> {
            UserMapper users = session.getMapper(UserMapper.class);
            List<User> rows = users.listUsers(query);
            long total = users.countUsers(query);
            Map<Long, List<Membership>> memberships = membershipsOf(session, rows.stream().map(u -> u.id).toList());
            List<Map<String, Object>> data = new ArrayList<>();
            for (User u : rows) {
                data.add(view(u, memberships.getOrDefault(u.id, List.of())));
            }
            return new Page(data, total);
        });
    }

    /**
     * {@code GET /api/user/:id}: the user themself, a superuser, or a manager of a group the user is in. The check comes
     * before the lookup, so an unknown id tells an ordinary user nothing.
     */
    public Map<String, Object> get(Caller caller, long id) {
        return db.tx(session -> {
            UserMapper users = session.getMapper(UserMapper.class);
            Checks.permitted(caller.is(id) || caller.superuser() || users.countGroupsManagedFor(caller.id(), id) > 0);
            User user = Checks.found(users.findUser(id));
            return view(user, membershipsOf(session, List.of(id)).getOrDefault(id, List.of()));
        });
    }

    /** {@code GET /api/user/current}: the caller, with what the client needs right after sign-in. */
    public Map<String, Object> current(long id) {
        return db.tx(session -> {
            UserMapper users = session.getMapper(UserMapper.class);
            User user = Checks.found(users.findUser(id));
            Map<String, Object> v = view(user, membershipsOf(session, List.of(id)).getOrDefault(id, List.of()));
            OffsetDateTime first = users.firstLogin(id);
            v.put("first_login", first != null ? first : now());
            v.put("has_invited_second_user", id == 1L && users.countPeople() > 1);
            v.put("has_question_and_dashboard", false);
            v.put("has_model", false);
            v.put("custom_homepage", null);
            return v;
        });
    }

    public Map<String, Object> view(long id) {
        return db.tx(session -> {
            User user = Checks.found(session.getMapper(UserMapper.class).findUser(id));
            return view(user, membershipsOf(session, List.of(id)).getOrDefault(id, List.of()));
        });
    }

    /**
     * Creates a user with their groups and a fresh reset token (for the invite link), all in one transaction: a bad
     * group id leaves no user behind. The email must be free ({@code 400 "Email address already in use."}).
     */
    public Created create(NewUser spec, List<MembershipSpec> memberships) {
        checkEmailFree(spec.email(), null, "Email address already in use.");
        try {
            return db.tx(session -> {
                UserMapper users = session.getMapper(UserMapper.class);
                User user = insert(session, spec);
                if (memberships != null) {
                    applyMemberships(users, user.id, memberships, null);
                }
                String token = newResetToken(users, user.id);
                return new Created(users.findUser(user.id), token);
            });
        } catch (PersistenceException e) {
            // Two requests raced for the same email: the unique constraint caught the second one.
            checkEmailFree(spec.email(), null, "Email address already in use.");
            throw e;
        }
    }

    /** A new reset token for an active person (to resend an invite); the plaintext is returned, its hash stored. */
    public Created newInviteToken(long id) {
        return db.tx(session -> {
            UserMapper users = session.getMapper(UserMapper.class);
            User user = users.findUser(id);
            Checks.found(user != null && user.isActive && "personal".equals(user.userType) ? user : null);
            return new Created(user, newResetToken(users, id));
        });
    }

    private String newResetToken(UserMapper users, long userId) {
        String token = userId + "_" + UUID.randomUUID();
        users.updateResetToken(userId, Passwords.hashToken(token), clock.millis());
        return token;
    }

    /**
     * {@code PUT /api/user/:id}. The user themself or a superuser may change the person's details; only a superuser
     * changes {@code login_attributes} and {@code is_superuser} (silently ignored otherwise, as Metabase does); group
     * changes need a superuser, or a manager of every group that changes.
     */
    public Map<String, Object> update(Caller caller, long id, Changes changes) {
        boolean selfOrAdmin = caller.is(id) || caller.superuser();
        // A group manager may only move people in and out of the groups they manage; with nothing of that to do,
        // the request is not theirs to make (and must not show them anyone's record).
        Checks.permitted(selfOrAdmin || changes.memberships != null && !managedGroups(caller.id()).isEmpty());
        User before = find(id);
        Checks.found(before != null && before.isActive && "personal".equals(before.userType) ? before : null);
        if (changes.email != null) {
            checkEmailFree(changes.email, id, "Email address already associated to another user.");
        }
        if (changes.memberships != null && changes.superuser != null
                && changes.superuser != changes.memberships.stream().anyMatch(m -> m.groupId() == Group.ADMINISTRATORS)) {
            throw ApiException.invalidField("is_superuser",
                    "Value of is_superuser must correspond to presence of Admin group ID in group_ids.");
        }
        db.run(session -> {
            UserMapper users = session.getMapper(UserMapper.class);
            User user = users.findUser(id);
            if (selfOrAdmin) {
                boolean changed = false;
                if (changes.email != null) {
                    user.email = changes.email.trim().toLowerCase(Locale.ROOT);
                    changed = true;
                }
                if (changes.hasFirstName) {
                    user.firstName = changes.firstName;
                    changed = true;
                }
                if (changes.hasLastName) {
                    user.lastName = changes.lastName;
                    changed = true;
                }
                if (changes.hasLocale) {
                    user.locale = changes.locale;
                    changed = true;
                }
                if (changes.hasLoginAttributes && caller.superuser()) {
                    user.loginAttributes = changes.loginAttributes;
                    changed = true;
                }
                if (changed) {
                    user.updatedAt = now();
                    users.updateUser(user);
                }
                if (caller.superuser() && changes.superuser != null && changes.memberships == null) {
                    setSuperuser(users, id, changes.superuser);
                }
            }
            if (changes.memberships != null) {
                applyMemberships(users, id, changes.memberships, caller.superuser() ? null : managedGroups(users, caller.id()));
            }
        });
        return view(id);
    }

    /**
     * Makes a user's groups exactly {@code desired} (All Users always stays). {@code allowed} null means no limit
     * (superuser); otherwise every group that would change must be in it, or nothing changes and the answer is 403.
     */
    private void applyMemberships(UserMapper users, long userId, List<MembershipSpec> desired, Set<Long> allowed) {
        Set<Long> existingGroups = new HashSet<>();
        for (Group g : users.listGroups()) {
            existingGroups.add(g.id);
        }
        Map<Long, Boolean> wanted = new LinkedHashMap<>();
        for (MembershipSpec m : desired) {
            if (!existingGroups.contains(m.groupId())) {
                throw ApiException.invalidField("user_group_memberships", "Group " + m.groupId() + " does not exist.");
            }
            wanted.put(m.groupId(), m.manager());
        }
        Map<Long, Membership> current = new LinkedHashMap<>();
        for (Membership m : users.listMembershipsOfUsers(List.of(userId))) {
            current.put(m.groupId, m);
        }
        List<Long> toAdd = new ArrayList<>();
        List<Membership> toRemove = new ArrayList<>();
        List<Membership> toFlag = new ArrayList<>();
        for (Map.Entry<Long, Boolean> w : wanted.entrySet()) {
            long groupId = w.getKey();
            if (groupId == Group.ALL_USERS) {
                continue;
            }
            Membership have = current.get(groupId);
            if (have == null) {
                toAdd.add(groupId);
            } else if (w.getValue() != null && w.getValue() != have.isGroupManager && groupId != Group.ADMINISTRATORS) {
                toFlag.add(have);
            }
        }
        for (Membership have : current.values()) {
            if (have.groupId != Group.ALL_USERS && !wanted.containsKey(have.groupId)) {
                toRemove.add(have);
            }
        }
        if (allowed != null) {
            for (Long g : toAdd) {
                Checks.permitted(allowed.contains(g));
            }
            for (Membership m : toRemove) {
                Checks.permitted(allowed.contains(m.groupId));
            }
            for (Membership m : toFlag) {
                Checks.permitted(allowed.contains(m.groupId));
            }
        }
        for (Membership m : toRemove) {
            if (m.groupId == Group.ADMINISTRATORS) {
                checkNotLastAdmin(users, userId);
            }
            users.deleteMembership(m.id);
        }
        for (Long g : toAdd) {
            addMembership(users, userId, g, g != Group.ADMINISTRATORS && Boolean.TRUE.equals(wanted.get(g)));
        }
        for (Membership m : toFlag) {
            users.updateMembershipManager(m.id, !m.isGroupManager);
        }
    }

    private static Set<Long> managedGroups(UserMapper users, long userId) {
        return new TreeSet<>(users.listManagedGroupIds(userId));
    }

    private static void setSuperuser(UserMapper users, long userId, boolean superuser) {
        Membership admin = users.findMembershipOf(userId, Group.ADMINISTRATORS);
        if (superuser && admin == null) {
            addMembership(users, userId, Group.ADMINISTRATORS, false);
        } else if (!superuser && admin != null) {
            checkNotLastAdmin(users, userId);
            users.deleteMembership(admin.id);
        }
    }

    /** A 400 when taking administrator rights from {@code userId} would leave no active administrator. */
    static void checkNotLastAdmin(UserMapper users, long userId) {
        if (users.countOtherActiveAdmins(userId) == 0) {
            throw ApiException.badRequest(LAST_ADMIN);
        }
    }

    private void checkEmailFree(String email, Long self, String message) {
        User other = findByEmail(email);
        if (other != null && !Objects.equals(other.id, self)) {
            throw ApiException.invalidField("email", message);
        }
    }

    /** Deactivates a person and ends their sessions; the record stays. Not yourself, never the last admin. */
    public void deactivate(Caller caller, long id) {
        if (caller.is(id)) {
            throw ApiException.badRequest("You cannot deactivate yourself.");
        }
        db.run(session -> {
            UserMapper users = session.getMapper(UserMapper.class);
            User user = users.findUser(id);
            Checks.found(user != null && "personal".equals(user.userType) ? user : null);
            if (user.isActive && user.isSuperuser) {
                checkNotLastAdmin(users, id);
            }
            users.updateActive(id, false);
            session.getMapper(SessionMapper.class).deleteSessionsOfUser(id);
        });
    }

    /** Reactivates a deactivated person, without administrator rights (as Metabase does). */
    public Map<String, Object> reactivate(long id) {
        db.run(session -> {
            UserMapper users = session.getMapper(UserMapper.class);
            User user = users.findUser(id);
            Checks.found(user != null && "personal".equals(user.userType) ? user : null);
            if (user.isActive) {
                throw new ApiException(400, "Not able to reactivate an active user",
                        Map.of("message", "Not able to reactivate an active user"));
            }
            users.updateActive(id, true);
            Membership admin = users.findMembershipOf(id, Group.ADMINISTRATORS);
            if (admin != null) {
                users.deleteMembership(admin.id);
            }
        });
        return view(id);
    }

    /** The active person whose password may be changed; 404 for anyone else. */
    public User activePerson(long id) {
        User user = find(id);
        return Checks.found(user != null && user.isActive && "personal".equals(user.userType) ? user : null);
    }

    /** Sets a new password, clears any reset token and ends every session of the user, in one transaction. */
    public void changePassword(long id, String password) {
        String salt = Passwords.newSalt();
        String hash = Passwords.hash(salt, password);
        db.run(session -> {
            session.getMapper(UserMapper.class).updatePassword(id, hash, salt);
            session.getMapper(SessionMapper.class).deleteSessionsOfUser(id);
        });
    }

    /** Records that the user has seen a query-builder notice: {@code qbnewb} or {@code datasetnewb}. */
    public void dismissModal(long id, String modal) {
        String column = switch (modal) {
            case "qbnewb" -> "is_qbnewb";
            case "datasetnewb" -> "is_datasetnewb";
            default -> throw ApiException.badRequest("Unrecognized modal: " + modal);
        };
        User user = find(id);
        Checks.found(user != null && "personal".equals(user.userType) ? user : null);
        db.with(UserMapper.class, m -> m.updateModal(id, column));
    }
}
