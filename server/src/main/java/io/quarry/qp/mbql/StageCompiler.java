package io.quarry.qp.mbql;

import static io.quarry.qp.mbql.Clauses.cast;
import static io.quarry.qp.mbql.Clauses.invalid;
import static io.quarry.qp.mbql.Clauses.list;
import static io.quarry.qp.mbql.Clauses.number;
import static io.quarry.qp.mbql.Clauses.ref;

import io.quarry.driver.Feature;
import io.quarry.driver.Sql;
import io.quarry.driver.SqlDialect;
import io.quarry.qp.mbql.AggregationCompiler.Agg;
import io.quarry.qp.mbql.StageScope.Grouping;
import io.quarry.qp.mbql.StageScope.Implicit;
import io.quarry.qp.mbql.StageScope.Join;
import io.quarry.qp.mbql.StageScope.Nest;
import io.quarry.qp.mbql.StageScope.OrderEntry;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Compiles one stage of a legacy inner query (and, recursively, its source query and joined queries) to SQL for one
 * dialect. Identifiers come only from Quarry's metadata or the query's own aliases, always quoted by the dialect;
 * every value a client sent is a bind parameter.
 *
 * <p>A grouped stage whose breakouts carry parameters (an expression with a text literal, say) is compiled as two
 * nested SELECTs: the inner one computes the breakouts and the columns the aggregations read, the outer one groups by
 * the computed columns, because engines cannot match {@code GROUP BY} expressions whose parameters differ.
 */
final class StageCompiler {
    static final String SOURCE = "source";

    /** A compiled stage; {@code columns} is null when they are unknown (a native source selected with {@code *}). */
    record Stage(Sql sql, List<OutColumn> columns, boolean aggregated) {
    }

    private final MbqlCompiler.Context ctx;
    private final SqlDialect d;
    private final int depth;
    /** The stage as written, then as the stage passes left it. */
    private Map<String, Object> q;

    StageCompiler(MbqlCompiler.Context ctx, Map<String, Object> query, int depth) {
        this.ctx = ctx;
        this.d = ctx.dialect();
        this.q = query;
        this.depth = depth;
    }

