package io.quarry.qp.nativeq;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Fills a parsed template in: each tag becomes the SQL its {@link Resolver} gives, with that fragment's bind values
 * collected in order. A tag without a value drops the innermost optional clause around it; outside any optional clause
 * the query cannot run, and every such tag is named at once, as Metabase does ({@code Cannot run the query: missing
 * required parameters: #{"cat"}}). Whether a tag has a value is the resolver's call (a required variable without one
 * fails on its own, a field filter outside a clause becomes {@code 1 = 1}).
 */
public final class Substitution {
    /** SQL with {@code ?} placeholders and the values to bind to them, in order. */
    public record Bound(String sql, List<Object> params) {
    }

    /** What a tag turns into. */
    public interface Resolver {
        /**
         * The SQL for tag {@code name}, or null when the tag has no value (the enclosing optional clause is then
         * dropped; outside one the tag is reported missing). {@code optional} says whether the tag sits inside an
         * optional clause.
         */
        Bound resolve(String name, boolean optional);
    }

    private Substitution() {
    }

    public static Bound apply(List<Template.Part> parts, Resolver resolver) {
        StringBuilder sql = new StringBuilder();
        List<Object> params = new ArrayList<>();
        Set<String> missing = new LinkedHashSet<>();
        append(parts, resolver, false, sql, params, missing);
        if (!missing.isEmpty()) {
            throw TemplateException.missing(missing);
        }
        return new Bound(sql.toString(), params);
    }

    /** Appends the parts; false when a tag inside an optional clause had no value (outside one it goes to missing). */
    private static boolean append(List<Template.Part> parts, Resolver resolver, boolean optional, StringBuilder sql,
                                  List<Object> params, Set<String> missing) {
        for (Template.Part part : parts) {
            if (part instanceof Template.Text text) {
                sql.append(text.sql());
            } else if (part instanceof Template.Tag tag) {
                Bound bound = resolver.resolve(tag.name(), optional);
                if (bound == null) {
                    if (!optional) {
                        missing.add(tag.name());
                        continue;
                    }
                    return false;
                }
                sql.append(bound.sql());
                params.addAll(bound.params());
            } else if (part instanceof Template.Optional clause) {
                StringBuilder clauseSql = new StringBuilder();
                List<Object> clauseParams = new ArrayList<>();
                if (append(clause.parts(), resolver, true, clauseSql, clauseParams, missing)) {
                    sql.append(clauseSql);
                    params.addAll(clauseParams);
                }
            }
        }
        return true;
    }
}
