package io.quarry.user;

import static java.util.Objects.requireNonNull;

import io.quarry.appdb.Db;
import io.quarry.core.UserSummary;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.core.Caller;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;

/**
 * Permission groups and memberships ({@code /api/permissions/group}, {@code /api/permissions/membership}). All Users
 * (every person, always) and Administrators (membership = superuser) are built in: neither can be renamed or deleted,
 * and nobody joins or leaves All Users by hand. A group manager may read and change the memberships of the groups they
 * manage; everything else needs a superuser.
 */
public final class GroupService {
    static final String ALL_USERS_FIXED = "You cannot add or remove users to/from the 'All Users' group.";
    static final String NAME_TAKEN = "A group with that name already exists.";
    private static final int NAME_MAX = 255;

    private final Db db;
    private final UserService users;
    /** Runs in the transaction that stores each new group (the data permissions module grants its defaults). */
    private final BiConsumer<SqlSession, Long> onCreate;

    public GroupService(Db db, UserService users, BiConsumer<SqlSession, Long> onCreate) {
        this.db = requireNonNull(db, "db is null");
        this.users = requireNonNull(users, "users is null");
        this.onCreate = requireNonNull(onCreate, "onCreate is null");
    }

    // --- groups --------------------------------------------------------------------------------------------------

    /** Every group for a superuser; the groups they manage for a group manager; 403 for anyone else. */
    public List<Map<String, Object>> list(Caller caller) {
        Set<Long> managed = caller.superuser() ? null : users.managedGroups(caller.id());
        Checks.permitted(managed == null || !managed.isEmpty());
        List<Group> groups = new ArrayList<>(db.with(UserMapper.class, UserMapper::listGroups));
        groups.sort(Comparator.comparing((Group g) -> g.name.toLowerCase(Locale.ROOT)).thenComparing(g -> g.id));
        List<Map<String, Object>> result = new ArrayList<>();
        for (Group g : groups) {
            if (managed == null || managed.contains(g.id)) {
                result.add(view(g));
            }
        }
        return result;
    }

    /** A group with its active members. */
    public Map<String, Object> get(Caller caller, long id) {
        checkManagerOf(caller, id);
        return db.tx(session -> {
            UserMapper mapper = session.getMapper(UserMapper.class);
            Group group = Checks.found(mapper.findGroup(id));
            Map<String, Object> v = view(group);
            v.put("members", members(mapper, id));
            return v;
        });
    }

    public Map<String, Object> create(String name) {
        checkNameLength(name);
        try {
            return db.tx(session -> {
                UserMapper mapper = session.getMapper(UserMapper.class);
                checkNameFree(mapper, name, null);
                Group group = new Group();
                group.name = name.trim();
                mapper.insertGroup(group);
                onCreate.accept(session, group.id);
                return view(mapper.findGroup(group.id));
            });
        } catch (PersistenceException raced) {
            throw ApiException.badRequest(NAME_TAKEN);
        }
    }

    public Map<String, Object> rename(long id, String name) {
        checkNameLength(name);
        try {
            return db.tx(session -> {
                UserMapper mapper = session.getMapper(UserMapper.class);
                Group group = Checks.found(mapper.findGroup(id));
                checkNotMagic(group);
                checkNameFree(mapper, name, id);
                mapper.updateGroupName(id, name.trim());
                return view(mapper.findGroup(id));
            });
        } catch (PersistenceException raced) {
            throw ApiException.badRequest(NAME_TAKEN);
        }
    }

    /** Deletes a group; its memberships go with it. */
    public void delete(long id) {
        db.run(session -> {
            UserMapper mapper = session.getMapper(UserMapper.class);
            Group group = Checks.found(mapper.findGroup(id));
            checkNotMagic(group);
            mapper.deleteMembershipsOfGroup(id);
            mapper.deleteGroup(id);
        });
    }

    private static void checkNotMagic(Group group) {
        if (group.isMagic()) {
            throw ApiException.badRequest("You cannot edit or delete the '" + group.name + "' permissions group!");
        }
    }

    private static void checkNameLength(String name) {
        if (name.trim().length() > NAME_MAX) {
            throw ApiException.invalidField("name", "value must be a string of at most " + NAME_MAX + " characters.");
        }
    }

    private static void checkNameFree(UserMapper mapper, String name, Long self) {
        Group other = mapper.findGroupByName(name.trim());
        if (other != null && !other.id.equals(self)) {
            throw ApiException.badRequest(NAME_TAKEN);
        }
    }

    // --- memberships -------------------------------------------------------------------------------------------

    /** {@code {user_id: [{membership_id, group_id, user_id, is_group_manager}]}}; a manager sees their groups only. */
    public Map<Long, List<Map<String, Object>>> memberships(Caller caller) {
        Set<Long> managed = caller.superuser() ? null : users.managedGroups(caller.id());
        Checks.permitted(managed == null || !managed.isEmpty());
        List<Membership> rows = db.with(UserMapper.class,
                m -> managed == null ? m.listAllMemberships() : m.listMembershipsInGroups(managed));
        Map<Long, List<Map<String, Object>>> byUser = new LinkedHashMap<>();
        rows.stream().sorted(Comparator.comparing((Membership m) -> m.userId).thenComparing(m -> m.groupId))
                .forEach(m -> byUser.computeIfAbsent(m.userId, k -> new ArrayList<>()).add(membershipView(m, true)));
        return byUser;
    }

