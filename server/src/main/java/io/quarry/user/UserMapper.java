package io.quarry.user;

import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.ibatis.annotations.Param;

public interface UserMapper {
    void insertUser(User user);

    User findUser(@Param("id") long id);

    User findUserByEmail(@Param("email") String email);

    List<User> listUsers(@Param("q") UserQuery query);

    long countUsers(@Param("q") UserQuery query);

    long countPeople();

    int updateUser(User user);

    int updatePassword(@Param("id") long id, @Param("password") String hash, @Param("salt") String salt);

    int updateActive(@Param("id") long id, @Param("active") boolean active);

    int updateLastLogin(@Param("id") long id, @Param("at") OffsetDateTime at);

    int updateResetToken(@Param("id") long id, @Param("token") String tokenHash, @Param("triggered") Long triggered);


    int updateModal(@Param("id") long id, @Param("column") String column);

    // --- groups and memberships -----------------------------------------------------------------------------------

    List<Group> listGroups();

    Group findGroup(@Param("id") long id);

    Group findGroupByName(@Param("name") String name);

    void insertGroup(Group group);

    int updateGroupName(@Param("id") long id, @Param("name") String name);

    int deleteGroup(@Param("id") long id);

    List<Membership> listMembershipsOfUsers(@Param("userIds") Collection<Long> userIds);

    List<Membership> listMembershipsOfGroup(@Param("groupId") long groupId);

    List<Membership> listAllMemberships();

    Membership findMembership(@Param("id") long id);

    Membership findMembershipOf(@Param("userId") long userId, @Param("groupId") long groupId);

    void insertMembership(Membership membership);

    int updateMembershipManager(@Param("id") long id, @Param("manager") boolean manager);

    int deleteMembership(@Param("id") long id);

    int deleteMembershipsOfGroup(@Param("groupId") long groupId);

    /** Ids of the groups this user manages. */
    List<Long> listManagedGroupIds(@Param("userId") long userId);

    // --- users, groups and memberships over HTTP (UserResource, GroupResource, MembershipResource) ------------------

    /** Active members of a group with their membership, ordered by name as Metabase lists them. */
    List<GroupMember> listGroupMembers(@Param("groupId") long groupId);

    /** Memberships in the given groups (a group manager's view of {@code GET /api/permissions/membership}). */
    List<Membership> listMembershipsInGroups(@Param("groupIds") Collection<Long> groupIds);

    /** Active administrators other than {@code userId}: zero means that user is the last one. */
    long countOtherActiveAdmins(@Param("userId") long userId);

    /** How many groups (other than All Users) that {@code userId} belongs to {@code managerId} manages. */
    long countGroupsManagedFor(@Param("managerId") long managerId, @Param("userId") long userId);

    /** The earliest sign-in of a user, or null. */
    OffsetDateTime firstLogin(@Param("userId") long userId);
}
