package io.quarry.permission;

import io.quarry.appdb.Db;
import java.time.Clock;

/** The data permissions module: the check the query processor and metadata endpoints ask, and the editable graph. */
public record PermissionModule(DataPermissions dataPermissions, DataPermissionGraph dataPermissionGraph) {
    public static PermissionModule create(Db db, Clock clock) {
        return new PermissionModule(new DataPermissions(db), new DataPermissionGraph(db, clock));
    }
}
