package io.quarry.permission;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.Db;
import io.quarry.core.Json;
import io.quarry.web.error.ApiException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The data permission graph as Metabase's API shows it: {@code {"revision": N, "groups": {"<group id>": {"<db id>":
 * {"view-data": "unrestricted", "create-queries": "query-builder-and-native", "download": {"schemas": "full"}}}}}}.
 * Least permissive values are left out (absent = blocked / no / none), and Administrators show their fixed full rights
 * on every database. Changes are batch updates of the parts sent, checked against the revision the client read.
 */
public final class DataPermissionGraph {
    static final String STALE = "Looks like someone else edited the permissions and your data is out of date. "
            + "Please fetch new data and try again.";
    static final String INVALID = "value must be a valid data permissions graph.";
    static final String ADMIN_FIXED = "You cannot change the permissions of the Administrators group.";

    /** Keys of the API graph, applied in this order (Metabase's: a block set last clears what it must). */
    private static final List<String> API_KEYS = List.of("details", "data-model", "download", "create-queries", "view-data");

    private final Db db;
    private final Clock clock;

    public DataPermissionGraph(Db db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    // --- reading ---------------------------------------------------------------------------------------------------

    /** The graph, optionally of one group and/or one database. */
    public Map<String, Object> graph(Long groupId, Long dbId) {
        return db.tx(session -> {
            DataPermissionMapper mapper = session.getMapper(DataPermissionMapper.class);
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("revision", mapper.latestRevision());
            result.put("groups", groups(mapper, groupId == null ? null : List.of(groupId), dbId));
            return result;
        });
    }

    /** 404 unless the group exists. */
    public void requireGroup(long groupId) {
        if (!db.with(DataPermissionMapper.class, m -> m.groupExists(groupId))) {
            throw ApiException.notFound();
        }
    }

    /** 404 unless the database exists. */
    public void requireDatabase(long dbId) {
        if (!db.with(DataPermissionMapper.class, m -> m.databaseExists(dbId))) {
            throw ApiException.notFound();
        }
    }

    private static Map<String, Object> groups(DataPermissionMapper mapper, List<Long> groupIds, Long dbId) {
        TreeMap<Long, TreeMap<Long, Map<String, String>>> stored = new TreeMap<>();
        for (DataPermissionMapper.Row row : mapper.rows(null, dbId)) {
            if (groupIds == null || groupIds.contains(row.groupId())) {
                stored.computeIfAbsent(row.groupId(), k -> new TreeMap<>())
                        .computeIfAbsent(row.dbId(), k -> new LinkedHashMap<>()).put(row.permType(), row.permValue());
            }
        }
        TreeMap<Long, Map<String, Object>> groups = new TreeMap<>();
        stored.forEach((group, dbs) -> {
            if (group == DataPermissions.ADMINISTRATORS) {
                return;
            }
            Map<String, Object> perDb = new LinkedHashMap<>();
            dbs.forEach((database, values) -> {
                Map<String, Object> api = toApi(values);
                if (!api.isEmpty()) {
                    perDb.put(String.valueOf(database), api);
                }
            });
            if (!perDb.isEmpty()) {
                groups.put(group, perDb);
            }
        });
        if (groupIds == null || groupIds.contains(DataPermissions.ADMINISTRATORS)) {
            Map<String, Object> admin = new LinkedHashMap<>();
            for (long database : dbId != null ? List.of(dbId) : mapper.databaseIds()) {
                admin.put(String.valueOf(database), adminPerms());
            }
            if (!admin.isEmpty()) {
                groups.put(DataPermissions.ADMINISTRATORS, admin);
            }
        }
        Map<String, Object> result = new LinkedHashMap<>();
        groups.forEach((group, perDb) -> result.put(String.valueOf(group), perDb));
        return result;
    }

    static Map<String, Object> adminPerms() {
        Map<String, Object> admin = new LinkedHashMap<>();
        admin.put("view-data", DataPermissions.UNRESTRICTED);
        admin.put("create-queries", DataPermissions.NATIVE);
        admin.put("download", Map.of("schemas", "full"));
        admin.put("data-model", Map.of("schemas", "all"));
        admin.put("details", "yes");
        return admin;
    }

    /** Stored values of one group on one database in the API's keys and words, least permissive ones left out. */
    static Map<String, Object> toApi(Map<String, String> values) {
        Map<String, Object> api = new LinkedHashMap<>();
        String view = values.get(DataPermissions.VIEW_DATA);
        if (view != null && !DataPermissions.BLOCKED.equals(view)) {
            api.put("view-data", view);
        }
        String create = values.get(DataPermissions.CREATE_QUERIES);
        if (create != null && !DataPermissions.NO.equals(create)) {
            api.put("create-queries", create);
        }
        String download = values.get(DataPermissions.DOWNLOAD);
        if ("one-million-rows".equals(download)) {
            api.put("download", Map.of("schemas", "full"));
        } else if ("ten-thousand-rows".equals(download)) {
            api.put("download", Map.of("schemas", "limited"));
        }
        if ("yes".equals(values.get(DataPermissions.TABLE_METADATA))) {
            api.put("data-model", Map.of("schemas", "all"));
        }
        if ("yes".equals(values.get(DataPermissions.MANAGE_DATABASE))) {
            api.put("details", "yes");
        }
        return api;
    }

    // --- changing ----------------------------------------------------------------------------------------------------

    /** One permission to set: stored type and value on a group's database. */
    private record Change(long groupId, long dbId, String apiKey, Object apiValue) {
    }

    /**
     * Applies the parts of {@code json.groups} that differ from the current graph; answers the new revision and (unless
     * {@code skipGraph}) the graph of the groups sent. A revision other than the current one answers 409 unless
     * {@code force}; anything invalid answers 400 and changes nothing.
     */
    public Map<String, Object> update(JsonNode json, boolean force, boolean skipGraph, long userId) {
        Map<String, Object> errors = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        if (json == null || !json.isObject()) {
            throw ApiException.withErrors(400, Map.of("body", "Value must be a map."), Map.of("body", List.of("invalid type")));
        }
        JsonNode revisionNode = json.get("revision");
        Long revision = null;
        if (revisionNode != null && revisionNode.canConvertToExactIntegral() && revisionNode.isNumber()
                && revisionNode.canConvertToLong()) { // past a long is no revision (it wrapped to a stale one: 409)
            revision = revisionNode.asLong();
        } else if (!force || (revisionNode != null && !revisionNode.isNull())) {
            errors.put("revision", "value must be an integer.");
        }
        JsonNode groupsNode = json.get("groups");
        if (groupsNode == null || !groupsNode.isObject()) {
            errors.put("groups", "Value must be a map.");
        }
        if (!errors.isEmpty()) {
            throw ApiException.withErrors(400, errors, Map.of());
        }
        Long expected = revision;
        return db.tx(session -> {
            DataPermissionMapper mapper = session.getMapper(DataPermissionMapper.class);
            List<Long> groupIds = new ArrayList<>();
            List<Change> changes = parse(mapper, groupsNode, groupIds, problems);
            if (!problems.isEmpty()) {
                throw ApiException.withErrors(400, Map.of("groups", INVALID), Map.of("groups", problems));
            }
            long current = mapper.latestRevision();
            if (!force && !Objects.equals(expected, current)) {
                throw new ApiException(409, STALE);
            }
            Map<String, Object> before = groups(mapper, groupIds, null);
            List<Change> effective = new ArrayList<>();
            for (Change change : changes) {
                Object old = currentValue(before, change);
                if (!Objects.equals(Json.MAPPER.valueToTree(old), Json.MAPPER.valueToTree(change.apiValue()))) {
                    if (change.groupId() == DataPermissions.ADMINISTRATORS) {
                        throw ApiException.badRequest(ADMIN_FIXED);
                    }
                    effective.add(change);
                }
            }
            Map<String, Object> oldPart = new LinkedHashMap<>();
            Map<String, Object> newPart = new LinkedHashMap<>();
            for (Change change : effective) {
                apply(mapper, change);
                put(oldPart, change, currentValue(before, change));
                put(newPart, change, change.apiValue());
            }
            mapper.insertRevision(Json.write(oldPart), Json.write(newPart), userId, OffsetDateTime.now(clock));
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("revision", mapper.latestRevision());
            if (!skipGraph) {
                result.put("groups", groups(mapper, groupIds, null));
            }
            return result;
        });
    }

    private static void put(Map<String, Object> graph, Change change, Object value) {
        @SuppressWarnings("unchecked")
        Map<String, Object> perDb = (Map<String, Object>) graph.computeIfAbsent(String.valueOf(change.groupId()), k -> new LinkedHashMap<>());
        @SuppressWarnings("unchecked")
        Map<String, Object> perms = (Map<String, Object>) perDb.computeIfAbsent(String.valueOf(change.dbId()), k -> new LinkedHashMap<>());
        perms.put(change.apiKey(), value);
    }

    private static Object currentValue(Map<String, Object> graph, Change change) {
        Object perDb = graph.get(String.valueOf(change.groupId()));
        Object perms = perDb instanceof Map<?, ?> m ? m.get(String.valueOf(change.dbId())) : null;
        Object value = perms instanceof Map<?, ?> m ? m.get(change.apiKey()) : null;
        if (value != null) {
            return value;
        }
        // absent = the least permissive value, in the API's words
        return switch (change.apiKey()) {
            case "view-data" -> DataPermissions.BLOCKED;
            case "create-queries", "details" -> DataPermissions.NO;
            case "download" -> Map.of("schemas", "none");
            case "data-model" -> Map.of("schemas", "none");
            default -> null;
        };
    }

    /** Reads and checks the groups part; every problem is recorded (path: message). */
    private static List<Change> parse(DataPermissionMapper mapper, JsonNode groups, List<Long> groupIds, List<String> problems) {
        List<Change> changes = new ArrayList<>();
        // the known ids read once, not one existence query per group and per group × database of the payload
        Set<Long> knownGroups = new HashSet<>(mapper.groupIds());
        Set<Long> knownDatabases = new HashSet<>(mapper.databaseIds());
        Iterator<Map.Entry<String, JsonNode>> groupEntries = groups.fields();
        while (groupEntries.hasNext()) {
            Map.Entry<String, JsonNode> groupEntry = groupEntries.next();
            Long groupId = positiveId(groupEntry.getKey());
            if (groupId == null || !knownGroups.contains(groupId)) {
                problems.add(groupEntry.getKey() + ": not the id of a permissions group");
                continue;
            }
            groupIds.add(groupId);
            if (!groupEntry.getValue().isObject()) {
                problems.add(groupEntry.getKey() + ": should be a map of database ids to permissions");
                continue;
            }
            Iterator<Map.Entry<String, JsonNode>> dbEntries = groupEntry.getValue().fields();
            while (dbEntries.hasNext()) {
                Map.Entry<String, JsonNode> dbEntry = dbEntries.next();
                String path = groupEntry.getKey() + "." + dbEntry.getKey();
                Long dbId = positiveId(dbEntry.getKey());
                if (dbId == null || !knownDatabases.contains(dbId)) {
                    problems.add(path + ": not the id of a database");
                    continue;
                }
                if (!dbEntry.getValue().isObject()) {
                    problems.add(path + ": should be a map of permissions");
                    continue;
                }
                Map<String, JsonNode> perms = new LinkedHashMap<>();
                dbEntry.getValue().fields().forEachRemaining(e -> perms.put(e.getKey(), e.getValue()));
                for (String key : perms.keySet()) {
                    if (!API_KEYS.contains(key)) {
                        problems.add(path + "." + key + ": unknown permission (one of " + String.join(", ", API_KEYS) + ")");
                    }
                }
                for (String key : API_KEYS) {
                    JsonNode value = perms.get(key);
                    if (value == null || value.isNull()) {
                        continue;
                    }
                    Object parsed = parseValue(key, value);
                    if (parsed == null) {
                        problems.add(path + "." + key + ": " + expected(key) + ", received: " + value);
                    } else {
                        changes.add(new Change(groupId, dbId, key, parsed));
                    }
                }
            }
        }
        return changes;
    }

    private static Object parseValue(String key, JsonNode value) {
        switch (key) {
            case "view-data" -> {
                String v = value.isTextual() ? value.asText() : null;
                if ("impersonated".equals(v)) {
                    return DataPermissions.UNRESTRICTED;
                }
                return DataPermissions.UNRESTRICTED.equals(v) || DataPermissions.BLOCKED.equals(v)
                        || "legacy-no-self-service".equals(v) ? v : null;
            }
            case "create-queries" -> {
                String v = value.isTextual() ? value.asText() : null;
                return v != null && DataPermissions.VALUES.get(DataPermissions.CREATE_QUERIES).contains(v) ? v : null; // List.of(..).contains(null) throws
            }
            case "details" -> {
                String v = value.isTextual() ? value.asText() : null;
                return "yes".equals(v) || "no".equals(v) ? v : null;
            }
            case "download", "data-model" -> {
                JsonNode schemas = value.isObject() && value.size() == 1 ? value.get("schemas") : null;
                String v = schemas != null && schemas.isTextual() ? schemas.asText() : null;
                List<String> allowed = key.equals("download") ? List.of("full", "limited", "none") : List.of("all", "none");
                return v != null && allowed.contains(v) ? Map.of("schemas", v) : null;
            }
            default -> {
                return null;
            }
        }
    }

    private static String expected(String key) {
        return switch (key) {
            case "view-data" -> "should be either \"unrestricted\" or \"blocked\"";
            case "create-queries" -> "should be either \"query-builder-and-native\", \"query-builder\" or \"no\"";
            case "details" -> "should be either \"yes\" or \"no\"";
            case "download" -> "should be {\"schemas\": \"full\" | \"limited\" | \"none\"}";
            default -> "should be {\"schemas\": \"all\" | \"none\"}";
        };
    }

    private static Long positiveId(String key) {
        try {
            long id = Long.parseLong(key);
            return id > 0 ? id : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Writes one change with Metabase's consistency rules (a block clears querying and downloads; querying unblocks). */
    private static void apply(DataPermissionMapper mapper, Change change) {
        long g = change.groupId();
        long d = change.dbId();
        switch (change.apiKey()) {
            case "view-data" -> {
                String v = (String) change.apiValue();
                set(mapper, g, d, DataPermissions.VIEW_DATA, v);
                if (DataPermissions.BLOCKED.equals(v)) {
                    set(mapper, g, d, DataPermissions.CREATE_QUERIES, DataPermissions.NO);
                    set(mapper, g, d, DataPermissions.DOWNLOAD, DataPermissions.NO);
                }
            }
            case "create-queries" -> {
                String v = (String) change.apiValue();
                set(mapper, g, d, DataPermissions.CREATE_QUERIES, v);
                if (!DataPermissions.NO.equals(v)) {
                    set(mapper, g, d, DataPermissions.VIEW_DATA, DataPermissions.UNRESTRICTED);
                }
            }
            case "download" -> {
                String v = schemas(change.apiValue());
                set(mapper, g, d, DataPermissions.DOWNLOAD,
                        switch (v) {
                            case "full" -> "one-million-rows";
                            case "limited" -> "ten-thousand-rows";
                            default -> DataPermissions.NO;
                        });
            }
            case "data-model" -> set(mapper, g, d, DataPermissions.TABLE_METADATA, "all".equals(schemas(change.apiValue())) ? "yes" : "no");
            case "details" -> set(mapper, g, d, DataPermissions.MANAGE_DATABASE, (String) change.apiValue());
            default -> throw new IllegalStateException(change.apiKey());
        }
    }

    private static String schemas(Object value) {
        return (String) ((Map<?, ?>) value).get("schemas");
    }

    private static void set(DataPermissionMapper mapper, long groupId, long dbId, String type, String value) {
        mapper.delete(groupId, dbId, type);
        mapper.insert(groupId, dbId, type, value);
    }
}
