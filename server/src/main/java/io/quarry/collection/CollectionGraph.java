package io.quarry.collection;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.Db;
import io.quarry.core.Json;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Body;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The collection permission graph ({@code GET/PUT /api/collection/graph}): per group, "read" or "write" on the Root
 * and on every non-personal collection of a namespace ("none" = absent). Each PUT that changes something stores a
 * row in permissions_revision; its id is the graph's revision, and a PUT naming an older one answers 409.
 */
public final class CollectionGraph {
    public static final long ADMIN_GROUP = 2L;
    public static final String STALE = "Looks like someone else edited the permissions and your data is out of date. "
            + "Please fetch new data and try again.";

    private final Db db;
    private final Clock clock;
    /** PUTs are serialised so that the revision check and the write cannot interleave. */
    private final Object lock = new Object();

    public CollectionGraph(Db db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    public Map<String, Object> graph(String namespace) {
        String ns = CollectionService.normalizeNamespace(namespace);
        return db.tx(session -> graph(session.getMapper(CollectionMapper.class), ns));
    }

    public long revision() {
        return db.with(CollectionMapper.class, CollectionMapper::currentRevision);
    }

    /** Collections of the namespace that may appear in the graph: not personal, not below a personal one. */
    private static Set<Long> graphCollections(CollectionMapper m, String ns) {
        Set<Long> personal = new HashSet<>(m.personalCollectionIds());
        Set<Long> ids = new HashSet<>();
        for (CollectionMapper.Node n : m.nodes(ns, null)) {
            long[] ancestors = Locations.ids(n.location());
            if (n.personalOwnerId() == null && (ancestors.length == 0 || !personal.contains(ancestors[0]))) {
                ids.add(n.id());
            }
        }
        return ids;
    }

    private static Map<String, Object> graph(CollectionMapper m, String ns) {
        Set<Long> collections = graphCollections(m, ns);
        Map<Long, Map<String, String>> byGroup = new TreeMap<>();
        for (Long group : m.groupIds()) {
            byGroup.put(group, new LinkedHashMap<>());
        }
        for (CollectionMapper.PermRow row : m.permissionRows(ns)) {
            Map<String, String> perms = byGroup.get(row.groupId());
            if (perms == null || (row.collectionId() != null && !collections.contains(row.collectionId()))) {
                continue;
            }
            String key = row.collectionId() == null ? "root" : String.valueOf(row.collectionId());
            if (!"write".equals(perms.get(key))) {
                perms.put(key, row.perm());
            }
        }
        Map<String, String> admin = byGroup.get(ADMIN_GROUP);
        if (admin != null) {
            admin.clear();
            admin.put("root", "write");
            for (Long id : new java.util.TreeSet<>(collections)) {
                admin.put(String.valueOf(id), "write");
            }
        }
        Map<String, Object> groups = new LinkedHashMap<>();
        byGroup.forEach((g, perms) -> groups.put(String.valueOf(g), perms));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("revision", m.currentRevision());
        out.put("groups", groups);
        return out;
    }

    /** One change: group, collection (null = Root), new value (read | write | none). */
    private record Change(long group, Long collection, String value) {
    }

    public Map<String, Object> update(long userId, JsonNode json, String namespaceParam, boolean skipGraphParam, boolean force) {
        Body body = Body.of(json);
        JsonNode revisionNode = body.get("revision");
        Long revision = null;
        if (!revisionNode.isNull()) {
            if (!revisionNode.isIntegralNumber() || !revisionNode.canConvertToLong()) { // past a long: not a revision
                body.addError("revision", "nullable value must be an integer.", "should be an integer, received: " + revisionNode);
            } else {
                revision = revisionNode.asLong();
            }
        }
        body.map("groups");
        String namespace = body.optNonBlank("namespace");
        Boolean skipGraph = body.optBool("skip_graph");
        body.throwIfInvalid();
        String ns = CollectionService.normalizeNamespace(namespace != null ? namespace : namespaceParam);
        boolean skip = skipGraphParam || Boolean.TRUE.equals(skipGraph);
        final Long expected = revision;
        synchronized (lock) {
            return db.tx(session -> {
                CollectionMapper m = session.getMapper(CollectionMapper.class);
                List<Change> changes = parse(m, ns, body.get("groups"));
                long current = m.currentRevision();
                if (!force && (expected == null || expected != current)) {
                    throw new ApiException(409, STALE);
                }
                Map<String, Object> before = graph(m, ns);
                @SuppressWarnings("unchecked")
                Map<String, Map<String, String>> beforeGroups = (Map<String, Map<String, String>>) (Map<?, ?>) before.get("groups");
                List<Change> effective = new ArrayList<>();
                for (Change c : changes) {
                    Map<String, String> perms = beforeGroups.getOrDefault(String.valueOf(c.group()), Map.of());
                    String key = c.collection() == null ? "root" : String.valueOf(c.collection());
                    String was = perms.getOrDefault(key, "none");
                    if (!was.equals(c.value())) {
                        effective.add(c);
                    }
                }
                if (!effective.isEmpty()) {
                    for (Change c : effective) {
                        if (c.collection() == null) {
                            m.deleteRootPermission(c.group(), ns);
                        } else {
                            m.deletePermission(c.group(), c.collection());
                        }
                        if (!"none".equals(c.value())) {
                            m.insertPermission(c.group(), c.collection(), c.collection() == null ? ns : null, c.value());
                        }
                    }
                    Map<String, Object> rev = new HashMap<>();
                    rev.put("before", Json.write(before.get("groups")));
                    rev.put("after", Json.write(body.get("groups")));
                    rev.put("userId", userId);
                    rev.put("createdAt", OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC));
                    m.insertRevision(rev);
                }
                if (skip) {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("revision", m.currentRevision());
                    return out;
                }
                return graph(m, ns);
            });
        }
    }

