package io.quarry.qp.nativeq;

import java.util.ArrayList;
import java.util.List;

/**
 * Fills a parsed template in: each tag becomes the SQL its {@link Resolver} gives, with that fragment's bind values
 * collected in order. A tag without a value drops the innermost optional clause around it; outside any optional clause
 * it is the resolver's call (a required variable fails, a field filter becomes {@code 1 = 1}).
 */
public final class Substitution {
    /** SQL with {@code ?} placeholders and the values to bind to them, in order. */
    public record Bound(String sql, List<Object> params) {
    }

    /** What a tag turns into. */
    public interface Resolver {
        /**
         * The SQL for tag {@code name}, or null when the tag has no value (the enclosing optional clause is then
         * dropped). {@code optional} says whether the tag sits inside an optional clause: outside one, a resolver
         * must either produce SQL or throw a {@link TemplateException}.
         */
        Bound resolve(String name, boolean optional);
    }

    private Substitution() {
    }

    public static Bound apply(List<Template.Part> parts, Resolver resolver) {
        StringBuilder sql = new StringBuilder();
        List<Object> params = new ArrayList<>();
        if (!append(parts, resolver, false, sql, params)) {
            throw new IllegalStateException("A top-level tag without a value must be handled by the resolver");
        }
        return new Bound(sql.toString(), params);
    }

    /** Appends the parts; false when a tag had no value (only possible inside an optional clause). */
    private static boolean append(List<Template.Part> parts, Resolver resolver, boolean optional, StringBuilder sql,
                                  List<Object> params) {
        for (Template.Part part : parts) {
            if (part instanceof Template.Text text) {
                sql.append(text.sql());
            } else if (part instanceof Template.Tag tag) {
                Bound bound = resolver.resolve(tag.name(), optional);
                if (bound == null) {
                    if (!optional) {
                        throw new TemplateException("You'll need to pick a value for '" + tag.name() + "' before this query can run.");
                    }
                    return false;
                }
                sql.append(bound.sql());
                params.addAll(bound.params());
            } else if (part instanceof Template.Optional clause) {
                StringBuilder clauseSql = new StringBuilder();
                List<Object> clauseParams = new ArrayList<>();
                if (append(clause.parts(), resolver, true, clauseSql, clauseParams)) {
                    sql.append(clauseSql);
                    params.addAll(clauseParams);
                }
            }
        }
        return true;
    }
}
