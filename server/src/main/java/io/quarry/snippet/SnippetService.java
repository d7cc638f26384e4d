package io.quarry.snippet;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.Db;
import io.quarry.collection.CollectionAccess;
import io.quarry.core.Caller;
import io.quarry.core.EntityIds;
import io.quarry.user.User;
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
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;

/**
 * Native query snippets. A snippet takes the rights of its collection (a collection of the {@code snippets}
 * namespace; none = that namespace's Root, which All Users may write on a fresh install): reading needs read, creating
 * and changing need write — on the old and the new collection when it moves. Names are unique.
 */
public final class SnippetService {
    /** Metabase's message for a name with {@code }} or leading whitespace. */
    public static final String NAME_RULE = "snippet names cannot include } or start with spaces";
    static final String NAME_TAKEN = "A snippet with that name already exists. Please pick a different name.";
    static final String WRONG_NAMESPACE = "A NativeQuerySnippet can only go in Collections in the :snippets namespace.";
    private static final String SNIPPETS = "snippets";

    private final Db db;
    private final CollectionAccess access;
    private final Clock clock;

    public SnippetService(Db db, CollectionAccess access, Clock clock) {
        this.db = db;
        this.access = access;
        this.clock = clock;
    }

    public List<Map<String, Object>> list(Caller caller, boolean archived) {
        caller.id();
        CollectionAccess.Visible visible = access.visible(caller);
        boolean root = access.rootLevel(caller, SNIPPETS) != CollectionAccess.Level.NONE;
        return db.tx(session -> {
            List<Map<String, Object>> out = new ArrayList<>();
            Map<Long, User> users = new HashMap<>();
            for (Snippet s : session.getMapper(SnippetMapper.class).snippets(archived)) {
                if (s.collectionId == null ? root : visible.canRead(s.collectionId)) {
                    out.add(view(session, s, users));
                }
            }
            return out;
        });
    }

    public Map<String, Object> get(Caller caller, long id) {
        caller.id();
        Snippet s = Checks.found(db.with(SnippetMapper.class, m -> m.findSnippet(id)));
        if (!canRead(caller, s.collectionId)) {
            throw ApiException.forbidden();
        }
        return db.tx(session -> view(session, s, new HashMap<>()));
    }

    /** A snippet's text by name, for {@code {{snippet: name}}} in native queries (archived ones too, as Metabase). */
    public String contentByName(String name) {
        Snippet s = db.with(SnippetMapper.class, m -> m.findSnippetByName(name));
        return s == null ? null : s.content;
    }

    public Map<String, Object> create(Caller caller, JsonNode json) {
        long userId = caller.id();
        Body body = Body.of(json).storedIn("native_query_snippet");
        String content = body.string("content");
        String description = body.optString("description");
        String name = name(body, false);
        Long collectionId = body.optPosInt("collection_id");
        body.throwIfInvalid();
        try {
            return db.tx(session -> {
                SnippetMapper mapper = session.getMapper(SnippetMapper.class);
                if (mapper.findSnippetByName(name) != null) {
                    throw ApiException.badRequest(NAME_TAKEN);
                }
                requireWrite(caller, collectionId);
                checkNamespace(mapper, collectionId);
                OffsetDateTime now = OffsetDateTime.now(clock);
                Snippet s = new Snippet();
                s.entityId = EntityIds.next();
                s.name = name;
                s.description = description;
                s.content = content;
                s.creatorId = userId;
                s.collectionId = collectionId;
                s.createdAt = now;
                s.updatedAt = now;
                mapper.insertSnippet(s);
                return view(session, s, new HashMap<>());
            });
        } catch (PersistenceException e) {
            throw nameRace(name, e);
        }
    }