    /** Validates the {@code groups} map: known groups, collections of this namespace in the graph, read/write/none. */
    private static List<Change> parse(CollectionMapper m, String ns, JsonNode groups) {
        Set<Long> known = new HashSet<>(m.groupIds());
        Set<Long> collections = graphCollections(m, ns);
        List<Change> changes = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        boolean adminChange = false;
        for (Iterator<Map.Entry<String, JsonNode>> it = groups.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> group = it.next();
            Long groupId = posLong(group.getKey());
            if (groupId == null || !known.contains(groupId)) {
                problems.add("unknown group id " + group.getKey());
                continue;
            }
            if (!group.getValue().isObject()) {
                problems.add("the permissions of group " + groupId + " must be a map");
                continue;
            }
            for (Iterator<Map.Entry<String, JsonNode>> perms = group.getValue().fields(); perms.hasNext(); ) {
                Map.Entry<String, JsonNode> perm = perms.next();
                Long collection = null;
                if (!"root".equals(perm.getKey())) {
                    collection = posLong(perm.getKey());
                    if (collection == null || !collections.contains(collection)) {
                        problems.add("unknown collection id " + perm.getKey());
                        continue;
                    }
                }
                String value = perm.getValue().isTextual() ? perm.getValue().asText() : null;
                if (!"read".equals(value) && !"write".equals(value) && !"none".equals(value)) {
                    problems.add("invalid permission " + perm.getValue() + " (read, write or none)");
                    continue;
                }
                if (groupId == ADMIN_GROUP) {
                    adminChange |= !"write".equals(value);
                    continue;
                }
                changes.add(new Change(groupId, collection, value));
            }
        }
        if (!problems.isEmpty()) {
            throw ApiException.withErrors(400, Map.of("groups",
                    "map of group id to a map of \"root\" or collection id to read, write or none"), Map.of("groups", problems));
        }
        if (adminChange) {
            throw ApiException.badRequest("You cannot create or revoke permissions for the 'Admin' group.");
        }
        return changes;
    }

    private static Long posLong(String s) {
        try {
            long v = Long.parseLong(s);
            return v > 0 ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
