package io.quarry.user;

import static io.quarry.user.Support.createGroup;
import static io.quarry.user.Support.groupIds;
import static io.quarry.user.Support.map;
import static io.quarry.user.Support.person;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code /api/permissions/group} and {@code /api/permissions/membership} over HTTP against the real webapp. */
class GroupIT {
    private static final String FORBIDDEN = "You don't have permissions to do that.";
    private static final String ALL_USERS_FIXED = "You cannot add or remove users to/from the 'All Users' group.";

    private static TestServer server;
    private static Api api;
    private static String admin;
    private static long adminId;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        api = server.api();
        admin = Fixtures.setUp(api);
        adminId = api.as(admin).get(200, "user/current").json().get("id").asLong();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void anonymousAndOrdinaryCallersAreTurnedAway() {
        for (String[] call : new String[][]{{"GET", "permissions/group"}, {"GET", "permissions/group/1"},
                {"POST", "permissions/group"}, {"PUT", "permissions/group/3"}, {"DELETE", "permissions/group/3"},
                {"GET", "permissions/membership"}, {"POST", "permissions/membership"}, {"PUT", "permissions/membership/1"},
                {"DELETE", "permissions/membership/1"}, {"PUT", "permissions/membership/3/clear"}}) {
            Api.Res res = api.call(call[0], call[1], call[0].equals("POST") || call[0].equals("PUT") ? map("name", "x") : null);
            assertEquals(401, res.status(), String.join(" ", call));
            assertEquals("Unauthenticated", res.body());
        }
        long group = createGroup(api, admin, "Guarded");
        Support.Person joe = person(api, admin, "plainjoe", "Joe", "Plain",
                "user_group_memberships", List.of(map("id", 1), map("id", group)));
        long membership = membershipOf(joe.id(), group);
        Api as = api.as(joe.session());
        assertEquals(FORBIDDEN, as.get(403, "permissions/group").body());
        as.get(403, "permissions/group/" + group);
        as.post(403, "permissions/group", map("name", "Mine"));
        as.put(403, "permissions/group/" + group, map("name", "Mine"));
        as.delete(403, "permissions/group/" + group);
        as.get(403, "permissions/membership");
        as.post(403, "permissions/membership", map("user_id", joe.id(), "group_id", group, "is_group_manager", true));
        as.put(403, "permissions/membership/" + membership, map("is_group_manager", true));
        as.delete(403, "permissions/membership/" + membership);
        as.put(403, "permissions/membership/" + group + "/clear", null);
        JsonNode still = api.as(admin).get(200, "permissions/group/" + group).json();
        assertEquals("Guarded", still.get("name").asText());
        assertEquals(1, still.get("members").size());
        assertFalse(still.get("members").get(0).get("is_group_manager").asBoolean());
    }

    @Test
    void groupsAreCreatedRenamedAndDeleted() {
        Api as = api.as(admin);
        int before = as.get(200, "permissions/group").json().size();
        assertEquals("value must be a non-blank string.", as.post(400, "permissions/group", map()).json().get("errors").get("name").asText());
        assertEquals("value must be a non-blank string.", as.post(400, "permissions/group", map("name", "  ")).json().get("errors").get("name").asText());
        assertEquals("value must be a non-blank string.", as.post(400, "permissions/group", map("name", 12)).json().get("errors").get("name").asText());
        as.post(400, "permissions/group", map("name", "n".repeat(256)));
        assertEquals("A group with that name already exists.", as.post(400, "permissions/group", map("name", "administrators")).body());

        JsonNode made = as.post(200, "permissions/group", map("name", "Analysts")).json();
        long id = made.get("id").asLong();
        assertEquals("Analysts", made.get("name").asText());
        assertEquals(0, made.get("member_count").asInt());
        assertEquals("A group with that name already exists.", as.post(400, "permissions/group", map("name", "ANALYSTS")).body());
        assertEquals(before + 1, as.get(200, "permissions/group").json().size(), "rejected creations wrote nothing");

        JsonNode renamed = as.put(200, "permissions/group/" + id, map("name", "Data Analysts")).json();
        assertEquals("Data Analysts", renamed.get("name").asText());
        as.put(200, "permissions/group/" + id, map("name", "data analysts")); // a change of case of its own name is fine
        assertEquals("A group with that name already exists.", as.put(400, "permissions/group/" + id, map("name", "All Users")).body());
        assertEquals("value must be a non-blank string.", as.put(400, "permissions/group/" + id, map("name", "")).json()
                .get("errors").get("name").asText());
        assertEquals("You cannot edit or delete the 'All Users' permissions group!", as.put(400, "permissions/group/1", map("name", "Everyone")).body());
        assertEquals("You cannot edit or delete the 'Administrators' permissions group!", as.put(400, "permissions/group/2", map("name", "Root")).body());
        as.put(404, "permissions/group/999999", map("name", "Nowhere"));
        assertEquals("value must be an integer greater than zero.", as.put(400, "permissions/group/x", map("name", "X")).json()
                .get("errors").get("group-id").asText());
        assertEquals("data analysts", as.get(200, "permissions/group/" + id).json().get("name").asText());

        Support.Person member = person(api, admin, "groupie", "Gro", "Upie", "user_group_memberships", List.of(map("id", 1), map("id", id)));
        assertEquals(List.of(1L, id), groupIds(as.get(200, "user/" + member.id()).json()));
        assertEquals("You cannot edit or delete the 'All Users' permissions group!", as.delete(400, "permissions/group/1").body());
        as.delete(400, "permissions/group/2");
        as.delete(404, "permissions/group/999999");
        as.delete(204, "permissions/group/" + id);
        as.get(404, "permissions/group/" + id);
        assertEquals(List.of(1L), groupIds(as.get(200, "user/" + member.id()).json()), "the group's memberships went with it");
        assertEquals(before, as.get(200, "permissions/group").json().size());
    }

