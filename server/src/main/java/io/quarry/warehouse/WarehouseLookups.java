package io.quarry.warehouse;

import java.util.Collection;
import java.util.List;
import org.apache.ibatis.session.SqlSession;

/**
 * Reads of warehouse metadata for another module's transaction: on the connection that transaction already holds,
 * not a second one from the pool (as {@link MetadataService} would take), and without naming the warehouse's mapper
 * outside this module.
 */
public final class WarehouseLookups {
    private WarehouseLookups() {
    }

    /** The table, or null. */
    public static Table table(SqlSession session, long id) {
        return session.getMapper(WarehouseMapper.class).findTable(id);
    }

    /** The fields with these ids that exist, in one query. */
    public static List<Field> fieldsByIds(SqlSession session, Collection<Long> ids) {
        return session.getMapper(WarehouseMapper.class).listFieldsByIds(ids);
    }
}
