package io.quarry.revision;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.apache.ibatis.session.SqlSession;

/**
 * Revision history shared by cards ({@code Card}), dashboards ({@code Dashboard}) and segments ({@code Segment}).
 * Each change stores the whole object after it, in the same transaction as the change itself.
 */
public final class Revisions {
    public static final String CARD = "Card";
    public static final String DASHBOARD = "Dashboard";
    public static final String SEGMENT = "Segment";

    private final Clock clock;

    public Revisions(Clock clock) {
        this.clock = clock;
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
        return revision;
    }

    /** Newest first. */
    public List<Revision> history(SqlSession session, String model, long id) {
        return session.getMapper(RevisionMapper.class).revisionsOf(model, id);
    }

    public Revision find(SqlSession session, long revisionId) {
        return session.getMapper(RevisionMapper.class).findRevision(revisionId);
    }
}