    /**
     * The stage's SQL. Its scope is built first — source, expressions, joins one by one (each join's condition sees
     * the joins before it and itself), then the implicit joins the clauses need — and the compilers only read it.
     */
    Stage compile() {
        q = MbqlPasses.run(MbqlPasses.STAGE, q, new MbqlPass.Input(ctx, List.of(), depth));
        if (q.get("native") != null) {
            return NativeSource.stage(q, d);
        }
        StageScope scope = sourceScope();
        if (q.get("expressions") instanceof Map<?, ?> map) {
            Map<String, Object> named = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                named.put(String.valueOf(e.getKey()), e.getValue());
            }
            scope = scope.withExpressions(named);
        } else if (q.get("expressions") != null) {
            throw invalid("\"expressions\" must be an object of name to expression.");
        }
        ImplicitJoins implicitJoins = new ImplicitJoins();
        List<Sql> conditions = new ArrayList<>();
        List<?> joinList = list(q.get("joins"), "joins");
        for (int i = 0; i < joinList.size(); i++) {
            Join join = join(scope, joinList.get(i), i);
            scope = implicitJoins.collect(scope.withJoin(join), List.of(join.condition()));
            conditions.add(scope.filterCompiler.filter(join.condition()));
        }
        scope = implicitJoins.collect(scope, ImplicitJoins.clausesAfterJoins(q, scope));
        Sql where = q.get("filter") == null ? null : scope.filterCompiler.filter(q.get("filter"));
        List<?> breakouts = list(q.get("breakout"), "breakout");
        List<?> aggregations = list(q.get("aggregation"), "aggregation");
        if (!breakouts.isEmpty() || !aggregations.isEmpty()) {
            return grouped(scope, conditions, where, breakouts, aggregations);
        }
        return plain(scope, conditions, where);
    }

    private StageScope sourceScope() {
        Object sourceTable = q.get("source-table");
        Object sourceQuery = q.get("source-query");
        if (sourceTable != null && sourceQuery != null) {
            throw invalid("A query has either a \"source-table\" or a \"source-query\", not both.");
        }
        if (sourceQuery instanceof Map<?, ?> sq) {
            return StageScope.ofSource(ctx, sourceStage(cast(sq)));
        } else if (sourceTable != null) {
            return StageScope.ofTable(ctx, StageScope.requireTable(ctx, sourceTable));
        } else {
            throw invalid("A structured query needs a \"source-table\" or a \"source-query\".");
        }
    }

    /**
     * A source query (of the stage or of a join) compiled one level deeper. A persisted model's is read from its table
     * instead: the model's query is still compiled, for its columns, and its table is used only when the table has
     * exactly those columns (the aliases the refresh built it with, in order); a native model's columns are the
     * table's own, as they were its query's.
     */
    private Stage sourceStage(Map<String, Object> sourceQuery) {
        if (!(sourceQuery.get(ResolveSourceCardsPass.PERSISTED_TABLE) instanceof MbqlReferences.PersistedTable persisted)) {
            return new StageCompiler(ctx, sourceQuery, depth + 1).compile();
        }
        Map<String, Object> query = new LinkedHashMap<>(sourceQuery);
        query.remove(ResolveSourceCardsPass.PERSISTED_TABLE);
        String table = d.qualify(persisted.schema(), persisted.table());
        if (query.get("native") != null) {
            return new Stage(Sql.raw("SELECT * FROM " + table), null, false);
        }
        return readingTable(new StageCompiler(ctx, query, depth + 1).compile(), persisted, d);
    }

    /**
     * A persisted model's compiled stage, read from its table instead when the table has exactly the stage's
     * columns (the aliases the refresh built it with, in order); the stage as it is otherwise. The columns (and so
     * the result's metadata) are the stage's either way.
     */
    static Stage readingTable(Stage stage, MbqlReferences.PersistedTable persisted, SqlDialect d) {
        if (stage.columns() == null || !stage.columns().stream().map(c -> c.alias).toList().equals(persisted.columns())) {
            return stage;
        }
        List<String> columns = new ArrayList<>();
        for (OutColumn c : stage.columns()) {
            columns.add(d.quote(c.alias));
        }
        String table = d.qualify(persisted.schema(), persisted.table());
        return new Stage(Sql.raw("SELECT " + String.join(", ", columns) + " FROM " + table), stage.columns(), stage.aggregated());
    }

    /** A join of the stage, its condition not compiled yet; {@code scope} has the joins before it. */
    private Join join(StageScope scope, Object spec, int index) {
        if (!(spec instanceof Map<?, ?> j)) {
            throw invalid("Every join must be an object.");
        }
        String strategy = j.get("strategy") == null ? "left-join" : String.valueOf(j.get("strategy"));
        String keyword = switch (strategy) {
            case "left-join" -> "LEFT JOIN";
            case "right-join" -> {
                if (!d.supports(Feature.RIGHT_JOIN)) {
                    throw invalid("RIGHT JOIN is not supported by this database.");
                }
                yield "RIGHT JOIN";
            }
            case "inner-join" -> "INNER JOIN";
            case "full-join" -> {
                if (!d.supports(Feature.FULL_JOIN)) {
                    throw invalid("FULL JOIN is not supported by this database.");
                }
                yield "FULL JOIN";
            }
            default -> throw invalid("Unknown join strategy \"" + strategy + "\": use left-join, right-join, inner-join or full-join.");
        };
        Object sourceTable = j.get("source-table");
        Object sourceQuery = j.get("source-query");
        Table joined = null;
        String joinedSql = null;
        Stage query = null;
        if (sourceQuery instanceof Map<?, ?> sq) {
            query = sourceStage(cast(sq));
        } else if (sourceTable != null) {
            joined = StageScope.requireTable(ctx, sourceTable);
            joinedSql = d.qualify(joined.schemaName, joined.name);
        } else {
            throw invalid("A join needs a \"source-table\" or a \"source-query\".");
        }
        String alias = j.get("alias") instanceof String a && !a.isBlank() ? a
                : joined != null ? joined.displayName == null ? joined.name : joined.displayName : "__join_" + index;
        if (scope.joins.containsKey(alias)) {
            throw invalid("Two joins have the alias \"" + alias + "\".");
        }
        Object fields = j.get("fields") == null ? "none" : j.get("fields");
        if (j.get("condition") == null) {
            throw invalid("The join \"" + alias + "\" needs a \"condition\".");
        }
        return new Join(alias, keyword, joined, joinedSql, query, fields, j.get("condition"));
    }

    private Stage plain(StageScope scope, List<Sql> conditions, Sql where) {
        List<Col> cols = new ArrayList<>();
        boolean unknownColumns = false;
        if (q.get("fields") != null) {
            for (Object ref : list(q.get("fields"), "fields")) {
                cols.add(scope.columnCompiler.column(ref));
            }
        } else if (scope.table != null) {
            for (Field f : scope.visibleFields(scope.table.id)) {
                cols.add(scope.columnCompiler.tableColumn(f));
            }
            for (String name : scope.expressions.keySet()) {
                cols.add(scope.columnCompiler.expressionColumn(name, Map.of()));
            }
        } else if (scope.source.columns() != null) {
            for (OutColumn c : scope.source.columns()) {
                cols.add(scope.columnCompiler.upstreamColumn(c, SOURCE, null, passThroughRef(c)));
            }
            for (String name : scope.expressions.keySet()) {
                cols.add(scope.columnCompiler.expressionColumn(name, Map.of()));
            }
        } else {
            unknownColumns = true;
            for (String name : scope.expressions.keySet()) {
                cols.add(scope.columnCompiler.expressionColumn(name, Map.of()));
            }
        }
        for (Join j : scope.joins.values()) {
            for (Col c : joinFields(scope, j)) {
                if (cols.stream().noneMatch(existing -> Objects.equals(existing.fieldRef, c.fieldRef))) {
                    cols.add(c);
                }
            }
        }
        Names aliases = new Names(d.maxIdentifierLength());
        Names names = new Names(Integer.MAX_VALUE);
        List<Sql> items = new ArrayList<>();
        List<OutColumn> out = new ArrayList<>();
        if (unknownColumns) {
            items.add(Sql.raw(d.quote(SOURCE) + ".*"));
        }
        for (Col c : cols) {
            OutColumn o = c.toOut("fields");
            o.alias = aliases.unique(c.alias);
            o.name = names.unique(c.name);
            items.add(Sql.format("%s AS " + d.quote(o.alias), c.sql));
            out.add(o);
        }
        List<Sql> orderBy = new ArrayList<>();
        for (Object clause : list(q.get("order-by"), "order-by")) {
            Object[] dirRef = orderClause(clause);
            if (dirRef[1] instanceof List<?> ref && "aggregation".equals(Clauses.operator(ref))) {
                throw invalid("An order-by on an aggregation needs an aggregation in the query.");
            }
            orderBy.add(Sql.format("%s " + dirRef[0], scope.expressionCompiler.expr(dirRef[1]).sql()));
        }
        Sql sql = Sql.format("SELECT %s FROM %s", Sql.join(", ", items), from(scope, conditions));
        if (where != null) {
            sql = sql.append(Sql.format(" WHERE %s", where));
        }
        if (!orderBy.isEmpty()) {
            sql = sql.append(Sql.format(" ORDER BY %s", Sql.join(", ", orderBy)));
        }
        sql = appendLimit(sql);
        return new Stage(sql, unknownColumns ? null : out, false);
    }

    /** How a later stage refers to a column of its source: by field id when it shows a field, else by name. */
    private static List<Object> passThroughRef(OutColumn c) {
        if (c.field != null && "fields".equals(c.source) && c.fieldRef != null && c.fieldRef.size() > 1
                && c.fieldRef.get(1) instanceof Number) {
            return c.fieldRef;
        }
        Map<String, Object> opts = new LinkedHashMap<>();
        opts.put("base-type", c.baseType);
        return ref("field", c.alias, opts);
    }

    private static List<Col> joinFields(StageScope scope, Join j) {
        List<Col> cols = new ArrayList<>();
        Object fields = j.fields();
        if ("all".equals(fields)) {
            if (j.table() != null) {
                for (Field f : scope.visibleFields(j.table().id)) {
                    cols.add(scope.columnCompiler.joinColumn(j, f.id, Map.of()));
                }
            } else if (j.query().columns() != null) {
                for (OutColumn c : j.query().columns()) {
                    cols.add(scope.columnCompiler.joinColumn(j, c.alias, Map.of()));
                }
            } else {
                throw invalid("The fields of the join \"" + j.alias() + "\" are unknown: list them.");
            }
        } else if (fields instanceof List<?> refs) {
            for (Object ref : refs) {
                cols.add(scope.columnCompiler.column(ref));
            }
        } else if (!"none".equals(fields)) {
            throw invalid("A join's \"fields\" must be \"all\", \"none\" or a list of fields.");
        }
        return cols;
    }

    private Stage grouped(StageScope scope, List<Sql> conditions, Sql where, List<?> breakouts, List<?> aggregations) {
        List<Col> bcols = new ArrayList<>();
        for (Object b : breakouts) {
            bcols.add(scope.columnCompiler.column(b));
        }
        // Nested when engines could not match the GROUP BY: breakouts with parameters, or window functions over them.
        boolean nested = bcols.stream().anyMatch(c -> c.sql.hasParams())
                || (!bcols.isEmpty() && AggregationCompiler.hasCumulative(aggregations));
        Nest nest = nested ? new Nest(d, bcols.stream().map(c -> c.sql).toList()) : null;
        List<Sql> refs = new ArrayList<>();
        for (int i = 0; i < bcols.size(); i++) {
            refs.add(nested ? nest.breakout(i) : bcols.get(i).sql);
        }
        // The outer part of a nested stage reads the inner SELECT's columns, which the nest collects as it goes.
        StageScope outer = nested ? scope.nested(nest) : scope;
        List<OrderEntry> entries = groupedOrder(outer.withGrouping(new Grouping(refs, bcols, List.of())), bcols, refs,
                aggregations.size());
        outer = outer.withGrouping(new Grouping(refs, bcols, entries));

        List<Agg> aggs = new ArrayList<>();
        for (int i = 0; i < aggregations.size(); i++) {
            aggs.add(outer.aggregationCompiler.aggregation(aggregations.get(i), i));
        }

        Names aliases = new Names(d.maxIdentifierLength());
        Names names = new Names(Integer.MAX_VALUE);
        List<Sql> items = new ArrayList<>();
        List<OutColumn> out = new ArrayList<>();
        for (int i = 0; i < bcols.size(); i++) {
            Col c = bcols.get(i);
            OutColumn o = c.toOut("breakout");
            o.alias = aliases.unique(c.alias);
            o.name = names.unique(c.name);
            items.add(Sql.format("%s AS " + d.quote(o.alias), refs.get(i)));
            out.add(o);
        }
        List<String> aggAliases = new ArrayList<>();
        for (int i = 0; i < aggs.size(); i++) {
            Agg a = aggs.get(i);
            OutColumn o = new OutColumn();
            o.alias = aliases.unique(a.name());
            o.name = names.unique(a.name());
            o.displayName = a.displayName();
            o.baseType = a.baseType();
            o.effectiveType = a.baseType();
            o.semanticType = a.semanticType();
            o.fieldRef = ref("aggregation", i);
            o.source = "aggregation";
            items.add(Sql.format("%s AS " + d.quote(o.alias), a.sql()));
            aggAliases.add(o.alias);
            out.add(o);
        }
        List<Sql> orderBy = new ArrayList<>();
        for (OrderEntry e : entries) {
            Sql target = e.aggregation() >= 0 ? Sql.raw(d.quote(aggAliases.get(e.aggregation()))) : e.sql();
            orderBy.add(Sql.format("%s " + e.direction(), target));
        }

        Sql sql;
        if (nested) {
            Sql inner = Sql.format("SELECT %s FROM %s", Sql.join(", ", nest.items()), from(scope, conditions));
            if (where != null) {
                inner = inner.append(Sql.format(" WHERE %s", where));
            }
            sql = Sql.format("SELECT %s FROM (%s) AS " + d.quote(SOURCE), Sql.join(", ", items), inner);
        } else {
            sql = Sql.format("SELECT %s FROM %s", Sql.join(", ", items), from(scope, conditions));
            if (where != null) {
                sql = sql.append(Sql.format(" WHERE %s", where));
            }
        }
        if (!refs.isEmpty()) {
            sql = sql.append(Sql.format(" GROUP BY %s", Sql.join(", ", refs)));
        }
        if (!orderBy.isEmpty()) {
            sql = sql.append(Sql.format(" ORDER BY %s", Sql.join(", ", orderBy)));
        }
        sql = appendLimit(sql);
        return new Stage(sql, out, !aggregations.isEmpty());
    }

    /**
     * The order of a grouped stage: breakouts by their reference, aggregations by alias (filled in by the caller), then
     * the implicit ascending order of every breakout not ordered yet, as Metabase adds it.
     */
    private List<OrderEntry> groupedOrder(StageScope scope, List<Col> bcols, List<Sql> refs, int aggregationCount) {
        List<OrderEntry> entries = new ArrayList<>();
        Set<Integer> ordered = new HashSet<>();
        for (Object clause : list(q.get("order-by"), "order-by")) {
            Object[] dirRef = orderClause(clause);
            String dir = (String) dirRef[0];
            if (dirRef[1] instanceof List<?> ref && "aggregation".equals(Clauses.operator(ref))) {
                int index = aggregationIndex(ref, aggregationCount);
                entries.add(new OrderEntry(null, dir, -1, index));
                continue;
            }
            Sql direct = scope.unnested().expressionCompiler.expr(dirRef[1]).sql();
            int match = -1;
            for (int i = 0; i < bcols.size(); i++) {
                if (bcols.get(i).sql.equals(direct)) {
                    match = i;
                    break;
                }
            }
            if (match >= 0) {
                if (ordered.add(match)) {
                    entries.add(new OrderEntry(refs.get(match), dir, match, -1));
                }
            } else {
                entries.add(new OrderEntry(scope.nest == null ? direct : scope.expressionCompiler.expr(dirRef[1]).sql(), dir, -1, -1));
            }
        }
        for (int i = 0; i < bcols.size(); i++) {
            if (!ordered.contains(i)) {
                entries.add(new OrderEntry(refs.get(i), "ASC", i, -1));
            }
        }
        return entries;
    }

    private static int aggregationIndex(List<?> ref, int count) {
        Object index = ref.size() > 1 ? ref.get(1) : null;
        if (!(index instanceof Number n) || n.intValue() < 0 || n.intValue() >= count) {
            throw invalid("No aggregation at index " + index + ".");
        }
        return n.intValue();
    }

    /** {@code [direction, ref]} of an order-by clause, the direction as SQL. */
    private static Object[] orderClause(Object clause) {
        if (clause instanceof List<?> l && l.size() == 2 && ("asc".equals(l.get(0)) || "desc".equals(l.get(0)))) {
            return new Object[]{"asc".equals(l.get(0)) ? "ASC" : "DESC", l.get(1)};
        }
        throw invalid("An order-by clause looks like [\"asc\", <field>] or [\"desc\", <field>].");
    }

    private Sql appendLimit(Sql sql) {
        Long limit = null;
        long offset = 0;
        if (q.get("limit") != null) {
            limit = nonNegative(q.get("limit"), "limit");
        }
        if (q.get("page") != null) {
            if (!(q.get("page") instanceof Map<?, ?> page)) {
                throw invalid("\"page\" must be {\"page\": n, \"items\": m}.");
            }
            long items = nonNegative(page.get("items"), "page items");
            long number = nonNegative(page.get("page"), "page number");
            if (number < 1) {
                throw invalid("Pages are numbered from 1.");
            }
            offset = items * (number - 1);
            limit = limit == null ? items : Math.min(limit, items);
        }
        String clause = d.limitOffset(limit, offset);
        return clause.isEmpty() ? sql : sql.append(" " + clause);
    }

    private static long nonNegative(Object value, String what) {
        if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && n.longValue() >= 0) {
            return n.longValue();
        }
        throw invalid("The " + what + " must be a whole number, 0 or more.");
    }

    /** The FROM clause: the table or source query, the joins with their compiled {@code conditions}, the implicit joins. */
    private Sql from(StageScope scope, List<Sql> conditions) {
        Sql from = scope.table != null ? Sql.raw(scope.tableSql) : Sql.format("(%s) AS " + d.quote(SOURCE), scope.source.sql());
        int index = 0;
        for (Join j : scope.joins.values()) {
            Sql target = j.table() != null ? Sql.raw(j.tableSql()) : Sql.format("(%s)", j.query().sql());
            from = from.append(Sql.format(" " + j.keyword() + " %s AS " + d.quote(j.alias()) + " ON %s", target,
                    conditions.get(index++)));
        }
        for (Implicit i : scope.implicitJoins.values()) {
            String target = d.qualify(i.target().schemaName, i.target().name);
            from = from.append(Sql.format(" LEFT JOIN " + target + " AS " + d.quote(i.alias()) + " ON %s = "
                    + d.quote(i.alias()) + "." + d.quote(i.pk().name), i.fk()));
        }
        return from;
    }
}
