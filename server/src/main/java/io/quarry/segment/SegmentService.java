package io.quarry.segment;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.Db;
import io.quarry.core.Caller;
import io.quarry.core.EntityIds;
import io.quarry.core.Json;
import io.quarry.permission.DataPermissions;
import io.quarry.revision.Revision;
import io.quarry.revision.Revisions;
import io.quarry.user.User;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.MetadataViews;
import io.quarry.warehouse.Table;
import io.quarry.warehouse.WarehouseLookups;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.web.param.Body;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.ibatis.session.SqlSession;

/**
 * Segments: saved filters on one table, with a revision stored on every change. As in Metabase, reading a segment
 * needs data access to its table: the caller may read the table's database ({@link DataPermissions#canRead}); others
 * get 403 and lists leave the segment out. Creating and changing them is for administrators (Metabase's data-model
 * permission).
 */
public final class SegmentService {
    private final Db db;
    private final Revisions revisions;
    private final DataPermissions dataPermissions;
    private final Clock clock;

    public SegmentService(Db db, Revisions revisions, DataPermissions dataPermissions, Clock clock) {
        this.db = db;
        this.revisions = revisions;
        this.dataPermissions = dataPermissions;
        this.clock = clock;
    }

    // ------------------------------------------------------------------------------------------------ reading

    public List<Map<String, Object>> list(Caller caller) {
        requireReader(caller);
        Set<Long> readable = dataPermissions.readableDatabases(caller);
        return db.tx(session -> {
            List<Map<String, Object>> out = new ArrayList<>();
            Map<Long, User> users = new HashMap<>();
            Map<Long, Long> databaseOfTable = new HashMap<>();
            List<Segment> segments = new ArrayList<>();
            for (Segment s : session.getMapper(SegmentMapper.class).activeSegments()) {
                if (readable == null || readable.contains(databaseOfTable.computeIfAbsent(s.tableId, t -> databaseOf(session, t)))) {
                    segments.add(s);
                }
            }
            Map<Long, Field> fields = SegmentDescriptions.fieldsOf(session, segments.stream().map(s -> s.definition).toList());
            for (Segment s : segments) {
                Map<String, Object> view = view(session, s, users);
                view.put("definition_description", SegmentDescriptions.describe(fields, s.definition));
                out.add(view);
            }
            return out;
        });
    }

    public Map<String, Object> get(Caller caller, long id) {
        requireReader(caller);
        return db.tx(session -> view(session, readable(session, caller, id), new HashMap<>()));
    }

    /** The filter clause of a segment, for {@code ["segment", id]} in structured queries; null when there is none. */
    public Object filterOf(long id) {
        Segment segment = db.with(SegmentMapper.class, m -> m.findSegment(id));
        if (segment == null || segment.definition == null) {
            return null;
        }
        Object filter = segment.definition.get("filter");
        // a segment without a filter matches every row
        return filter == null ? List.of("and") : filter;
    }

    public List<Map<String, Object>> revisions(Caller caller, long id) {
        requireReader(caller);
        return db.tx(session -> {
            readable(session, caller, id);
            List<Revision> history = revisions.history(session, Revisions.SEGMENT, id);
            List<Map<String, Object>> out = new ArrayList<>();
            Map<Long, User> users = new HashMap<>();
            for (int i = 0; i < history.size(); i++) {
                Revision previous = i + 1 < history.size() ? history.get(i + 1) : null;
                out.add(SegmentRevisions.details(session, history.get(i), previous, users));
            }
            return out;
        });
    }

    /** Metabase's related entities of a segment: its table, metrics, the table's other segments, and cards using it. */
    public Map<String, Object> related(Caller caller, long id) {
        requireReader(caller);
        return db.tx(session -> {
            Segment segment = readable(session, caller, id);
            Table table = WarehouseLookups.table(session, segment.tableId);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("table", table == null ? null : MetadataViews.table(table, true));
            out.put("metrics", List.of());
            List<Map<String, Object>> others = new ArrayList<>();
            Map<Long, User> users = new HashMap<>();
            for (Segment other : session.getMapper(SegmentMapper.class).segmentsOfTable(segment.tableId)) {
                if (!other.id.equals(segment.id)) {
                    others.add(view(session, other, users));
                }
            }
            out.put("segments", others);
            List<Map<String, Object>> linked = new ArrayList<>();
            for (SegmentMapper.CardRef card : session.getMapper(SegmentMapper.class).cardsMentioningSegments()) {
                if (usesSegment(card.datasetQuery, id)) {
                    Map<String, Object> c = new LinkedHashMap<>();
                    c.put("id", card.id);
                    c.put("name", card.name);
                    linked.add(c);
                }
            }
            out.put("linked-from", linked);
            return out;
        });
    }

    // ------------------------------------------------------------------------------------------------ writing

