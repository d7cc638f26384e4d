package io.quarry.permission;

import io.quarry.appdb.Db;
import io.quarry.appdb.RevisionCache;
import io.quarry.web.error.ApiException;
import io.quarry.core.Caller;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.ibatis.session.SqlSession;

/**
 * Data permissions, as Metabase stores them (table {@code data_permission}): per group and database a value for each
 * permission type. A user has the most permissive value any of their groups has (view-data: a block wins over
 * anything but {@code unrestricted}); no row at all is the least permissive value. Administrators have everything,
 * stored nowhere.
 *
 * <p>What the values allow: a database is readable (listed, its metadata shown, ad-hoc structured queries run) with
 * create-queries {@code query-builder} or better; ad-hoc native SQL needs {@code query-builder-and-native}; a saved
 * question runs with view-data {@code unrestricted} alone (its collection decides who sees it); {@code blocked}
 * stops everything.
 */
public final class DataPermissions {
    public static final String VIEW_DATA = "perms/view-data";
    public static final String CREATE_QUERIES = "perms/create-queries";
    public static final String DOWNLOAD = "perms/download-results";
    public static final String TABLE_METADATA = "perms/manage-table-metadata";
    public static final String MANAGE_DATABASE = "perms/manage-database";

    public static final String UNRESTRICTED = "unrestricted";
    public static final String BLOCKED = "blocked";
    public static final String NATIVE = "query-builder-and-native";
    public static final String QUERY_BUILDER = "query-builder";
    public static final String NO = "no";

    static final long ALL_USERS = 1;
    static final long ADMINISTRATORS = 2;

    /** Every permission type with its values, most permissive first. */
    static final Map<String, List<String>> VALUES = Map.of(
            VIEW_DATA, List.of(UNRESTRICTED, "legacy-no-self-service", BLOCKED),
            CREATE_QUERIES, List.of(NATIVE, QUERY_BUILDER, NO),
            DOWNLOAD, List.of("one-million-rows", "ten-thousand-rows", NO),
            TABLE_METADATA, List.of("yes", NO),
            MANAGE_DATABASE, List.of("yes", NO));


    /** What one caller may do with one database. */
    public record Access(String viewData, String createQueries) {
        static final Access FULL = new Access(UNRESTRICTED, NATIVE);
        static final Access NONE = new Access(BLOCKED, NO);

        /** Listed, metadata readable, ad-hoc structured queries: create-queries query-builder or better. */
        public boolean canRead() {
            return !BLOCKED.equals(viewData) && !NO.equals(createQueries);
        }

        public boolean canQueryNatively() {
            return !BLOCKED.equals(viewData) && NATIVE.equals(createQueries);
        }

        /** Saved questions run whenever the data is not blocked. */
        public boolean canRunSaved() {
            return !BLOCKED.equals(viewData);
        }

        /** Metabase's {@code native_permissions} of a database: {@code write} or {@code none}. */
        public String nativePermissions() {
            return canQueryNatively() ? "write" : "none";
        }
    }

    private final Db db;
    /** A user's access to one database, until the permission graph (or anything cached) changes. */
    private final RevisionCache<List<Long>, Access> accessCache;

    public DataPermissions(Db db) {
        this.db = db;
        this.accessCache = db.cache(10_000);
    }

    // --- what a caller may do -------------------------------------------------------------------------------------

    public Access access(Caller caller, long dbId) {
        if (!caller.authenticated()) {
            return Access.NONE;
        }
        if (caller.superuser()) {
            return Access.FULL;
        }
        return accessCache.get(List.of(caller.id(), dbId),
                key -> coalesce(db.with(DataPermissionMapper.class, m -> m.rowsOfUser(key.get(0), key.get(1)))));
    }

    /** The caller's access to every database at once (databases without any row map to no access). */
    public Map<Long, Access> accessAll(Caller caller) {
        Map<Long, Access> result = new HashMap<>();
        if (!caller.authenticated()) {
            return result;
        }
        if (caller.superuser()) {
            db.with(DataPermissionMapper.class, DataPermissionMapper::databaseIds).forEach(id -> result.put(id, Access.FULL));
            return result;
        }
        Map<Long, List<DataPermissionMapper.Row>> byDb = new HashMap<>();
        for (DataPermissionMapper.Row row : db.with(DataPermissionMapper.class, m -> m.rowsOfUser(caller.id(), null))) {
            byDb.computeIfAbsent(row.dbId(), k -> new java.util.ArrayList<>()).add(row);
        }
        byDb.forEach((id, rows) -> result.put(id, coalesce(rows)));
        return result;
    }

    /** Ids of the databases the caller may read (see {@link Access#canRead}); null means all (superusers). */
    public Set<Long> readableDatabases(Caller caller) {
        if (caller.superuser()) {
            return null;
        }
        Set<Long> ids = new HashSet<>();
        accessAll(caller).forEach((id, access) -> {
            if (access.canRead()) {
                ids.add(id);
            }
        });
        return ids;
    }

    public boolean canRead(Caller caller, long dbId) {
        return access(caller, dbId).canRead();
    }

