package io.quarry.revision;

import io.quarry.core.Caller;
import java.util.Map;
import org.apache.ibatis.session.SqlSession;

/**
 * What {@code /api/revision} needs from an entity kind that keeps a history (cards, dashboards): rights, and putting
 * a stored object back. Each kind registers itself with {@link Revisions#register}.
 */
public interface Revertible {
    /** The revision model name ({@code Card}, {@code Dashboard}). */
    String model();

    /** 404 when the entity does not exist, 403 unless the caller may read it. */
    void requireRead(Caller caller, long id);

    /**
     * Restores the entity to {@code object} (a stored revision) inside {@code session}: 404 when missing, 403 unless the
     * caller may write it as it is now and as it would be. Returns the object as stored after the change.
     */
    Map<String, Object> revert(SqlSession session, Caller caller, long id, Map<String, Object> object);
}