    public Map<String, Object> create(Caller caller, JsonNode json) {
        requireWriter(caller);
        Body body = Body.of(json).storedIn("segment");
        String name = body.nonBlank("name");
        Long tableId = body.posInt("table_id");
        Map<String, Object> definition = body.map("definition");
        String description = body.optString("description");
        body.throwIfInvalid();
        return db.tx(session -> {
            Table table = WarehouseLookups.table(session, tableId);
            if (table == null) {
                throw ApiException.invalidField("table_id", "Table does not exist.");
            }
            OffsetDateTime now = OffsetDateTime.now(clock);
            Segment s = new Segment();
            s.entityId = EntityIds.next();
            s.tableId = tableId;
            s.creatorId = caller.id();
            s.name = name;
            s.description = description;
            s.definition = checkedDefinition(definition, tableId);
            s.createdAt = now;
            s.updatedAt = now;
            session.getMapper(SegmentMapper.class).insertSegment(s);
            revisions.record(session, Revisions.SEGMENT, s.id, caller.id(), serialize(s), null, true, false);
            return view(session, s, new HashMap<>());
        });
    }

    /** PUT: the fields given (null leaves description/caveats/points_of_interest cleared, others unchanged). */
    public Map<String, Object> update(Caller caller, long id, JsonNode json) {
        requireWriter(caller);
        Body body = Body.of(json).storedIn("segment");
        String name = body.optNonBlank("name");
        Map<String, Object> definition = body.optMap("definition");
        String message = body.nonBlank("revision_message");
        Boolean archived = body.optBool("archived");
        String caveats = body.optString("caveats");
        String description = body.optString("description");
        String pointsOfInterest = body.optString("points_of_interest");
        Boolean showInGettingStarted = body.optBool("show_in_getting_started");
        body.throwIfInvalid();
        return db.tx(session -> {
            Segment s = require(session, id);
            if (name != null) {
                s.name = name;
            }
            if (definition != null) {
                s.definition = checkedDefinition(definition, s.tableId);
            }
            if (archived != null) {
                s.archived = archived;
            }
            if (showInGettingStarted != null) {
                s.showInGettingStarted = showInGettingStarted;
            }
            if (body.has("caveats")) {
                s.caveats = caveats;
            }
            if (body.has("description")) {
                s.description = description;
            }
            if (body.has("points_of_interest")) {
                s.pointsOfInterest = pointsOfInterest;
            }
            save(session, s, caller.id(), message);
            return view(session, s, new HashMap<>());
        });
    }

    /** The deprecated DELETE: archives, with a revision message. */
    public void archive(Caller caller, long id, String message) {
        requireWriter(caller);
        if (message == null || message.isBlank()) {
            throw ApiException.withErrors(400, Map.of("revision_message", "value must be a non-blank string."),
                    Map.of("revision_message", List.of("non-blank string, received: " + (message == null ? "nil" : "\"" + message + "\""))));
        }
        db.tx(session -> {
            Segment s = require(session, id);
            s.archived = true;
            save(session, s, caller.id(), message);
            return null;
        });
    }

    /** Returns the segment to a prior revision's state and records that as a reversion; answers the new revision. */
    public Map<String, Object> revert(Caller caller, long id, JsonNode json) {
        requireWriter(caller);
        Body body = Body.of(json);
        Long revisionId = body.posInt("revision_id");
        body.throwIfInvalid();
        return db.tx(session -> {
            Segment s = require(session, id);
            Revision target = revisions.find(session, revisionId);
            if (target == null || !Revisions.SEGMENT.equals(target.model) || !Objects.equals(target.modelId, id)) {
                throw ApiException.notFound();
            }
            List<Revision> history = revisions.history(session, Revisions.SEGMENT, id);
            Revision last = history.isEmpty() ? null : history.get(0);
            restore(session, s, target.object);
            s.updatedAt = OffsetDateTime.now(clock);
            session.getMapper(SegmentMapper.class).updateSegment(s);
            Revision reversion = revisions.record(session, Revisions.SEGMENT, id, caller.id(), target.object, null, false, true);
            return SegmentRevisions.details(session, reversion, last, new HashMap<>());
        });
    }

    private void save(SqlSession session, Segment s, long userId, String message) {
        s.updatedAt = OffsetDateTime.now(clock);
        session.getMapper(SegmentMapper.class).updateSegment(s);
        // as Metabase: a revision only when the stored state differs from the last revision's
        Map<String, Object> object = serialize(s);
        List<Revision> history = revisions.history(session, Revisions.SEGMENT, s.id);
        if (history.isEmpty() || !Json.write(object).equals(Json.write(history.get(0).object))) {
            revisions.record(session, Revisions.SEGMENT, s.id, userId, object, message, false, false);
        }
    }

