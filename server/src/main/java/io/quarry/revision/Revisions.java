package io.quarry.revision;

import io.quarry.appdb.Db;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.ibatis.session.SqlSession;

/**
 * Revision history shared by cards ({@code Card}), dashboards ({@code Dashboard}) and segments ({@code Segment}).
 * Each change stores the whole object after it, in the same transaction as the change itself. Like Metabase, only the
 * newest {@link #MAX_REVISIONS} revisions of an entity are kept.
 */
public final class Revisions {
    public static final String CARD = "Card";
    public static final String DASHBOARD = "Dashboard";
    public static final String SEGMENT = "Segment";
    public static final int MAX_REVISIONS = 15;

    private final Db db;
    private final Clock clock;
    /** By API entity name ({@code card}, {@code dashboard}). */
    private final Map<String, Revertible> revertibles = new ConcurrentHashMap<>();

    public Revisions(Db db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    /** Makes an entity kind reachable through {@code /api/revision?entity=<entity>}. */
    public void register(String entity, Revertible revertible) {
        revertibles.put(entity, revertible);
    }

    /**
     * {@code GET /api/revision}: the history of a registered entity kind (404 for a kind not registered), newest
     * first, once the caller may read the entity.
     */
    public List<Map<String, Object>> readableHistory(Caller caller, String entity, long id) {
        Revertible revertible = registered(entity);
        revertible.requireRead(caller, id);
        return db.tx(session -> details(session, revertible.model(), id));
    }

    /**
     * {@code POST /api/revision/revert}: puts the stored object of the entity's revision back and records a reversion,
     * in one transaction; answers that reversion. 404 for an unknown revision or one of another entity.
     */
    public Map<String, Object> revert(Caller caller, String entity, long id, long revisionId) {
        Revertible revertible = registered(entity);
        return db.tx(session -> {
            Revision target = find(session, revisionId);
            Revision previous = history(session, revertible.model(), id).stream().findFirst().orElse(null);
            revertible.requireRead(caller, id);
            Checks.found(target != null && target.model.equals(revertible.model()) && target.modelId == id ? target : null);
            Map<String, Object> object = revertible.revert(session, caller, id, target.object);
            Revision reversion = record(session, revertible.model(), id, caller.id(), object, null, false, true);
            return detail(session, revertible.model(), reversion, previous);
        });
    }

    private Revertible registered(String entity) {
        Revertible revertible = revertibles.get(entity);
        if (revertible == null) {
            throw ApiException.notFound();
        }
        return revertible;
    }

    /** Records {@code object} as the newest revision of {@code model} {@code id}, inside the caller's transaction. */
    public Revision record(SqlSession session, String model, long id, long userId, Map<String, Object> object,
            String message, boolean creation, boolean reversion) {
        RevisionMapper mapper = session.getMapper(RevisionMapper.class);
        mapper.clearMostRecent(model, id);
        Revision revision = new Revision();
        revision.model = model;
        revision.modelId = id;
        revision.userId = userId;
        revision.object = object;
        revision.message = message;
        revision.isCreation = creation;
        revision.isReversion = reversion;
        revision.mostRecent = true;
        revision.createdAt = OffsetDateTime.now(clock);
        mapper.insertRevision(revision);
        mapper.pruneRevisions(model, id, MAX_REVISIONS);
        return revision;
    }

    /**
     * As {@link #record}, but only when {@code object} differs from the newest stored revision (Metabase records no
     * revision for a save that changed nothing). Returns null when nothing was recorded.
     */
    public Revision recordIfChanged(SqlSession session, String model, long id, long userId, Map<String, Object> object,
            String message) {
        List<Revision> history = history(session, model, id);
        if (!history.isEmpty() && sameJson(history.get(0).object, object)) {
            return null;
        }
        return record(session, model, id, userId, object, message, false, false);
    }

    /** Equal as JSON text, whatever Java number types the two sides hold. */
    static boolean sameJson(Object a, Object b) {
        try {
            return Objects.equals(Json.read(Json.write(a)), Json.read(Json.write(b)));
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** Newest first. */
    public List<Revision> history(SqlSession session, String model, long id) {
        return session.getMapper(RevisionMapper.class).revisionsOf(model, id);
    }

    public Revision find(SqlSession session, long revisionId) {
        return session.getMapper(RevisionMapper.class).findRevision(revisionId);
    }

    /** Forgets an entity's history (when the entity itself is deleted). */
    public void deleteHistory(SqlSession session, String model, long id) {
        session.getMapper(RevisionMapper.class).deleteRevisionsOf(model, id);
    }

    /** The history of an entity as {@code GET /api/revision} answers it, newest first. */
    public List<Map<String, Object>> details(SqlSession session, String model, long id) {
        List<Revision> history = history(session, model, id);
        List<Map<String, Object>> out = new ArrayList<>();
        Map<Long, RevisionUser> authors = new HashMap<>();
        for (int i = 0; i < history.size(); i++) {
            out.add(detail(session, model, history.get(i), i + 1 < history.size() ? history.get(i + 1) : null, authors));
        }
        return out;
    }

    /** One revision with its diff against {@code previous}, description and author. */
    public Map<String, Object> detail(SqlSession session, String model, Revision revision, Revision previous) {
        return detail(session, model, revision, previous, new HashMap<>());
    }

    /** {@code authors}: users already read in this request, so a history reads each author once. */
    private Map<String, Object> detail(SqlSession session, String model, Revision revision, Revision previous,
                                       Map<Long, RevisionUser> authors) {
        RevisionMapper mapper = session.getMapper(RevisionMapper.class);
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", revision.id);
        view.put("is_reversion", revision.isReversion);
        view.put("is_creation", revision.isCreation);
        view.put("message", revision.message);
        view.put("most_recent", revision.mostRecent);
        view.put("metabase_version", "v0.63.0");
        view.put("timestamp", revision.createdAt);
        view.put("diff", previous == null ? null : RevisionDiff.diffMap(previous.object, revision.object));
        List<String> changes;
        if (revision.isCreation) {
            changes = List.of("created this");
        } else if (revision.isReversion) {
            changes = List.of("reverted to an earlier version");
        } else if (previous == null) {
            changes = List.of("modified this");
        } else {
            changes = RevisionDiff.describe(model, previous.object, revision.object, mapper::collectionName);
        }
        view.put("description", changes.isEmpty() ? "created a revision with no change." : RevisionDiff.sentence(changes));
        view.put("has_multiple_changes", changes.size() > 1);
        RevisionUser user = revision.userId == null ? null : authors.computeIfAbsent(revision.userId, mapper::findRevisionUser);
        view.put("user", user == null ? new LinkedHashMap<>() : user.summary().author());
        return view;
    }
}
