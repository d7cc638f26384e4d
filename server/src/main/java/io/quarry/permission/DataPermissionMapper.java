package io.quarry.permission;

import java.time.OffsetDateTime;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/** Statements over {@code data_permission} and the data graph's rows of {@code permissions_revision}. */
public interface DataPermissionMapper {
    /** One stored permission: a group's value of one permission type on one database. */
    record Row(Long groupId, Long dbId, String permType, String permValue) {
    }

    /** The rows of every group the user belongs to (all databases, or one when {@code dbId} is given). */
    List<Row> rowsOfUser(@Param("userId") long userId, @Param("dbId") Long dbId);

    /** Every row, optionally of one group and/or one database. */
    List<Row> rows(@Param("groupId") Long groupId, @Param("dbId") Long dbId);

    List<Long> groupIds();

    List<Long> databaseIds();

    boolean groupExists(@Param("id") long id);

    boolean databaseExists(@Param("id") long id);

    void delete(@Param("groupId") long groupId, @Param("dbId") long dbId, @Param("permType") String permType);

    void insert(@Param("groupId") long groupId, @Param("dbId") long dbId, @Param("permType") String permType,
                @Param("permValue") String permValue);

    /** The data graph's latest revision id, 0 when it was never changed. */
    long latestRevision();

    void insertRevision(@Param("before") String before, @Param("after") String after, @Param("userId") long userId,
                        @Param("createdAt") OffsetDateTime createdAt);
}