    @Test
    void listAndDetailShowActiveMembers() {
        Api as = api.as(admin);
        long group = createGroup(api, admin, "Zoologists");
        Support.Person ann = person(api, admin, "zoo", "Ann", "Ape", "user_group_memberships", List.of(map("id", 1), map("id", group)));
        Support.Person bob = person(api, admin, "zoo", "Bob", "Bat", "user_group_memberships",
                List.of(map("id", 1), map("id", group, "is_group_manager", true)));
        Support.Person cal = person(api, admin, "zoo", "Cal", "Cat", "user_group_memberships", List.of(map("id", 1), map("id", group)));
        as.delete(200, "user/" + cal.id());

        JsonNode list = as.get(200, "permissions/group").json();
        List<String> names = new ArrayList<>();
        for (JsonNode g : list) {
            names.add(g.get("name").asText().toLowerCase());
            assertTrue(g.has("id") && g.has("member_count"));
        }
        assertEquals(names.stream().sorted().toList(), names, "groups come ordered by name");
        JsonNode zoo = find(list, group);
        assertEquals(2, zoo.get("member_count").asInt(), "deactivated users are not counted");
        assertEquals(1, find(list, 2).get("member_count").asInt());
        assertTrue(find(list, 1).get("member_count").asInt() >= 3);

        JsonNode detail = as.get(200, "permissions/group/" + group).json();
        JsonNode members = detail.get("members");
        assertEquals(2, members.size());
        JsonNode first = members.get(0);
        assertEquals(ann.id(), first.get("user_id").asLong());
        assertEquals(ann.email(), first.get("email").asText());
        assertEquals("Ann", first.get("first_name").asText());
        assertEquals("Ape", first.get("last_name").asText());
        assertEquals("Ann Ape", first.get("common_name").asText());
        assertEquals(membershipOf(ann.id(), group), first.get("membership_id").asLong());
        assertFalse(first.get("is_group_manager").asBoolean());
        assertEquals(bob.id(), members.get(1).get("user_id").asLong());
        assertTrue(members.get(1).get("is_group_manager").asBoolean());
        as.get(404, "permissions/group/999999");
        assertEquals("value must be an integer greater than zero.", as.get(400, "permissions/group/0").json().get("errors").get("id").asText());
    }

