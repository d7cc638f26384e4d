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

    public Db(SqlSessionFactory factory) {
        this.factory = factory;
    }

    /** Runs {@code work} in one transaction and returns its result. */
    public <T> T tx(Function<SqlSession, T> work) {
        try (SqlSession session = factory.openSession(false)) {
            T result = work.apply(session);
            session.commit(true);
            return result;
        }
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
            return result;
        }
    }

    /** Convenience for a single mapper call. */
    public <M, T> T with(Class<M> mapper, Function<M, T> work) {
        return tx(session -> work.apply(session.getMapper(mapper)));
    }
}