    /** 403 unless the caller may read the database's metadata. */
    public void requireRead(Caller caller, long dbId) {
        if (!canRead(caller, dbId)) {
            throw ApiException.forbidden();
        }
    }

    /**
     * The query pipeline's check: ad-hoc native SQL needs native rights, ad-hoc structured queries the query builder;
     * a saved question (and the cards it refers to) only needs its data not to be blocked.
     */
    public boolean mayRunQuery(Caller caller, long dbId, boolean nativeQuery, boolean savedCard) {
        Access access = access(caller, dbId);
        return savedCard ? access.canRunSaved() : nativeQuery ? access.canQueryNatively() : access.canRead();
    }

    static Access coalesce(List<DataPermissionMapper.Row> rows) {
        Set<String> views = new HashSet<>();
        Set<String> creates = new HashSet<>();
        for (DataPermissionMapper.Row row : rows) {
            if (VIEW_DATA.equals(row.permType())) {
                views.add(row.permValue());
            } else if (CREATE_QUERIES.equals(row.permType())) {
                creates.add(row.permValue());
            }
        }
        String view = views.contains(BLOCKED) && !views.contains(UNRESTRICTED) ? BLOCKED : mostPermissive(VIEW_DATA, views);
        String create = mostPermissive(CREATE_QUERIES, creates);
        if (BLOCKED.equals(view)) {
            create = NO;
        }
        return new Access(view, create);
    }

    /** The most permissive of {@code values}, or the type's least permissive value when there is none. */
    static String mostPermissive(String type, Set<String> values) {
        List<String> ordered = VALUES.get(type);
        for (String v : ordered) {
            if (values.contains(v)) {
                return v;
            }
        }
        return ordered.get(ordered.size() - 1);
    }

    static String mostRestrictive(String type, Set<String> values, String fallback) {
        List<String> ordered = VALUES.get(type);
        for (int i = ordered.size() - 1; i >= 0; i--) {
            if (values.contains(ordered.get(i))) {
                return ordered.get(i);
            }
        }
        return fallback;
    }

    // --- defaults for new databases and groups ----------------------------------------------------------------------

    /**
     * A new database, as Metabase sets it up: every group but Administrators may view its data; create-queries and
     * downloads are the most restrictive the group has on any other database (native SQL and full downloads when the
     * group has none yet); table metadata and database management stay with administrators.
     */
    public void grantDatabaseDefaults(SqlSession session, long dbId) {
        DataPermissionMapper mapper = session.getMapper(DataPermissionMapper.class);
        Map<Long, Map<String, Set<String>>> byGroup = valuesByKey(mapper.rows(null, null), true, dbId);
        for (long groupId : mapper.groupIds()) {
            if (groupId != ADMINISTRATORS) {
                insertDefaults(mapper, groupId, dbId, byGroup.getOrDefault(groupId, Map.of()));
            }
        }
    }

    /** A new group: it may view every database's data, and create queries and download as All Users may. */
    public void grantGroupDefaults(SqlSession session, long groupId) {
        DataPermissionMapper mapper = session.getMapper(DataPermissionMapper.class);
        Map<Long, Map<String, Set<String>>> allUsersByDb = valuesByKey(mapper.rows(ALL_USERS, null), false, -1);
        for (long dbId : mapper.databaseIds()) {
            insertDefaults(mapper, groupId, dbId, allUsersByDb.getOrDefault(dbId, Map.of()));
        }
    }

    private static void insertDefaults(DataPermissionMapper mapper, long groupId, long dbId, Map<String, Set<String>> basis) {
        String create = mostRestrictive(CREATE_QUERIES, basis.getOrDefault(CREATE_QUERIES, Set.of()), NATIVE);
        String download = mostRestrictive(DOWNLOAD, basis.getOrDefault(DOWNLOAD, Set.of()), "one-million-rows");
        Map<String, String> values = new java.util.LinkedHashMap<>();
        values.put(VIEW_DATA, UNRESTRICTED);
        values.put(CREATE_QUERIES, create);
        values.put(DOWNLOAD, download);
        values.put(TABLE_METADATA, NO);
        values.put(MANAGE_DATABASE, NO);
        values.forEach((type, value) -> {
            mapper.delete(groupId, dbId, type);
            mapper.insert(groupId, dbId, type, value);
        });
    }

    /** Values per group (or per database) and type; {@code byGroup} groups rows by group, skipping {@code skipDb}. */
    private static Map<Long, Map<String, Set<String>>> valuesByKey(List<DataPermissionMapper.Row> rows, boolean byGroup, long skipDb) {
        Map<Long, Map<String, Set<String>>> result = new HashMap<>();
        for (DataPermissionMapper.Row row : rows) {
            if (row.dbId() == skipDb) {
                continue;
            }
            result.computeIfAbsent(byGroup ? row.groupId() : row.dbId(), k -> new HashMap<>())
                    .computeIfAbsent(row.permType(), k -> new HashSet<>()).add(row.permValue());
        }
        return result;
    }
}