    @Test
    void membershipsAreAddedChangedAndRemoved() {
        Api as = api.as(admin);
        long group = createGroup(api, admin, "Members only");
        Support.Person pia = person(api, admin, "member", "Pia", "Pop");

        JsonNode bad = as.post(400, "permissions/membership", map("user_id", "x", "group_id", 0)).json().get("errors");
        assertEquals("value must be an integer greater than zero.", bad.get("user_id").asText());
        assertEquals("value must be an integer greater than zero.", bad.get("group_id").asText());
        assertEquals("value must be an integer greater than zero.",
                as.post(400, "permissions/membership", map("group_id", group)).json().get("errors").get("user_id").asText());
        assertEquals("nullable value must be a boolean.", as.post(400, "permissions/membership",
                map("user_id", pia.id(), "group_id", group, "is_group_manager", "sure")).json().get("errors").get("is_group_manager").asText());
        as.post(404, "permissions/membership", map("user_id", 999999, "group_id", group));
        as.post(404, "permissions/membership", map("user_id", pia.id(), "group_id", 999999));
        assertEquals(ALL_USERS_FIXED, as.post(400, "permissions/membership", map("user_id", pia.id(), "group_id", 1)).body());
        assertEquals(List.of(1L), groupIds(as.get(200, "user/" + pia.id()).json()), "rejected additions wrote nothing");

        JsonNode members = as.post(200, "permissions/membership", map("user_id", pia.id(), "group_id", group)).json();
        assertEquals(1, members.size());
        assertEquals(pia.id(), members.get(0).get("user_id").asLong());
        long membership = members.get(0).get("membership_id").asLong();
        assertEquals("The user is already a member of this group.",
                as.post(400, "permissions/membership", map("user_id", pia.id(), "group_id", group)).body());

        JsonNode all = as.get(200, "permissions/membership").json();
        JsonNode pias = all.get(String.valueOf(pia.id()));
        assertEquals(2, pias.size());
        JsonNode entry = pias.get(1);
        assertEquals(membership, entry.get("membership_id").asLong());
        assertEquals(group, entry.get("group_id").asLong());
        assertEquals(pia.id(), entry.get("user_id").asLong());
        assertFalse(entry.get("is_group_manager").asBoolean());
        assertTrue(all.get(String.valueOf(adminId)).size() >= 2);

        assertEquals("value must be a boolean.", as.put(400, "permissions/membership/" + membership, map()).json()
                .get("errors").get("is_group_manager").asText());
        JsonNode promoted = as.put(200, "permissions/membership/" + membership, map("is_group_manager", true)).json();
        assertEquals(membership, promoted.get("id").asLong());
        assertEquals(group, promoted.get("group_id").asLong());
        assertEquals(pia.id(), promoted.get("user_id").asLong());
        assertTrue(promoted.get("is_group_manager").asBoolean());
        as.put(404, "permissions/membership/999999", map("is_group_manager", true));
        long adminAllUsers = membershipOf(adminId, 1);
        assertEquals(ALL_USERS_FIXED, as.put(400, "permissions/membership/" + adminAllUsers, map("is_group_manager", true)).body());
        JsonNode adminInGroup = as.post(200, "permissions/membership", map("user_id", adminId, "group_id", group)).json();
        long adminMembership = find(adminInGroup, "user_id", adminId).get("membership_id").asLong();
        assertEquals("Admin cant be a group manager.", as.put(400, "permissions/membership/" + adminMembership,
                map("is_group_manager", true)).body());
        assertEquals("Admin cant be a group manager.", as.post(400, "permissions/membership",
                map("user_id", adminId, "group_id", createGroup(api, admin, "Admin-managed"), "is_group_manager", true)).body());

        as.delete(204, "permissions/membership/" + membership);
        as.delete(404, "permissions/membership/" + membership);
        assertEquals(List.of(1L), groupIds(as.get(200, "user/" + pia.id()).json()));
        assertEquals(ALL_USERS_FIXED, as.delete(400, "permissions/membership/" + membershipOf(pia.id(), 1)).body());
        assertEquals(List.of(1L), groupIds(as.get(200, "user/" + pia.id()).json()));
    }

    @Test
    void theAdministratorsGroupMakesSuperusers() {
        Api as = api.as(admin);
        Support.Person ray = person(api, admin, "admins", "Ray", "Root");
        as.post(200, "permissions/membership", map("user_id", ray.id(), "group_id", 2));
        assertTrue(as.get(200, "user/" + ray.id()).json().get("is_superuser").asBoolean());
        api.as(ray.session()).get(200, "permissions/group");
        as.delete(204, "permissions/membership/" + membershipOf(ray.id(), 2));
        assertFalse(as.get(200, "user/" + ray.id()).json().get("is_superuser").asBoolean());
        api.as(ray.session()).get(403, "permissions/group");

        // the last active administrator stays one
        assertEquals("You cannot remove the last member of the 'Admin' group!",
                as.delete(400, "permissions/membership/" + membershipOf(adminId, 2)).body());
        assertEquals("Invalid Request.", as.put(400, "permissions/membership/2/clear", null).body());
        assertEquals(ALL_USERS_FIXED, as.put(400, "permissions/membership/1/clear", null).body());
        assertTrue(as.get(200, "user/current").json().get("is_superuser").asBoolean());
    }