    /**
     * PUT: {@code archived}, {@code content} and {@code name} change when given a value (null is ignored);
     * {@code description} and {@code collection_id} when present (null clears / moves to the Root).
     */
    public Map<String, Object> update(Caller caller, long id, JsonNode json) {
        caller.id();
        Body body = Body.of(json).storedIn("native_query_snippet");
        Boolean archived = body.optBool("archived");
        String content = body.optString("content");
        String description = body.optString("description");
        String name = name(body, true);
        Long collectionId = body.optPosInt("collection_id");
        body.throwIfInvalid();
        try {
            return db.tx(session -> {
                SnippetMapper mapper = session.getMapper(SnippetMapper.class);
                Snippet s = Checks.found(mapper.findSnippet(id));
                Snippet before = copy(s);
                if (archived != null) {
                    s.archived = archived;
                }
                if (content != null) {
                    s.content = content;
                }
                if (name != null) {
                    s.name = name;
                }
                if (body.has("description")) {
                    s.description = description;
                }
                if (body.has("collection_id")) {
                    s.collectionId = collectionId;
                }
                boolean changed = s.archived != before.archived || !Objects.equals(s.content, before.content)
                        || !Objects.equals(s.name, before.name) || !Objects.equals(s.description, before.description)
                        || !Objects.equals(s.collectionId, before.collectionId);
                if (changed) {
                    requireWrite(caller, before.collectionId);
                    if (!Objects.equals(s.collectionId, before.collectionId)) {
                        requireWrite(caller, s.collectionId);
                        checkNamespace(mapper, s.collectionId);
                    }
                    if (!Objects.equals(s.name, before.name) && mapper.findSnippetByName(s.name) != null) {
                        throw ApiException.badRequest(NAME_TAKEN);
                    }
                    s.updatedAt = OffsetDateTime.now(clock);
                    mapper.updateSnippet(s);
                } else if (!canRead(caller, s.collectionId)) {
                    throw ApiException.forbidden();
                }
                return view(session, s, new HashMap<>());
            });
        } catch (PersistenceException e) {
            throw nameRace(name, e);
        }
    }

    /** The name field: a string without {@code }} that does not start with whitespace. */
    private static String name(Body body, boolean nullable) {
        JsonNode value = body.get("name", Body.Kind.STRING);
        if (value.isNull() || value.isMissingNode()) {
            if (!nullable) {
                body.addError("name", NAME_RULE, "missing required key, received: nil");
            }
            return null;
        }
        if (!value.isTextual() || value.asText().contains("}") || (!value.asText().isEmpty()
                && Character.isWhitespace(value.asText().charAt(0)))) {
            String received = value.isTextual() ? "\"" + value.asText() + "\"" : value.toString();
            body.addError("name", (nullable ? "nullable " : "") + NAME_RULE, NAME_RULE + ", received: " + received);
            return null;
        }
        return body.withinLength("name", value.asText());
    }

    /** Two requests raced for one name: the unique constraint caught the second. */
    private RuntimeException nameRace(String name, PersistenceException e) {
        if (name != null && db.with(SnippetMapper.class, m -> m.findSnippetByName(name)) != null) {
            return ApiException.badRequest(NAME_TAKEN);
        }
        return e;
    }

    private boolean canRead(Caller caller, Long collectionId) {
        return collectionId == null ? access.rootLevel(caller, SNIPPETS) != CollectionAccess.Level.NONE
                : access.canRead(caller, collectionId);
    }

    private void requireWrite(Caller caller, Long collectionId) {
        boolean ok = collectionId == null ? access.rootLevel(caller, SNIPPETS) == CollectionAccess.Level.WRITE
                : access.canWrite(caller, collectionId);
        if (!ok) {
            throw ApiException.forbidden();
        }
    }

    private static void checkNamespace(SnippetMapper mapper, Long collectionId) {
        if (collectionId == null) {
            return;
        }
        String namespace = mapper.collectionNamespace(collectionId);
        if (namespace == null) {
            throw ApiException.withErrors(404, Map.of("collection_id", "Collection does not exist."), null);
        }
        if (!SNIPPETS.equals(namespace) && !"snippet".equals(namespace)) {
            throw ApiException.withErrors(400, Map.of("collection_id", WRONG_NAMESPACE), null);
        }
    }

    private static Snippet copy(Snippet s) {
        Snippet c = new Snippet();
        c.id = s.id;
        c.name = s.name;
        c.description = s.description;
        c.content = s.content;
        c.archived = s.archived;
        c.collectionId = s.collectionId;
        return c;
    }

    private static Map<String, Object> view(SqlSession session, Snippet s, Map<Long, User> users) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", s.id);
        v.put("entity_id", s.entityId);
        v.put("name", s.name);
        v.put("description", s.description);
        v.put("content", s.content);
        v.put("collection_id", s.collectionId);
        v.put("creator_id", s.creatorId);
        v.put("creator", io.quarry.user.Creators.of(session, s.creatorId, users));
        v.put("archived", s.archived);
        v.put("created_at", s.createdAt);
        v.put("updated_at", s.updatedAt);
        return v;
    }

}
