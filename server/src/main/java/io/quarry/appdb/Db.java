package io.quarry.appdb;

import java.util.function.Function;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;

/**
 * Runs work against the application database. A {@link SqlSession} is not thread-safe, so each call opens one, hands it
 * to the work, commits (or rolls back on any exception) and closes it. Services never keep sessions or mappers.
 */
public final class Db {
    private final SqlSessionFactory factory;
    private final AppDatabaseStatus status;
    private final CacheRevision cacheRevision;

    public Db(SqlSessionFactory factory) {
        this(factory, new AppDatabaseStatus());
    }

    public Db(SqlSessionFactory factory, AppDatabaseStatus status) {
        this(factory, status, null);
    }

    /** {@code cacheRevision}: the revision {@link #cache caches} are checked against; null: nothing is cached. */
    public Db(SqlSessionFactory factory, AppDatabaseStatus status, CacheRevision cacheRevision) {
        this.factory = factory;
        this.status = status;
        this.cacheRevision = cacheRevision;
        if (cacheRevision != null) {
            cacheRevision.readFrom(this);
        }
    }

    /**
     * A cache of values read through this database, valid until a transaction changes cached data (on any instance
     * sharing the database; see {@link CacheRevision}).
     */
    public <K, V> RevisionCache<K, V> cache(int maxEntries) {
        return new RevisionCache<>(cacheRevision, maxEntries);
    }

    /**
     * Declares a mapper statement a write of data no cache holds, frequent enough that counting it as a change would
     * empty every cache all the time (see {@link CacheRevision#writesNothingCached}).
     */
    public void writesNothingCached(Class<?> mapper, String... methods) {
        if (cacheRevision != null) {
            for (String method : methods) {
                cacheRevision.writesNothingCached(mapper, method);
            }
        }
    }

    /** Runs {@code work} in one transaction and returns its result. */
    public <T> T tx(Function<SqlSession, T> work) {
        try (SqlSession session = factory.openSession(false)) {
            T result = work.apply(session);
            session.commit(true);
            status.answered();
            return result;
        } catch (RuntimeException e) {
            throw unavailableOr(e);
        }
    }

    /**
     * A failure to reach the application database becomes {@link AppDatabaseUnavailable} (a 503, logged once per
     * outage); anything else is rethrown as it is. Only failures that went through MyBatis count: work may also talk
     * to a connected database, whose outage is not the application database's.
     */
    private RuntimeException unavailableOr(RuntimeException e) {
        if (e instanceof AppDatabaseUnavailable) {
            return e;
        }
        if (throughMyBatis(e) && AppDatabaseStatus.isConnectionFailure(e)) {
            status.failed(e);
            return new AppDatabaseUnavailable(e);
        }
        return e;
    }

    private static boolean throughMyBatis(Throwable e) {
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof org.apache.ibatis.exceptions.PersistenceException) {
                return true;
            }
        }
        return false;
    }

    /** Runs {@code work} in one transaction. */
    public void run(java.util.function.Consumer<SqlSession> work) {
        tx(session -> {
            work.accept(session);
            return null;
        });
    }

    /**
     * Runs {@code work} in one transaction on MyBatis' BATCH executor: updates and inserts are sent to the database in
     * JDBC batches (at {@code session.flushStatements()}, a select, or the commit) instead of one round trip each.
     * Generated keys are assigned when the batch is flushed.
     */
    public <T> T batch(Function<SqlSession, T> work) {
        try (SqlSession session = factory.openSession(org.apache.ibatis.session.ExecutorType.BATCH, false)) {
            T result = work.apply(session);
            session.commit(true);
            status.answered();
            return result;
        } catch (RuntimeException e) {
            throw unavailableOr(e);
        }
    }

    /** Convenience for a single mapper call. */
    public <M, T> T with(Class<M> mapper, Function<M, T> work) {
        return tx(session -> work.apply(session.getMapper(mapper)));
    }
}
