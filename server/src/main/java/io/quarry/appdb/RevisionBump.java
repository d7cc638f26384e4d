package io.quarry.appdb;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.ibatis.executor.Executor;
import org.apache.ibatis.mapping.MappedStatement;
import org.apache.ibatis.plugin.Interceptor;
import org.apache.ibatis.plugin.Intercepts;
import org.apache.ibatis.plugin.Invocation;
import org.apache.ibatis.plugin.Plugin;
import org.apache.ibatis.plugin.Signature;
import org.apache.ibatis.session.Configuration;

/**
 * Bumps the {@link CacheRevision} counter in every transaction that wrote, as it commits (the row is locked only for
 * the commit, not for a long transaction's duration), then tells this instance's {@link CacheRevision}. Every write
 * counts — a cache can then never miss a change, whichever mapper made it — except the statements their modules
 * declare {@link CacheRevision#writesNothingCached uncached}: writes of what no cache holds that run on every query
 * (views, cached results).
 */
@Intercepts({
    @Signature(type = Executor.class, method = "update", args = {MappedStatement.class, Object.class}),
    @Signature(type = Executor.class, method = "commit", args = {boolean.class}),
    @Signature(type = Executor.class, method = "rollback", args = {boolean.class}),
    @Signature(type = Executor.class, method = "close", args = {boolean.class})})
final class RevisionBump implements Interceptor {
    static final String BUMP = CacheRevisionMapper.class.getName() + ".bumpRevision";

    private final Configuration configuration;
    private final CacheRevision revision;
    /** Executors (one per open session) that wrote since their last commit or rollback. */
    private final Set<Executor> wrote = ConcurrentHashMap.newKeySet();

    RevisionBump(Configuration configuration, CacheRevision revision) {
        this.configuration = configuration;
        this.revision = revision;
    }

    /**
     * Wraps executors only. MyBatis offers every statement, parameter and result-set handler it creates to each
     * interceptor, and the default {@code Plugin.wrap} reads this class's {@code @Intercepts} by reflection each time
     * (Class.getMethod, annotation arrays cloned): per statement, for handlers this interceptor never touches. A sync
     * of 20,000 fields spent more allocation there than in its own work.
     */
    @Override
    public Object plugin(Object target) {
        return target instanceof Executor ? Plugin.wrap(target, this) : target;
    }

    @Override
    public Object intercept(Invocation invocation) throws Throwable {
        Executor executor = (Executor) invocation.getTarget();
        switch (invocation.getMethod().getName()) {
            case "update" -> {
                String statement = ((MappedStatement) invocation.getArgs()[0]).getId();
                if (!statement.equals(BUMP) && !revision.uncached(statement)) {
                    wrote.add(executor);
                }
                return invocation.proceed();
            }
            case "commit" -> {
                if (!wrote.contains(executor)) {
                    return invocation.proceed();
                }
                executor.update(configuration.getMappedStatement(BUMP), null);
                Object result = invocation.proceed();
                wrote.remove(executor);
                revision.changed();
                return result;
            }
            default -> {
                // rollback or close: whatever was written is gone
                wrote.remove(executor);
                return invocation.proceed();
            }
        }
    }
}
