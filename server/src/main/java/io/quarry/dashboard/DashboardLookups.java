package io.quarry.dashboard;

import java.util.List;
import org.apache.ibatis.session.SqlSession;

/**
 * Reads of the content dashboards show (collections and cards as dashboards list them) for another module's
 * transaction (timelines): on the connection that transaction already holds, without naming the dashboard module's
 * mapper outside it.
 */
public final class DashboardLookups {
    private DashboardLookups() {
    }

    /** The collection, or null. */
    public static CollectionRow collection(SqlSession session, long id) {
        return session.getMapper(DashboardMapper.class).findCollection(id);
    }

    /** The collections with these ids that exist, in one query. */
    public static List<CollectionRow> collections(SqlSession session, List<Long> ids) {
        return session.getMapper(DashboardMapper.class).findCollections(ids);
    }

    /** The card, or null. */
    public static CardRow card(SqlSession session, long id) {
        return session.getMapper(DashboardMapper.class).findCard(id);
    }
}