    @Test
    void clearEmptiesAGroup() {
        Api as = api.as(admin);
        long group = createGroup(api, admin, "Emptied");
        person(api, admin, "clear", "Cleo", "One", "user_group_memberships", List.of(map("id", 1), map("id", group)));
        person(api, admin, "clear", "Cleo", "Two", "user_group_memberships", List.of(map("id", 1), map("id", group)));
        assertEquals(2, as.get(200, "permissions/group/" + group).json().get("member_count").asInt());
        as.put(204, "permissions/membership/" + group + "/clear", null);
        JsonNode after = as.get(200, "permissions/group/" + group).json();
        assertEquals(0, after.get("member_count").asInt());
        assertEquals(0, after.get("members").size());
        as.put(404, "permissions/membership/999999/clear", null);
        assertEquals("value must be an integer greater than zero.",
                as.put(400, "permissions/membership/abc/clear", null).json().get("errors").get("group-id").asText());
    }

    @Test
    void groupManagersManageTheirOwnGroupsOnly() {
        Api as = api.as(admin);
        long mine = createGroup(api, admin, "Gina's");
        long theirs = createGroup(api, admin, "Not Gina's");
        Support.Person gina = person(api, admin, "gmgroup", "Gina", "Boss",
                "user_group_memberships", List.of(map("id", 1), map("id", mine, "is_group_manager", true)));
        Support.Person hal = person(api, admin, "gmgroup", "Hal", "Helper");
        Support.Person ida = person(api, admin, "gmgroup", "Ida", "Insider",
                "user_group_memberships", List.of(map("id", 1), map("id", theirs)));
        Api g = api.as(gina.session());

        JsonNode groups = g.get(200, "permissions/group").json();
        assertEquals(1, groups.size());
        assertEquals(mine, groups.get(0).get("id").asLong());
        g.get(200, "permissions/group/" + mine);
        g.get(403, "permissions/group/" + theirs);
        g.get(403, "permissions/group/2");
        g.post(403, "permissions/group", map("name", "Gina's too"));
        g.put(403, "permissions/group/" + mine, map("name", "Renamed by Gina"));
        g.delete(403, "permissions/group/" + mine);

        JsonNode members = g.post(200, "permissions/membership", map("user_id", hal.id(), "group_id", mine)).json();
        assertEquals(2, members.size());
        g.post(403, "permissions/membership", map("user_id", hal.id(), "group_id", theirs));
        g.post(403, "permissions/membership", map("user_id", hal.id(), "group_id", 2));
        assertEquals(List.of(1L, mine), groupIds(as.get(200, "user/" + hal.id()).json()));

        JsonNode visible = g.get(200, "permissions/membership").json();
        assertTrue(visible.has(String.valueOf(hal.id())) && visible.has(String.valueOf(gina.id())));
        assertFalse(visible.has(String.valueOf(ida.id())), "memberships of other groups stay hidden");
        assertFalse(visible.has(String.valueOf(adminId)));
        for (JsonNode list : visible) {
            for (JsonNode m : list) {
                assertEquals(mine, m.get("group_id").asLong());
            }
        }

        long halMembership = membershipOf(hal.id(), mine);
        assertTrue(g.put(200, "permissions/membership/" + halMembership, map("is_group_manager", true)).json().get("is_group_manager").asBoolean());
        g.put(403, "permissions/membership/" + membershipOf(ida.id(), theirs), map("is_group_manager", true));
        g.delete(403, "permissions/membership/" + membershipOf(ida.id(), theirs));
        g.put(403, "permissions/membership/" + theirs + "/clear", null);
        assertEquals(List.of(1L, theirs), groupIds(as.get(200, "user/" + ida.id()).json()));
        g.delete(204, "permissions/membership/" + halMembership);
        assertEquals(List.of(1L), groupIds(as.get(200, "user/" + hal.id()).json()));
        g.put(204, "permissions/membership/" + mine + "/clear", null);
        // after clearing their own group, Gina manages nothing
        g.get(403, "permissions/group");
    }

    private static long membershipOf(long userId, long groupId) {
        for (JsonNode m : api.as(admin).get(200, "permissions/membership").json().get(String.valueOf(userId))) {
            if (m.get("group_id").asLong() == groupId) {
                return m.get("membership_id").asLong();
            }
        }
        throw new AssertionError("user " + userId + " is not in group " + groupId);
    }

    private static JsonNode find(JsonNode array, long id) {
        return find(array, "id", id);
    }

    private static JsonNode find(JsonNode array, String key, long id) {
        for (JsonNode n : array) {
            if (n.get(key).asLong() == id) {
                return n;
            }
        }
        throw new AssertionError("no " + key + " " + id + " in " + array);
    }
}