    /** Adds a user to a group and answers the group's members, as Metabase does. */
    public List<Map<String, Object>> addMember(Caller caller, long userId, long groupId, boolean manager) {
        checkManagerOf(caller, groupId);
        return db.tx(session -> {
            UserMapper mapper = session.getMapper(UserMapper.class);
            Checks.found(mapper.findGroup(groupId));
            User user = Checks.found(mapper.findUser(userId));
            if (groupId == Group.ALL_USERS) {
                throw ApiException.badRequest(ALL_USERS_FIXED);
            }
            if (manager && (user.isSuperuser || groupId == Group.ADMINISTRATORS)) {
                throw ApiException.badRequest("Admin cant be a group manager.");
            }
            if (mapper.findMembershipOf(userId, groupId) != null) {
                throw ApiException.badRequest("The user is already a member of this group.");
            }
            UserService.addMembership(mapper, userId, groupId, manager);
            return members(mapper, groupId);
        });
    }

    /** Makes a member a group manager of their group, or not; answers the membership. */
    public Map<String, Object> setManager(Caller caller, long membershipId, boolean manager) {
        Checks.permitted(caller.superuser() || !users.managedGroups(caller.id()).isEmpty());
        Membership membership = Checks.found(db.with(UserMapper.class, m -> m.findMembership(membershipId)));
        checkManagerOf(caller, membership.groupId);
        return db.tx(session -> {
            UserMapper mapper = session.getMapper(UserMapper.class);
            if (membership.groupId == Group.ALL_USERS) {
                throw ApiException.badRequest(ALL_USERS_FIXED);
            }
            User user = mapper.findUser(membership.userId);
            if (manager && (user.isSuperuser || membership.groupId == Group.ADMINISTRATORS)) {
                throw ApiException.badRequest("Admin cant be a group manager.");
            }
            mapper.updateMembershipManager(membershipId, manager);
            return membershipView(mapper.findMembership(membershipId), false);
        });
    }

    public void removeMember(Caller caller, long membershipId) {
        Membership membership = Checks.found(db.with(UserMapper.class, m -> m.findMembership(membershipId)));
        checkManagerOf(caller, membership.groupId);
        db.run(session -> {
            UserMapper mapper = session.getMapper(UserMapper.class);
            if (membership.groupId == Group.ALL_USERS) {
                throw ApiException.badRequest(ALL_USERS_FIXED);
            }
            if (membership.groupId == Group.ADMINISTRATORS) {
                UserService.checkNotLastAdmin(mapper, membership.userId);
            }
            mapper.deleteMembership(membershipId);
        });
    }

    /** Empties a group. Administrators cannot be emptied (someone must stay admin), nor All Users. */
    public void clear(Caller caller, long groupId) {
        checkManagerOf(caller, groupId);
        db.run(session -> {
            UserMapper mapper = session.getMapper(UserMapper.class);
            Checks.found(mapper.findGroup(groupId));
            if (groupId == Group.ADMINISTRATORS) {
                throw ApiException.badRequest("Invalid Request.");
            }
            if (groupId == Group.ALL_USERS) {
                throw ApiException.badRequest(ALL_USERS_FIXED);
            }
            mapper.deleteMembershipsOfGroup(groupId);
        });
    }

    /** Superusers pass; a group manager passes for the groups they manage; 403 otherwise. */
    private void checkManagerOf(Caller caller, long groupId) {
        if (!caller.superuser()) {
            Checks.permitted(users.managedGroups(caller.id()).contains(groupId));
        }
    }

    // --- views -----------------------------------------------------------------------------------------------------

    static Map<String, Object> view(Group g) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", g.id);
        v.put("name", g.name);
        v.put("magic_group_type", g.magicGroupType);
        v.put("member_count", g.memberCount);
        return v;
    }

    private static List<Map<String, Object>> members(UserMapper mapper, long groupId) {
        List<Map<String, Object>> result = new ArrayList<>();
        for (GroupMember m : mapper.listGroupMembers(groupId)) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("user_id", m.userId);
            v.put("email", m.email);
            v.put("first_name", m.firstName);
            v.put("last_name", m.lastName);
            v.put("common_name", UserSummary.commonName(m.firstName, m.lastName, m.email));
            v.put("membership_id", m.membershipId);
            v.put("is_group_manager", m.isGroupManager);
            result.add(v);
        }
        return result;
    }

    private static Map<String, Object> membershipView(Membership m, boolean asMembershipId) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put(asMembershipId ? "membership_id" : "id", m.id);
        v.put("group_id", m.groupId);
        v.put("user_id", m.userId);
        v.put("is_group_manager", m.isGroupManager);
        return v;
    }
}