    /** The definition as stored: its {@code source-table} is the segment's table; its filter is a clause. */
    private static Map<String, Object> checkedDefinition(Map<String, Object> definition, long tableId) {
        Map<String, Object> out = new LinkedHashMap<>(definition);
        Object source = out.get("source-table");
        if (source == null) {
            out.put("source-table", tableId);
        } else if (!(source instanceof Number n) || n.longValue() != tableId) {
            throw ApiException.invalidField("definition", "The definition's source-table must be the segment's table.");
        }
        Object filter = out.get("filter");
        if (filter != null && !(filter instanceof List<?> clause && !clause.isEmpty() && clause.get(0) instanceof String)) {
            throw ApiException.invalidField("definition", "The definition's filter must be an MBQL filter clause.");
        }
        return out;
    }

    private static void restore(SqlSession session, Segment s, Map<String, Object> object) {
        if (object == null) {
            return;
        }
        if (object.get("name") instanceof String name) {
            s.name = name;
        }
        s.description = (String) object.get("description");
        if (object.get("definition") instanceof Map<?, ?> definition) {
            @SuppressWarnings("unchecked")
            Map<String, Object> d = (Map<String, Object>) definition;
            s.definition = d;
        }
        if (object.get("table_id") instanceof Number t && WarehouseLookups.table(session, t.longValue()) != null) {
            s.tableId = t.longValue();
        }
        s.caveats = (String) object.get("caveats");
        s.pointsOfInterest = (String) object.get("points_of_interest");
        s.archived = Boolean.TRUE.equals(object.get("archived"));
        s.showInGettingStarted = Boolean.TRUE.equals(object.get("show_in_getting_started"));
    }

    /** What a revision stores: the segment without its timestamps (Metabase's serialize-instance). */
    static Map<String, Object> serialize(Segment s) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("id", s.id);
        o.put("entity_id", s.entityId);
        o.put("table_id", s.tableId);
        o.put("creator_id", s.creatorId);
        o.put("name", s.name);
        o.put("description", s.description);
        o.put("definition", s.definition);
        o.put("archived", s.archived);
        o.put("caveats", s.caveats);
        o.put("points_of_interest", s.pointsOfInterest);
        o.put("show_in_getting_started", s.showInGettingStarted);
        return o;
    }

    private static Segment require(SqlSession session, long id) {
        return Checks.found(session.getMapper(SegmentMapper.class).findSegment(id));
    }

    private static void requireReader(Caller caller) {
        caller.id();
    }

    /** The segment (404 when unknown), 403 unless the caller has data access to its table's database. */
    private Segment readable(SqlSession session, Caller caller, long id) {
        Segment segment = require(session, id);
        if (!caller.superuser()) {
            Long database = databaseOf(session, segment.tableId);
            Checks.permitted(database != null && dataPermissions.canRead(caller, database));
        }
        return segment;
    }

    /** The database of a table; {@code -1} when the table is gone (no non-superuser reads such a segment). */
    private static Long databaseOf(SqlSession session, Long tableId) {
        Table table = tableId == null ? null : WarehouseLookups.table(session, tableId);
        return table == null || table.dbId == null ? -1L : table.dbId;
    }

    private static void requireWriter(Caller caller) {
        caller.id();
        if (!caller.superuser()) {
            throw ApiException.forbidden();
        }
    }

    private static Map<String, Object> view(SqlSession session, Segment s, Map<Long, User> users) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", s.id);
        v.put("entity_id", s.entityId);
        v.put("name", s.name);
        v.put("description", s.description);
        v.put("table_id", s.tableId);
        v.put("definition", s.definition);
        v.put("creator_id", s.creatorId);
        v.put("creator", io.quarry.user.Creators.of(session, s.creatorId, users));
        v.put("archived", s.archived);
        v.put("caveats", s.caveats);
        v.put("points_of_interest", s.pointsOfInterest);
        v.put("show_in_getting_started", s.showInGettingStarted);
        v.put("created_at", s.createdAt);
        v.put("updated_at", s.updatedAt);
        return v;
    }


    private static boolean usesSegment(String datasetQuery, long id) {
        if (datasetQuery == null) {
            return false;
        }
        try {
            return mentions(Json.read(datasetQuery), id);
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    private static boolean mentions(JsonNode node, long id) {
        if (node.isArray()) {
            if (node.size() == 2 && "segment".equals(node.get(0).asText()) && node.get(1).canConvertToLong()
                    && node.get(1).asLong() == id) {
                return true;
            }
            for (JsonNode child : node) {
                if (mentions(child, id)) {
                    return true;
                }
            }
        } else if (node.isObject()) {
            for (JsonNode child : node) {
                if (mentions(child, id)) {
                    return true;
                }
            }
        }
        return false;
    }
}
