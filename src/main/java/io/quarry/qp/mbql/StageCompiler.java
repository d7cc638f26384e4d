package io.quarry.qp.mbql;

import io.quarry.qp.H2Guard;
import io.quarry.qp.QueryFailure;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

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
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    static final Set<String> AGGREGATIONS = Set.of("count", "cum-count", "sum", "cum-sum", "avg", "distinct", "min", "max",
            "stddev", "var", "median", "percentile", "share", "count-where", "sum-where", "distinct-where", "metric",
            "aggregation-options");
    private static final Set<String> FILTERS = Set.of("and", "or", "not", "=", "!=", "<", ">", "<=", ">=", "between", "inside",
            "is-null", "not-null", "is-empty", "not-empty", "contains", "does-not-contain", "starts-with", "ends-with",
            "time-interval", "relative-time-interval", "during", "segment", "in", "not-in");

    /** A compiled stage; {@code columns} is null when they are unknown (a native source selected with {@code *}). */
    record Stage(Sql sql, List<OutColumn> columns, boolean aggregated) {
    }

    /** An expression compiled to SQL, with its type and, for column references, the column. */
    record Typed(Sql sql, String type, Col col) {
    }

    private record Join(String alias, String keyword, Table table, String tableSql, Stage query, Object fields, Sql[] condition) {
    }

    private record Implicit(String alias, Table target, Field pk, Sql fk) {
    }

    private record OrderEntry(Sql sql, String direction, int breakout, int aggregation) {
    }

    private final MbqlCompiler.Context ctx;
    private final MbqlDialect d;
    private Map<String, Object> q;
    private final int depth;

    private Table table;
    private String tableSql;
    private Stage source;
    private final Map<String, Join> joins = new LinkedHashMap<>();
    private final Map<String, Implicit> implicitJoins = new LinkedHashMap<>();
    private final Map<String, Object> expressions = new LinkedHashMap<>();
    private final Set<String> expanding = new HashSet<>();
    private Nest nest;
    private List<Sql> breakoutRefs = List.of();
    private List<Col> breakoutCols = List.of();
    private List<OrderEntry> order = List.of();

    StageCompiler(MbqlCompiler.Context ctx, Map<String, Object> query, int depth) {
        this.ctx = ctx;
        this.d = ctx.dialect();
        this.q = query;
        this.depth = depth;
    }

    // ------------------------------------------------------------------------------------------------ the stage

    Stage compile() {
        q = MbqlPasses.run(MbqlPasses.STAGE, q, new MbqlPass.Input(ctx, List.of(), depth));
        if (q.get("native") != null) {
            return nativeSource(q);
        }
        resolveSource();
        if (q.get("expressions") instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                expressions.put(String.valueOf(e.getKey()), e.getValue());
            }
        } else if (q.get("expressions") != null) {
            throw invalid("\"expressions\" must be an object of name to expression.");
        }
        List<?> joinList = list(q.get("joins"), "joins");
        for (int i = 0; i < joinList.size(); i++) {
            registerJoin(joinList.get(i), i);
        }
        Sql where = q.get("filter") == null ? null : filter(q.get("filter"));
        List<?> breakouts = list(q.get("breakout"), "breakout");
        List<?> aggregations = list(q.get("aggregation"), "aggregation");
        if (!breakouts.isEmpty() || !aggregations.isEmpty()) {
            return grouped(where, breakouts, aggregations);
        }
        return plain(where);
    }

    private Stage nativeSource(Map<String, Object> query) {
        if (!(query.get("native") instanceof String sql) || sql.isBlank()) {
            throw invalid("A native source query needs its SQL in \"native\".");
        }
        if (query.get("template-tags") instanceof Map<?, ?> tags && !tags.isEmpty()) {
            throw invalid("Native source queries with template tags are not supported yet.");
        }
        String trimmed = sql.strip();
        while (trimmed.endsWith(";")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1).stripTrailing();
        }
        if ("h2".equals(d.engine())) {
            H2Guard.check(trimmed);
        }
        Sql text = query.get("params") instanceof List<?> params && !params.isEmpty()
                ? new SqlWithParams(trimmed, new ArrayList<>(params)).sql() : Sql.raw(trimmed);
        return new Stage(text, null, false);
    }

    /** Native SQL text with its own bound values (a saved native question used as a source). */
    private record SqlWithParams(String text, List<Object> values) {
        Sql sql() {
            Sql out = Sql.raw("");
            int from = 0;
            int used = 0;
            for (int i = 0; i < text.length(); i++) {
                if (text.charAt(i) == '?' && used < values.size()) {
                    out = out.append(text.substring(from, i)).append(Sql.param(values.get(used++)));
                    from = i + 1;
                }
            }
            return out.append(text.substring(from));
        }
    }

    private void resolveSource() {
        Object sourceTable = q.get("source-table");
        Object sourceQuery = q.get("source-query");
        if (sourceTable != null && sourceQuery != null) {
            throw invalid("A query has either a \"source-table\" or a \"source-query\", not both.");
        }
        if (sourceQuery instanceof Map<?, ?> sq) {
            source = new StageCompiler(ctx, cast(sq), depth + 1).compile();
        } else if (sourceTable != null) {
            table = requireTable(sourceTable);
            tableSql = d.qualify(table.schemaName, table.name);
        } else {
            throw invalid("A structured query needs a \"source-table\" or a \"source-query\".");
        }
    }

    private void registerJoin(Object spec, int index) {
        if (!(spec instanceof Map<?, ?> j)) {
            throw invalid("Every join must be an object.");
        }
        String strategy = j.get("strategy") == null ? "left-join" : String.valueOf(j.get("strategy"));
        String keyword = switch (strategy) {
            case "left-join" -> "LEFT JOIN";
            case "right-join" -> {
                if (!d.supportsRightJoin()) {
                    throw invalid("RIGHT JOIN is not supported by this database.");
                }
                yield "RIGHT JOIN";
            }
            case "inner-join" -> "INNER JOIN";
            case "full-join" -> {
                if (!d.supportsFullJoin()) {
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
            query = new StageCompiler(ctx, cast(sq), depth + 1).compile();
        } else if (sourceTable != null) {
            joined = requireTable(sourceTable);
            joinedSql = d.qualify(joined.schemaName, joined.name);
        } else {
            throw invalid("A join needs a \"source-table\" or a \"source-query\".");
        }
        String alias = j.get("alias") instanceof String a && !a.isBlank() ? a
                : joined != null ? joined.displayName == null ? joined.name : joined.displayName : "__join_" + index;
        if (joins.containsKey(alias)) {
            throw invalid("Two joins have the alias \"" + alias + "\".");
        }
        Sql[] condition = new Sql[1];
        Object fields = j.get("fields") == null ? "none" : j.get("fields");
        Join join = new Join(alias, keyword, joined, joinedSql, query, fields, condition);
        joins.put(alias, join);
        if (j.get("condition") == null) {
            throw invalid("The join \"" + alias + "\" needs a \"condition\".");
        }
        condition[0] = filter(j.get("condition"));
    }

    // ------------------------------------------------------------------------------------------------ plain rows

    private Stage plain(Sql where) {
        List<Col> cols = new ArrayList<>();
        boolean unknownColumns = false;
        if (q.get("fields") != null) {
            for (Object ref : list(q.get("fields"), "fields")) {
                cols.add(column(ref));
            }
        } else if (table != null) {
            for (Field f : visibleFields(table.id)) {
                cols.add(tableColumn(f));
            }
            for (String name : expressions.keySet()) {
                cols.add(expressionColumn(name, Map.of()));
            }
        } else if (source.columns() != null) {
            for (OutColumn c : source.columns()) {
                cols.add(upstreamColumn(c, SOURCE, null, passThroughRef(c)));
            }
            for (String name : expressions.keySet()) {
                cols.add(expressionColumn(name, Map.of()));
            }
        } else {
            unknownColumns = true;
            for (String name : expressions.keySet()) {
                cols.add(expressionColumn(name, Map.of()));
            }
        }
        for (Join j : joins.values()) {
            for (Col c : joinFields(j)) {
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
            if (dirRef[1] instanceof List<?> ref && "aggregation".equals(ref.get(0))) {
                throw invalid("An order-by on an aggregation needs an aggregation in the query.");
            }
            orderBy.add(Sql.format("%s " + dirRef[0], expr(dirRef[1]).sql()));
        }
        Sql sql = Sql.format("SELECT %s FROM %s", Sql.join(", ", items), from());
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

    private List<Col> joinFields(Join j) {
        List<Col> cols = new ArrayList<>();
        Object fields = j.fields();
        if ("all".equals(fields)) {
            if (j.table() != null) {
                for (Field f : visibleFields(j.table().id)) {
                    cols.add(joinColumn(j, f.id, Map.of()));
                }
            } else if (j.query().columns() != null) {
                for (OutColumn c : j.query().columns()) {
                    cols.add(joinColumn(j, c.alias, Map.of()));
                }
            } else {
                throw invalid("The fields of the join \"" + j.alias() + "\" are unknown: list them.");
            }
        } else if (fields instanceof List<?> refs) {
            for (Object ref : refs) {
                cols.add(column(ref));
            }
        } else if (!"none".equals(fields)) {
            throw invalid("A join's \"fields\" must be \"all\", \"none\" or a list of fields.");
        }
        return cols;
    }

    // ------------------------------------------------------------------------------------------------ grouped

    private Stage grouped(Sql where, List<?> breakouts, List<?> aggregations) {
        List<Col> bcols = new ArrayList<>();
        for (Object b : breakouts) {
            bcols.add(column(b));
        }
        breakoutCols = bcols;
        // Nested when engines could not match the GROUP BY: breakouts with parameters, or window functions over them.
        boolean nested = bcols.stream().anyMatch(c -> c.sql.hasParams()) || (!bcols.isEmpty() && hasCumulative(aggregations));
        List<Sql> refs = new ArrayList<>();
        if (nested) {
            nest = new Nest();
            for (int i = 0; i < bcols.size(); i++) {
                String alias = "b" + (i + 1);
                nest.items.add(Sql.format("%s AS " + d.quote(alias), bcols.get(i).sql));
                nest.aliases.add(alias);
                refs.add(Sql.raw(d.quote(SOURCE) + "." + d.quote(alias)));
            }
        } else {
            for (Col c : bcols) {
                refs.add(c.sql);
            }
        }
        breakoutRefs = refs;

        // order-by: breakouts by their reference, aggregations by alias (filled in below), then the implicit ascending
        // order of every breakout not ordered yet, as Metabase adds it.
        List<OrderEntry> entries = new ArrayList<>();
        Set<Integer> ordered = new HashSet<>();
        for (Object clause : list(q.get("order-by"), "order-by")) {
            Object[] dirRef = orderClause(clause);
            String dir = (String) dirRef[0];
            if (dirRef[1] instanceof List<?> ref && "aggregation".equals(ref.get(0))) {
                int index = aggregationIndex(ref, aggregations.size());
                entries.add(new OrderEntry(null, dir, -1, index));
                continue;
            }
            Sql direct = withoutNest(() -> expr(dirRef[1]).sql());
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
                entries.add(new OrderEntry(nest == null ? direct : expr(dirRef[1]).sql(), dir, -1, -1));
            }
        }
        for (int i = 0; i < bcols.size(); i++) {
            if (!ordered.contains(i)) {
                entries.add(new OrderEntry(refs.get(i), "ASC", i, -1));
            }
        }
        order = entries;

        List<Agg> aggs = new ArrayList<>();
        for (int i = 0; i < aggregations.size(); i++) {
            aggs.add(aggregation(aggregations.get(i), i));
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
            o.alias = aliases.unique(a.name);
            o.name = names.unique(a.name);
            o.displayName = a.displayName;
            o.baseType = a.baseType;
            o.effectiveType = a.baseType;
            o.semanticType = a.semanticType;
            o.fieldRef = ref("aggregation", i);
            o.source = "aggregation";
            items.add(Sql.format("%s AS " + d.quote(o.alias), a.sql));
            aggAliases.add(o.alias);
            out.add(o);
        }
        List<Sql> orderBy = new ArrayList<>();
        for (OrderEntry e : entries) {
            Sql target = e.aggregation >= 0 ? Sql.raw(d.quote(aggAliases.get(e.aggregation))) : e.sql;
            orderBy.add(Sql.format("%s " + e.direction, target));
        }

        Sql sql;
        if (nested) {
            Sql inner = Sql.format("SELECT %s FROM %s", Sql.join(", ", nest.items), from());
            if (where != null) {
                inner = inner.append(Sql.format(" WHERE %s", where));
            }
            sql = Sql.format("SELECT %s FROM (%s) AS " + d.quote(SOURCE), Sql.join(", ", items), inner);
        } else {
            sql = Sql.format("SELECT %s FROM %s", Sql.join(", ", items), from());
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

    private static boolean hasCumulative(Object clause) {
        if (clause instanceof List<?> l) {
            if (!l.isEmpty() && ("cum-sum".equals(l.get(0)) || "cum-count".equals(l.get(0)))) {
                return true;
            }
            for (Object item : l) {
                if (hasCumulative(item)) {
                    return true;
                }
            }
        }
        return false;
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

    // ------------------------------------------------------------------------------------------------ FROM

    private Sql from() {
        Sql from = table != null ? Sql.raw(tableSql) : Sql.format("(%s) AS " + d.quote(SOURCE), source.sql());
        for (Join j : joins.values()) {
            Sql target = j.table() != null ? Sql.raw(j.tableSql()) : Sql.format("(%s)", j.query().sql());
            from = from.append(Sql.format(" " + j.keyword() + " %s AS " + d.quote(j.alias()) + " ON %s", target, j.condition()[0]));
        }
        for (Implicit i : implicitJoins.values()) {
            String target = d.qualify(i.target().schemaName, i.target().name);
            from = from.append(Sql.format(" LEFT JOIN " + target + " AS " + d.quote(i.alias()) + " ON %s = "
                    + d.quote(i.alias()) + "." + d.quote(i.pk().name), i.fk()));
        }
        return from;
    }

    // ------------------------------------------------------------------------------------------------ columns

    /** A field or expression reference as a column (bucketed, binned), the way breakouts and fields use them. */
    Col column(Object clause) {
        if (!(clause instanceof List<?> l) || l.isEmpty()) {
            throw invalid("Expected a field reference, got " + describe(clause) + ".");
        }
        String op = String.valueOf(l.get(0));
        if (op.equals("field")) {
            return fieldColumn(l);
        }
        if (op.equals("expression")) {
            Map<String, Object> opts = l.size() > 2 && l.get(2) instanceof Map<?, ?> m ? cast(m) : Map.of();
            return bucket(expressionColumn(String.valueOf(l.size() > 1 ? l.get(1) : null), opts), opts);
        }
        if (op.equals("aggregation")) {
            throw invalid("An aggregation reference can only be used in \"order-by\".");
        }
        throw invalid("Expected a field reference, got " + describe(clause) + ".");
    }

    private Col fieldColumn(List<?> clause) {
        Object idOrName = clause.size() > 1 ? clause.get(1) : null;
        Map<String, Object> opts = clause.size() > 2 && clause.get(2) instanceof Map<?, ?> m ? cast(m) : Map.of();
        if (idOrName == null || !(idOrName instanceof Number || idOrName instanceof String)) {
            throw invalid("A field reference needs a field id or a column name.");
        }
        Object sourceField = opts.get("source-field");
        String joinAlias = opts.get("join-alias") instanceof String s ? s : null;
        Col col;
        if (sourceField != null) {
            col = implicitColumn(idOrName, sourceField, opts.get("source-field-join-alias") instanceof String s ? s : null);
        } else if (joinAlias != null && joins.containsKey(joinAlias)) {
            col = joinColumn(joins.get(joinAlias), idOrName, opts);
        } else {
            col = mainColumn(idOrName, joinAlias, opts);
        }
        col = bucket(col, opts);
        return bin(col, opts);
    }

    private Col mainColumn(Object idOrName, String joinAlias, Map<String, Object> opts) {
        if (table != null) {
            if (joinAlias != null) {
                throw invalid("No join has the alias \"" + joinAlias + "\".");
            }
            if (idOrName instanceof Number id) {
                Field f = requireField(id);
                if (Objects.equals(f.tableId, table.id)) {
                    return tableColumn(f);
                }
                Join only = null;
                for (Join j : joins.values()) {
                    if (j.table() != null && Objects.equals(j.table().id, f.tableId)) {
                        if (only != null) {
                            throw invalid("Field " + id + " is in more than one join: name the join with \"join-alias\".");
                        }
                        only = j;
                    }
                }
                if (only != null) {
                    return joinColumn(only, id, opts);
                }
                throw invalid("Field " + id + " is not in a table of this query.");
            }
            String name = (String) idOrName;
            for (Field f : ctx.metadata().fields(table.id)) {
                if (f.name.equals(name)) {
                    return tableColumn(f);
                }
            }
            throw invalid("The table " + table.name + " has no column \"" + name + "\".");
        }
        if (source.columns() == null) {
            if (!(idOrName instanceof String name)) {
                throw invalid("Columns of a native source query are referred to by name, not by field id.");
            }
            Col c = new Col();
            c.sql = leaf(d.quote(SOURCE) + "." + d.quote(name));
            c.name = name;
            c.alias = name;
            c.displayName = name;
            c.baseType = opts.get("base-type") instanceof String t ? t : MbqlTypes.ANY;
            c.effectiveType = c.baseType;
            c.fieldRef = ref("field", name, Map.of("base-type", c.baseType));
            return c;
        }
        OutColumn found = findColumn(source.columns(), idOrName, joinAlias, TemporalUnit.of(opts.get("temporal-unit")));
        if (found == null) {
            throw invalid(idOrName instanceof Number ? "Field " + idOrName + " is not returned by the source query."
                    : "The source query returns no column \"" + idOrName + "\".");
        }
        List<Object> ref;
        if (idOrName instanceof Number) {
            Map<String, Object> refOpts = new LinkedHashMap<>();
            if (joinAlias != null) {
                refOpts.put("join-alias", joinAlias);
            }
            ref = ref("field", ((Number) idOrName).longValue(), refOpts.isEmpty() ? null : refOpts);
        } else {
            ref = ref("field", idOrName, Map.of("base-type", found.baseType));
        }
        return upstreamColumn(found, SOURCE, null, ref);
    }

    /** The source column a reference means: by field id (and join), or by alias, then by name. */
    private static OutColumn findColumn(List<OutColumn> columns, Object idOrName, String joinAlias, TemporalUnit unit) {
        if (idOrName instanceof Number id) {
            OutColumn best = null;
            for (OutColumn c : columns) {
                if (c.field != null && c.field.id != null && c.field.id == id.longValue() && c.binningInfo == null
                        && Objects.equals(c.joinAlias, joinAlias)) {
                    if (best == null || c.unit == unit && best.unit != unit) {
                        best = c;
                    }
                }
            }
            if (best == null && joinAlias == null) {
                for (OutColumn c : columns) {
                    if (c.field != null && c.field.id != null && c.field.id == id.longValue()) {
                        return c;
                    }
                }
            }
            return best;
        }
        String name = (String) idOrName;
        for (OutColumn c : columns) {
            if (c.alias.equals(name)) {
                return c;
            }
        }
        for (OutColumn c : columns) {
            if (c.name.equals(name)) {
                return c;
            }
        }
        for (OutColumn c : columns) {
            if (c.alias.equalsIgnoreCase(name) || c.name.equalsIgnoreCase(name)) {
                return c;
            }
        }
        return null;
    }

    /** A column of a table in FROM, with the field's coercion applied. */
    private Col tableColumn(Field f) {
        Col c = fromField(f, tableSql);
        c.alias = f.name;
        c.fieldRef = ref("field", f.id, null);
        return c;
    }

    private Col fromField(Field f, String qualifier) {
        Col c = new Col();
        c.field = f;
        c.tableId = f.tableId;
        c.name = f.name;
        c.displayName = f.displayName == null ? f.name : f.displayName;
        c.baseType = f.baseType == null ? MbqlTypes.ANY : f.baseType;
        c.effectiveType = f.effectiveType == null ? c.baseType : f.effectiveType;
        c.semanticType = f.semanticType;
        c.sql = coerce(f, leaf(qualifier + "." + d.quote(f.name)));
        if (f.coercionStrategy != null && Objects.equals(c.effectiveType, c.baseType)) {
            c.effectiveType = coercedType(f.coercionStrategy, c.baseType);
        }
        return c;
    }

    private Col joinColumn(Join j, Object idOrName, Map<String, Object> opts) {
        if (j.table() != null) {
            Field f;
            if (idOrName instanceof Number id) {
                f = requireField(id);
                if (!Objects.equals(f.tableId, j.table().id)) {
                    throw invalid("Field " + id + " is not in the table of the join \"" + j.alias() + "\".");
                }
            } else {
                f = null;
                for (Field candidate : ctx.metadata().fields(j.table().id)) {
                    if (candidate.name.equals(idOrName)) {
                        f = candidate;
                    }
                }
                if (f == null) {
                    throw invalid("The join \"" + j.alias() + "\" has no column \"" + idOrName + "\".");
                }
            }
            Col c = fromField(f, d.quote(j.alias()));
            c.displayName = j.alias() + " → " + c.displayName;
            c.alias = j.alias() + "__" + f.name;
            c.joinAlias = j.alias();
            c.fieldRef = ref("field", f.id, Map.of("join-alias", j.alias()));
            return c;
        }
        if (j.query().columns() == null) {
            if (!(idOrName instanceof String name)) {
                throw invalid("Columns of a native join are referred to by name, not by field id.");
            }
            Col c = new Col();
            c.sql = leaf(d.quote(j.alias()) + "." + d.quote(name));
            c.name = name;
            c.alias = j.alias() + "__" + name;
            c.displayName = j.alias() + " → " + name;
            c.baseType = opts.get("base-type") instanceof String t ? t : MbqlTypes.ANY;
            c.effectiveType = c.baseType;
            c.joinAlias = j.alias();
            c.fieldRef = ref("field", name, Map.of("base-type", c.baseType, "join-alias", j.alias()));
            return c;
        }
        OutColumn found = findColumn(j.query().columns(), idOrName, null, TemporalUnit.of(opts.get("temporal-unit")));
        if (found == null) {
            throw invalid("The join \"" + j.alias() + "\" returns no column " + describe(idOrName) + ".");
        }
        Map<String, Object> refOpts = new LinkedHashMap<>();
        if (idOrName instanceof String) {
            refOpts.put("base-type", found.baseType);
        }
        refOpts.put("join-alias", j.alias());
        return upstreamColumn(found, j.alias(), j.alias(), ref("field", idOrName instanceof Number n ? (Object) n.longValue()
                : idOrName, refOpts));
    }

    /** A column of a subquery (the source query or a joined query), as this stage sees it. */
    private Col upstreamColumn(OutColumn c, String qualifier, String joinAlias, List<Object> fieldRef) {
        Col col = new Col();
        col.sql = leaf(d.quote(qualifier) + "." + d.quote(c.alias));
        col.field = c.field;
        col.tableId = c.tableId;
        col.name = c.name;
        col.displayName = joinAlias == null ? c.displayName : joinAlias + " → " + c.displayName;
        col.alias = joinAlias == null ? c.alias : joinAlias + "__" + c.alias;
        col.baseType = c.baseType;
        col.effectiveType = c.effectiveType;
        col.semanticType = c.semanticType;
        col.upstreamUnit = c.unit;
        col.unit = c.unit;
        col.binningInfo = c.binningInfo;
        col.joinAlias = joinAlias != null ? joinAlias : c.joinAlias;
        col.fkFieldId = joinAlias == null ? c.fkFieldId : null;
        col.implicitAlias = joinAlias == null ? c.implicitAlias : null;
        col.fieldRef = fieldRef;
        return col;
    }

    /** A field of another table reached through a foreign key ({@code source-field}): a LEFT JOIN added once. */
    private Col implicitColumn(Object idOrName, Object sourceFieldId, String fkJoinAlias) {
        if (!(sourceFieldId instanceof Number fkId)) {
            throw invalid("\"source-field\" must be the id of a foreign key field.");
        }
        Field fk = requireField(fkId);
        if (fk.fkTargetFieldId == null) {
            throw invalid("Field " + fkId + " is not a foreign key.");
        }
        Field pk = requireField(fk.fkTargetFieldId);
        Table target = requireTable(pk.tableId);
        String alias = target.name + "__via__" + fk.name + (fkJoinAlias == null ? "" : "__via__" + fkJoinAlias);
        if (!implicitJoins.containsKey(alias)) {
            Sql fkSql = withoutNest(() -> {
                Col fkCol = fkJoinAlias != null && joins.containsKey(fkJoinAlias)
                        ? joinColumn(joins.get(fkJoinAlias), fk.id, Map.of()) : mainColumn(fk.id, fkJoinAlias, Map.of());
                return fkCol.sql;
            });
            implicitJoins.put(alias, new Implicit(alias, target, pk, fkSql));
        }
        Field f;
        if (idOrName instanceof Number id) {
            f = requireField(id);
            if (!Objects.equals(f.tableId, target.id)) {
                throw invalid("Field " + id + " is not in the table foreign key " + fkId + " points to.");
            }
        } else {
            f = null;
            for (Field candidate : ctx.metadata().fields(target.id)) {
                if (candidate.name.equals(idOrName)) {
                    f = candidate;
                }
            }
            if (f == null) {
                throw invalid("The table " + target.name + " has no column \"" + idOrName + "\".");
            }
        }
        Col c = fromField(f, d.quote(alias));
        String fkName = fk.displayName == null ? fk.name : fk.displayName;
        c.displayName = fkName.replaceAll("(?i)\\s+id$", "") + " → " + c.displayName;
        c.alias = alias + "__" + f.name;
        c.fkFieldId = fk.id;
        c.implicitAlias = alias;
        c.fieldRef = ref("field", f.id, Map.of("source-field", fk.id));
        return c;
    }

    private Col expressionColumn(String name, Map<String, Object> opts) {
        if (!expressions.containsKey(name)) {
            throw invalid("No expression named \"" + name + "\".");
        }
        if (!expanding.add(name)) {
            throw invalid("The expression \"" + name + "\" refers to itself.");
        }
        try {
            Typed t = expr(expressions.get(name));
            Col c = new Col();
            c.sql = t.sql();
            c.name = name;
            c.alias = name;
            c.displayName = name;
            c.baseType = t.type();
            c.effectiveType = t.type();
            c.fieldRef = ref("expression", name);
            c.expression = true;
            return c;
        } finally {
            expanding.remove(name);
        }
    }

    private Sql coerce(Field f, Sql sql) {
        String strategy = f.coercionStrategy;
        if (strategy == null) {
            return sql;
        }
        return switch (strategy) {
            case "Coercion/UNIXSeconds->DateTime" -> d.unixSecondsToTimestamp(sql);
            case "Coercion/UNIXMilliSeconds->DateTime" -> d.unixSecondsToTimestamp(Sql.format("(%s / 1000.0)", sql));
            case "Coercion/UNIXMicroSeconds->DateTime" -> d.unixSecondsToTimestamp(Sql.format("(%s / 1000000.0)", sql));
            case "Coercion/UNIXNanoSeconds->DateTime" -> d.unixSecondsToTimestamp(Sql.format("(%s / 1000000000.0)", sql));
            case "Coercion/ISO8601->DateTime" -> d.toTimestamp(sql);
            case "Coercion/ISO8601->Date", "Coercion/DateTime->Date" -> d.toDate(sql);
            case "Coercion/String->Float" -> d.toFloat(sql);
            case "Coercion/String->Integer", "Coercion/Float->Integer" -> d.toInteger(sql);
            default -> throw invalid("The coercion " + strategy + " of the field " + f.name + " is not supported yet.");
        };
    }

    private static String coercedType(String strategy, String baseType) {
        if (strategy.endsWith("->DateTime")) {
            return MbqlTypes.DATE_TIME;
        }
        if (strategy.endsWith("->Date")) {
            return MbqlTypes.DATE;
        }
        if (strategy.endsWith("->Float")) {
            return MbqlTypes.FLOAT;
        }
        if (strategy.endsWith("->Integer")) {
            return MbqlTypes.INTEGER;
        }
        return baseType;
    }

    /** Applies a reference's temporal unit, unless its source already did. */
    private Col bucket(Col col, Map<String, Object> opts) {
        Object unitKey = opts.get("temporal-unit");
        if (unitKey == null) {
            return col;
        }
        TemporalUnit unit = TemporalUnit.of(unitKey);
        if (unit == null) {
            throw invalid("Unknown temporal unit \"" + unitKey + "\".");
        }
        if (unit == TemporalUnit.DEFAULT || unit == col.upstreamUnit) {
            return col;
        }
        String type = col.effectiveType;
        if (!MbqlTypes.isTemporal(type) && !MbqlTypes.ANY.equals(type)) {
            throw invalid("The column " + col.name + " is not a date or time: it can't be grouped by " + unit.key + ".");
        }
        col.raw = col.sql;
        col.sql = applyUnit(unit, col.sql, type);
        if (unit.extracts()) {
            col.baseType = MbqlTypes.INTEGER;
            col.effectiveType = MbqlTypes.INTEGER;
            col.semanticType = null;
        }
        col.unit = unit;
        col.displayName = col.displayName + ": " + unit.displayName;
        col.fieldRef = withRefOption(col.fieldRef, "temporal-unit", unit.key);
        return col;
    }

    private Sql applyUnit(TemporalUnit unit, Sql sql, String type) {
        if (unit.truncates()) {
            Sql truncated = d.truncate(unit, sql, ctx.firstDayOfWeek());
            boolean dateOnly = MbqlTypes.isDateOnly(type);
            return dateOnly && unit.ordinal() >= TemporalUnit.DAY.ordinal() ? d.toDate(truncated) : truncated;
        }
        return extract(unit, sql);
    }

    /** An extraction unit as an integer expression; days and weeks follow the start-of-week setting. */
    private Sql extract(TemporalUnit unit, Sql sql) {
        return switch (unit) {
            case SECOND_OF_MINUTE -> d.extract(MbqlDialect.Part.SECOND, sql);
            case MINUTE_OF_HOUR -> d.extract(MbqlDialect.Part.MINUTE, sql);
            case HOUR_OF_DAY -> d.extract(MbqlDialect.Part.HOUR, sql);
            case DAY_OF_MONTH -> d.extract(MbqlDialect.Part.DAY, sql);
            case DAY_OF_YEAR -> d.extract(MbqlDialect.Part.DAY_OF_YEAR, sql);
            case MONTH_OF_YEAR -> d.extract(MbqlDialect.Part.MONTH, sql);
            case QUARTER_OF_YEAR -> d.extract(MbqlDialect.Part.QUARTER, sql);
            case YEAR_OF_ERA -> d.extract(MbqlDialect.Part.YEAR, sql);
            case DAY_OF_WEEK_ISO -> d.extract(MbqlDialect.Part.ISO_DAY_OF_WEEK, sql);
            case DAY_OF_WEEK -> dayOfWeek(sql, ctx.firstDayOfWeek().getValue());
            case WEEK_OF_YEAR_ISO -> d.extract(MbqlDialect.Part.ISO_WEEK, sql);
            case WEEK_OF_YEAR, WEEK_OF_YEAR_INSTANCE -> weekOfYear(sql, ctx.firstDayOfWeek());
            case WEEK_OF_YEAR_US -> weekOfYear(sql, java.time.DayOfWeek.SUNDAY);
            default -> throw invalid("Not an extraction unit: " + unit.key);
        };
    }

    /** 1 for the first day of the week ({@code firstDay}: Monday = 1 … Sunday = 7), 7 for the last. */
    private Sql dayOfWeek(Sql sql, int firstDay) {
        Sql iso = d.extract(MbqlDialect.Part.ISO_DAY_OF_WEEK, sql);
        if (firstDay == 1) {
            return iso;
        }
        return Sql.format("((%s + " + (7 - firstDay) + ") %% 7 + 1)", iso);
    }

    /**
     * Week of the year as Metabase counts it by default: week 1 starts on 1 January, week 2 on the first
     * {@code firstDay} after it.
     */
    private Sql weekOfYear(Sql sql, java.time.DayOfWeek firstDay) {
        Sql startOfYear = d.truncate(TemporalUnit.YEAR, sql, firstDay);
        Sql daysTillFirstFullWeek = Sql.format("(8 - %s)", dayOfWeek(startOfYear, firstDay.getValue()));
        return d.toInteger(Sql.format("(CEIL((%s - %s) / 7.0) + 1)", d.extract(MbqlDialect.Part.DAY_OF_YEAR, sql),
                daysTillFirstFullWeek));
    }

    /** Applies a reference's binning: {@code floor((x - min) / width) * width + min}. */
    private Col bin(Col col, Map<String, Object> opts) {
        if (!(opts.get("binning") instanceof Map<?, ?> binning)) {
            return col;
        }
        if (!MbqlTypes.isNumber(col.effectiveType)) {
            throw invalid("The column " + col.name + " is not a number: it can't be binned.");
        }
        String strategy = String.valueOf(binning.get("strategy") == null ? "default" : binning.get("strategy"));
        Double param = null;
        switch (strategy) {
            case "num-bins" -> param = positive(binning.get("num-bins"), "num-bins");
            case "bin-width" -> param = positive(binning.get("bin-width"), "bin-width");
            case "default" -> { }
            default -> throw invalid("Unknown binning strategy \"" + strategy + "\": use default, num-bins or bin-width.");
        }
        double[] range = null;
        if (binning.get("min-value") instanceof Number min && binning.get("max-value") instanceof Number max) {
            range = new double[]{min.doubleValue(), max.doubleValue()};
        } else if (col.field != null) {
            range = ctx.metadata().numberRange(col.field);
        }
        if (range == null) {
            throw invalid("The column " + col.name + " can't be binned: its smallest and largest values are unknown.");
        }
        boolean coordinate = MbqlTypes.isCoordinate(col.semanticType);
        Binning.Resolved r = Binning.resolve(strategy, param, coordinate, range[0], range[1], ctx.defaultBins(), ctx.defaultBinWidth());
        Sql shifted = r.minValue() == 0 ? col.sql : Sql.format("(%s - " + Binning.literal(r.minValue()) + ")", col.sql);
        Sql binned = Sql.format("(FLOOR(%s / " + Binning.literal(r.binWidth()) + ") * " + Binning.literal(r.binWidth()) + ")", shifted);
        col.sql = d.toFloat(r.minValue() == 0 ? binned : Sql.format("(%s + " + Binning.literal(r.minValue()) + ")", binned));
        col.displayName = col.displayName + ": " + Binning.displayName(strategy, r, param, coordinate);
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("binning_strategy", r.strategy());
        info.put("bin_width", r.binWidth());
        info.put("num_bins", r.numBins());
        info.put("min_value", r.minValue());
        info.put("max_value", r.maxValue());
        col.binningInfo = info;
        Map<String, Object> refBinning = new LinkedHashMap<>();
        refBinning.put("strategy", strategy);
        if (param != null) {
            refBinning.put(strategy, strategy.equals("num-bins") ? (Object) param.intValue() : param);
        }
        refBinning.put("min-value", r.minValue());
        refBinning.put("max-value", r.maxValue());
        refBinning.put("bin-width", r.binWidth());
        refBinning.put("num-bins", r.numBins());
        col.fieldRef = withRefOption(col.fieldRef, "binning", refBinning);
        return col;
    }

    private static double positive(Object value, String what) {
        if (value instanceof Number n && n.doubleValue() > 0 && Double.isFinite(n.doubleValue())) {
            return n.doubleValue();
        }
        throw invalid("Binning by " + what + " needs a positive \"" + what + "\".");
    }

    private List<Field> visibleFields(long tableId) {
        List<Field> visible = new ArrayList<>();
        for (Field f : ctx.metadata().fields(tableId)) {
            if (f.active && f.parentId == null && !"sensitive".equals(f.visibilityType) && !"retired".equals(f.visibilityType)) {
                visible.add(f);
            }
        }
        return visible;
    }

    // ------------------------------------------------------------------------------------------------ expressions

    /** Any expression: references, literals, arithmetic, string and date functions, or a condition. */
    Typed expr(Object x) {
        if (x == null) {
            return new Typed(Sql.raw("NULL"), MbqlTypes.ANY, null);
        }
        if (x instanceof Number n) {
            return new Typed(Sql.param(number(n)), integral(n) ? MbqlTypes.INTEGER : MbqlTypes.FLOAT, null);
        }
        if (x instanceof String s) {
            return new Typed(Sql.param(s), MbqlTypes.TEXT, null);
        }
        if (x instanceof Boolean b) {
            return new Typed(Sql.param(d.bindValue(b)), MbqlTypes.BOOLEAN, null);
        }
        if (!(x instanceof List<?> l) || l.isEmpty() || !(l.get(0) instanceof String op)) {
            throw invalid("Unknown expression " + describe(x) + ".");
        }
        List<?> args = l.subList(1, l.size());
        switch (op) {
            case "field", "expression" -> {
                Col c = column(l);
                return new Typed(c.sql, c.effectiveType, c);
            }
            case "value" -> {
                return literal(args.isEmpty() ? null : args.get(0), args.size() > 1 && args.get(1) instanceof Map<?, ?> m
                        ? baseTypeOption(m) : null);
            }
            case "+", "-", "*" -> {
                return arithmetic(op, args);
            }
            case "/" -> {
                need(args, 2, op);
                Sql out = d.toFloat(expr(args.get(0)).sql());
                for (Object denominator : args.subList(1, args.size())) {
                    out = Sql.format("(%s / NULLIF(%s, 0))", out, d.toFloat(expr(denominator).sql()));
                }
                return new Typed(out, MbqlTypes.FLOAT, null);
            }
            case "coalesce" -> {
                need(args, 1, op);
                List<Sql> parts = new ArrayList<>();
                String type = null;
                for (Object arg : args) {
                    Typed t = expr(arg);
                    parts.add(t.sql());
                    if (type == null && !MbqlTypes.ANY.equals(t.type())) {
                        type = t.type();
                    }
                }
                return new Typed(Sql.format("COALESCE(%s)", Sql.join(", ", parts)), type == null ? MbqlTypes.ANY : type, null);
            }
            case "case", "if" -> {
                return caseExpr(args);
            }
            case "concat" -> {
                need(args, 1, op);
                List<Sql> parts = new ArrayList<>();
                for (Object arg : args) {
                    Typed t = expr(arg);
                    parts.add(MbqlTypes.isText(t.type()) || MbqlTypes.ANY.equals(t.type()) ? t.sql() : d.toText(t.sql()));
                }
                return new Typed(d.concat(parts), MbqlTypes.TEXT, null);
            }
            case "substring" -> {
                need(args, 2, op);
                return new Typed(d.substring(expr(args.get(0)).sql(), expr(args.get(1)).sql(),
                        args.size() > 2 ? expr(args.get(2)).sql() : null), MbqlTypes.TEXT, null);
            }
            case "upper", "lower", "trim", "ltrim", "rtrim" -> {
                need(args, 1, op);
                return new Typed(Sql.format(op.toUpperCase(Locale.ROOT) + "(%s)", expr(args.get(0)).sql()), MbqlTypes.TEXT, null);
            }
            case "length" -> {
                need(args, 1, op);
                return new Typed(d.length(expr(args.get(0)).sql()), MbqlTypes.INTEGER, null);
            }
            case "replace" -> {
                need(args, 3, op);
                return new Typed(Sql.format("REPLACE(%s, %s, %s)", expr(args.get(0)).sql(), expr(args.get(1)).sql(),
                        expr(args.get(2)).sql()), MbqlTypes.TEXT, null);
            }
            case "round", "ceil", "floor" -> {
                need(args, 1, op);
                return new Typed(Sql.format(op.toUpperCase(Locale.ROOT) + "(%s)", expr(args.get(0)).sql()), MbqlTypes.INTEGER, null);
            }
            case "abs" -> {
                need(args, 1, op);
                Typed t = expr(args.get(0));
                return new Typed(Sql.format("ABS(%s)", t.sql()), t.type(), null);
            }
            case "power" -> {
                need(args, 2, op);
                return new Typed(d.power(expr(args.get(0)).sql(), expr(args.get(1)).sql()), MbqlTypes.FLOAT, null);
            }
            case "sqrt", "exp" -> {
                need(args, 1, op);
                return new Typed(Sql.format(op.toUpperCase(Locale.ROOT) + "(%s)", d.toFloat(expr(args.get(0)).sql())),
                        MbqlTypes.FLOAT, null);
            }
            case "log" -> {
                need(args, 1, op);
                return new Typed(d.log10(d.toFloat(expr(args.get(0)).sql())), MbqlTypes.FLOAT, null);
            }
            case "datetime-add", "datetime-subtract" -> {
                need(args, 3, op);
                Typed base = temporalExpr(args.get(0));
                TemporalUnit unit = intervalUnit(args.get(2));
                long amount = wholeNumber(args.get(1), "amount of " + op);
                return new Typed(d.addInterval(base.sql(), op.equals("datetime-add") ? amount : -amount, unit), base.type(), null);
            }
            case "datetime-diff" -> {
                need(args, 3, op);
                TemporalUnit unit = intervalUnit(args.get(2));
                if (unit == TemporalUnit.MILLISECOND) {
                    throw invalid("datetime-diff counts seconds at the finest.");
                }
                return new Typed(d.datetimeDiff(unit, temporalExpr(args.get(0)).sql(), temporalExpr(args.get(1)).sql()),
                        MbqlTypes.INTEGER, null);
            }
            case "now" -> {
                return new Typed(d.now(), MbqlTypes.DATE_TIME_LOCAL_TZ, null);
            }
            case "today" -> {
                return new Typed(d.toDate(d.now()), MbqlTypes.DATE, null);
            }
            case "get-year", "get-quarter", "get-month", "get-week", "get-day", "get-day-of-week", "get-hour", "get-minute",
                 "get-second" -> {
                need(args, 1, op);
                return new Typed(extract(extractionUnit(op, args.size() > 1 ? args.get(1) : null), temporalExpr(args.get(0)).sql()),
                        MbqlTypes.INTEGER, null);
            }
            case "temporal-extract" -> {
                need(args, 2, op);
                TemporalUnit unit = TemporalUnit.of(args.get(1));
                if (unit == null || !unit.extracts()) {
                    throw invalid("Unknown unit to extract: " + describe(args.get(1)) + ".");
                }
                return new Typed(extract(unit, temporalExpr(args.get(0)).sql()), MbqlTypes.INTEGER, null);
            }
            case "relative-datetime" -> {
                return new Typed(Sql.param(d.bindValue(relativeDateTime(args, null))), MbqlTypes.DATE_TIME, null);
            }
            case "absolute-datetime" -> {
                need(args, 1, op);
                Object value = temporalLiteral(args.get(0));
                TemporalUnit unit = args.size() > 1 ? TemporalUnit.of(args.get(1)) : null;
                if (unit != null && unit.truncates() && value instanceof LocalDateTime t) {
                    value = unit.truncate(t, ctx.firstDayOfWeek());
                }
                return new Typed(Sql.param(d.bindValue(value)), value instanceof LocalDate ? MbqlTypes.DATE : MbqlTypes.DATE_TIME, null);
            }
            case "text" -> {
                need(args, 1, op);
                return new Typed(d.toText(expr(args.get(0)).sql()), MbqlTypes.TEXT, null);
            }
            case "integer" -> {
                need(args, 1, op);
                return new Typed(d.toInteger(expr(args.get(0)).sql()), MbqlTypes.INTEGER, null);
            }
            case "float" -> {
                need(args, 1, op);
                return new Typed(d.toFloat(expr(args.get(0)).sql()), MbqlTypes.FLOAT, null);
            }
            case "date" -> {
                need(args, 1, op);
                return new Typed(d.toDate(temporalExpr(args.get(0)).sql()), MbqlTypes.DATE, null);
            }
            case "interval" -> throw invalid("An interval can only be added to or subtracted from a date.");
            case "aggregation" -> throw invalid("An aggregation reference can only be used in \"order-by\".");
            default -> {
                if (FILTERS.contains(op)) {
                    return new Typed(filter(x), MbqlTypes.BOOLEAN, null);
                }
                if (AGGREGATIONS.contains(op)) {
                    throw invalid("The aggregation \"" + op + "\" can only be used in \"aggregation\".");
                }
                throw invalid("Unknown expression \"" + op + "\".");
            }
        }
    }

    private Typed arithmetic(String op, List<?> args) {
        need(args, 2, op);
        List<Object> intervals = new ArrayList<>();
        List<Object> others = new ArrayList<>();
        for (Object arg : args) {
            if (arg instanceof List<?> l && !l.isEmpty() && "interval".equals(l.get(0))) {
                intervals.add(arg);
            } else {
                others.add(arg);
            }
        }
        if (!intervals.isEmpty()) {
            if (op.equals("*") || others.size() != 1 || (op.equals("-") && !others.get(0).equals(args.get(0)))) {
                throw invalid("An interval can only be added to or subtracted from one date.");
            }
            Typed base = temporalExpr(others.get(0));
            Sql out = base.sql();
            for (Object interval : intervals) {
                List<?> i = (List<?>) interval;
                long amount = wholeNumber(i.size() > 1 ? i.get(1) : null, "interval amount");
                out = d.addInterval(out, op.equals("-") ? -amount : amount, intervalUnit(i.size() > 2 ? i.get(2) : null));
            }
            return new Typed(out, base.type(), null);
        }
        List<Sql> parts = new ArrayList<>();
        boolean integral = true;
        String temporal = null;
        for (Object arg : args) {
            Typed t = expr(arg);
            parts.add(t.sql());
            integral &= MbqlTypes.isInteger(t.type());
            if (MbqlTypes.isTemporal(t.type())) {
                temporal = t.type();
            }
        }
        String type = temporal != null ? temporal : integral ? MbqlTypes.INTEGER : MbqlTypes.FLOAT;
        return new Typed(Sql.join(" " + op + " ", parts).parenthesized(), type, null);
    }

    private Typed caseExpr(List<?> args) {
        if (args.isEmpty() || !(args.get(0) instanceof List<?> branches) || branches.isEmpty()) {
            throw invalid("\"case\" needs a list of [condition, value] branches.");
        }
        List<Sql> parts = new ArrayList<>();
        String type = null;
        for (Object branch : branches) {
            if (!(branch instanceof List<?> pair) || pair.size() != 2) {
                throw invalid("Every branch of \"case\" is a [condition, value] pair.");
            }
            Typed value = expr(pair.get(1));
            if (type == null && !MbqlTypes.ANY.equals(value.type())) {
                type = value.type();
            }
            parts.add(Sql.format("WHEN %s THEN %s", filter(pair.get(0)), value.sql()));
        }
        Object otherwise = args.size() > 1 && args.get(1) instanceof Map<?, ?> opts ? opts.get("default")
                : args.size() > 1 ? args.get(1) : null;
        if (otherwise != null) {
            Typed value = expr(otherwise);
            if (type == null) {
                type = value.type();
            }
            parts.add(Sql.format("ELSE %s", value.sql()));
        }
        return new Typed(Sql.format("CASE %s END", Sql.join(" ", parts)), type == null ? MbqlTypes.ANY : type, null);
    }

    /** An expression in a date context: text literals are dates or date-times. */
    private Typed temporalExpr(Object x) {
        if (x instanceof String s) {
            Object value = temporalLiteral(s);
            return new Typed(Sql.param(d.bindValue(value)), value instanceof LocalDate ? MbqlTypes.DATE : MbqlTypes.DATE_TIME, null);
        }
        return expr(x);
    }

    private Typed literal(Object value, String baseType) {
        if (value instanceof String s && baseType != null && MbqlTypes.isTemporal(baseType)) {
            return temporalExpr(s);
        }
        if (value instanceof List<?> || value instanceof Map<?, ?>) {
            throw invalid("A value must be a number, text, a boolean or null.");
        }
        return expr(value);
    }

    /** The {@code base_type} (or {@code base-type}) of a value's options. */
    private static String baseTypeOption(Map<?, ?> options) {
        Object type = options.get("base_type") != null ? options.get("base_type") : options.get("base-type");
        if (type != null && !(type instanceof String)) {
            throw invalid("The base type of a value must be text, like \"type/Integer\".");
        }
        return (String) type;
    }

    private static TemporalUnit extractionUnit(String op, Object mode) {
        String m = mode == null ? null : String.valueOf(mode).toLowerCase(Locale.ROOT);
        return switch (op) {
            case "get-year" -> TemporalUnit.YEAR_OF_ERA;
            case "get-quarter" -> TemporalUnit.QUARTER_OF_YEAR;
            case "get-month" -> TemporalUnit.MONTH_OF_YEAR;
            case "get-week" -> "us".equals(m) ? TemporalUnit.WEEK_OF_YEAR_US
                    : "instance".equals(m) ? TemporalUnit.WEEK_OF_YEAR_INSTANCE : TemporalUnit.WEEK_OF_YEAR_ISO;
            case "get-day" -> TemporalUnit.DAY_OF_MONTH;
            case "get-day-of-week" -> "iso".equals(m) ? TemporalUnit.DAY_OF_WEEK_ISO : TemporalUnit.DAY_OF_WEEK;
            case "get-hour" -> TemporalUnit.HOUR_OF_DAY;
            case "get-minute" -> TemporalUnit.MINUTE_OF_HOUR;
            default -> TemporalUnit.SECOND_OF_MINUTE;
        };
    }

    private static TemporalUnit intervalUnit(Object key) {
        TemporalUnit unit = TemporalUnit.of(key);
        if (unit == null || !unit.truncates()) {
            throw invalid("Unknown interval unit " + describe(key) + ": use second, minute, hour, day, week, month, quarter or year.");
        }
        return unit;
    }

    private static long wholeNumber(Object value, String what) {
        if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && Math.abs(n.doubleValue()) < 1e12) {
            return n.longValue();
        }
        throw invalid("The " + what + " must be a whole number.");
    }

    // ------------------------------------------------------------------------------------------------ filters

    /** A condition, as SQL. */
    Sql filter(Object x) {
        if (x instanceof Boolean b) {
            return d.booleanLiteral(b);
        }
        if (!(x instanceof List<?> l) || l.isEmpty() || !(l.get(0) instanceof String op)) {
            throw invalid("Unknown filter " + describe(x) + ".");
        }
        List<?> args = l.subList(1, l.size());
        switch (op) {
            case "and", "or" -> {
                if (args.isEmpty()) {
                    return d.booleanLiteral(op.equals("and"));
                }
                List<Sql> parts = new ArrayList<>();
                for (Object arg : args) {
                    parts.add(filter(arg));
                }
                return parts.size() == 1 ? parts.get(0) : Sql.join(op.equals("and") ? " AND " : " OR ", parts).parenthesized();
            }
            case "not" -> {
                need(args, 1, op);
                Object inner = args.get(0);
                Sql negated = Sql.format("(NOT %s)", filter(inner));
                if (inner instanceof List<?> il && !il.isEmpty() && Set.of("contains", "starts-with", "ends-with").contains(il.get(0))
                        && il.size() > 1) {
                    return Sql.format("(%s OR %s IS NULL)", negated, expr(il.get(1)).sql());
                }
                return negated;
            }
            case "=", "!=", "in", "not-in" -> {
                need(args, 2, op);
                return equality(op.equals("=") || op.equals("in"), args.get(0), args.subList(1, args.size()));
            }
            case "<", ">", "<=", ">=" -> {
                need(args, 2, op);
                return comparison(op, args.get(0), args.get(1));
            }
            case "between" -> {
                need(args, 3, op);
                return between(args.get(0), args.get(1), args.get(2));
            }
            case "is-null", "not-null" -> {
                need(args, 1, op);
                return Sql.format(op.equals("is-null") ? "(%s IS NULL)" : "(%s IS NOT NULL)", expr(args.get(0)).sql());
            }
            case "is-empty", "not-empty" -> {
                need(args, 1, op);
                Typed t = expr(args.get(0));
                boolean text = MbqlTypes.isText(t.type());
                if (op.equals("is-empty")) {
                    return text ? Sql.format("(%s IS NULL OR %s = %s)", t.sql(), t.sql(), Sql.param(""))
                            : Sql.format("(%s IS NULL)", t.sql());
                }
                return text ? Sql.format("(%s IS NOT NULL AND %s <> %s)", t.sql(), t.sql(), Sql.param(""))
                        : Sql.format("(%s IS NOT NULL)", t.sql());
            }
            case "contains", "starts-with", "ends-with", "does-not-contain" -> {
                return stringFilter(op, args);
            }
            case "inside" -> {
                need(args, 6, op);
                Sql lat = expr(args.get(0)).sql();
                Sql lon = expr(args.get(1)).sql();
                return Sql.format("(%s BETWEEN %s AND %s AND %s BETWEEN %s AND %s)", lat, numberParam(args.get(4)),
                        numberParam(args.get(2)), lon, numberParam(args.get(3)), numberParam(args.get(5)));
            }
            case "time-interval" -> {
                return timeInterval(args);
            }
            case "relative-time-interval" -> {
                return relativeTimeInterval(args);
            }
            case "during" -> {
                need(args, 3, op);
                TemporalUnit unit = intervalUnit(args.get(2));
                LocalDateTime start = unit.truncate(asDateTime(temporalLiteral(args.get(1))), ctx.firstDayOfWeek());
                return range(rawColumn(args.get(0)), start, unit.plus(start, 1));
            }
            case "segment" -> throw new IllegalStateException("The pass expand-segments leaves no segment in a condition.");
            case "field", "expression" -> {
                Typed t = expr(x);
                return Sql.format("(%s = %s)", t.sql(), d.booleanLiteral(true));
            }
            default -> throw invalid("Unknown filter \"" + op + "\".");
        }
    }

    private Sql equality(boolean equal, Object lhs, List<?> values) {
        Typed left = expr(lhs);
        TemporalUnit unit = rangeUnit(lhs, left, values);
        if (unit != null) {
            Sql raw = rawColumn(lhs);
            List<Sql> ranges = new ArrayList<>();
            for (Object v : values) {
                LocalDateTime start = unit.truncate(temporalValue(v, unit), ctx.firstDayOfWeek());
                ranges.add(range(raw, start, unit.plus(start, 1), left.col()));
            }
            Sql any = ranges.size() == 1 ? ranges.get(0) : Sql.join(" OR ", ranges).parenthesized();
            return equal ? any : Sql.format("(NOT %s OR %s IS NULL)", any, raw);
        }
        List<Sql> params = new ArrayList<>();
        boolean hasNull = false;
        for (Object v : values) {
            if (v == null) {
                hasNull = true;
            } else {
                params.add(value(v, left));
            }
        }
        if (params.isEmpty()) {
            return Sql.format(equal ? "(%s IS NULL)" : "(%s IS NOT NULL)", left.sql());
        }
        Sql test = params.size() == 1 ? Sql.format(equal ? "%s = %s" : "%s <> %s", left.sql(), params.get(0))
                : Sql.format(equal ? "%s IN (%s)" : "%s NOT IN (%s)", left.sql(), Sql.join(", ", params));
        if (equal) {
            return hasNull ? Sql.format("(%s OR %s IS NULL)", test, left.sql()) : test.parenthesized();
        }
        // != keeps rows where the column is NULL (Metabase's rule), unless NULL itself was excluded
        return hasNull ? Sql.format("(%s AND %s IS NOT NULL)", test, left.sql()) : Sql.format("(%s OR %s IS NULL)", test, left.sql());
    }

    private Sql comparison(String op, Object lhs, Object rhs) {
        Typed left = expr(lhs);
        TemporalUnit unit = rangeUnit(lhs, left, List.of(rhs));
        if (unit != null) {
            Sql raw = rawColumn(lhs);
            LocalDateTime start = unit.truncate(temporalValue(rhs, unit), ctx.firstDayOfWeek());
            LocalDateTime end = unit.plus(start, 1);
            return switch (op) {
                case "<" -> Sql.format("(%s < %s)", raw, temporalParam(start, left.col()));
                case "<=" -> Sql.format("(%s < %s)", raw, temporalParam(end, left.col()));
                case ">" -> Sql.format("(%s >= %s)", raw, temporalParam(end, left.col()));
                default -> Sql.format("(%s >= %s)", raw, temporalParam(start, left.col()));
            };
        }
        return Sql.format("(%s " + op + " %s)", left.sql(), value(rhs, left));
    }

    private Sql between(Object lhs, Object low, Object high) {
        Typed left = expr(lhs);
        TemporalUnit unit = rangeUnit(lhs, left, List.of(low, high));
        if (unit != null) {
            LocalDateTime start = unit.truncate(temporalValue(low, unit), ctx.firstDayOfWeek());
            LocalDateTime end = unit.plus(unit.truncate(temporalValue(high, unit), ctx.firstDayOfWeek()), 1);
            return range(rawColumn(lhs), start, end, left.col());
        }
        return Sql.format("(%s BETWEEN %s AND %s)", left.sql(), value(low, left), value(high, left));
    }

    /**
     * The unit by which a comparison with date values becomes a half-open range on the raw column: the reference's
     * truncation unit, or day when a date-time column is compared with a plain date; null when the comparison stays
     * as written.
     */
    private TemporalUnit rangeUnit(Object lhs, Typed left, List<?> values) {
        if (values.isEmpty() || values.stream().anyMatch(v -> !isTemporalValue(v))) {
            return null;
        }
        Col col = left.col();
        if (col == null) {
            return null;
        }
        if (col.unit != null && col.unit != col.upstreamUnit) {
            return col.unit.truncates() ? col.unit : null;
        }
        if (col.unit != null) {
            return null;
        }
        if (!MbqlTypes.hasDate(col.effectiveType)) {
            return null;
        }
        boolean dateOnly = MbqlTypes.isDateOnly(col.effectiveType);
        for (Object v : values) {
            if (v instanceof String s && DATE.matcher(s).matches() && !dateOnly) {
                return TemporalUnit.DAY;
            }
            if (v instanceof List<?> rel && "relative-datetime".equals(rel.get(0)) && rel.size() > 2) {
                TemporalUnit unit = TemporalUnit.of(rel.get(2));
                return unit != null && unit.truncates() ? unit : null;
            }
        }
        return null;
    }

    private static boolean isTemporalValue(Object v) {
        if (v instanceof String s) {
            return parseTemporal(s) != null;
        }
        return v instanceof List<?> l && !l.isEmpty() && ("relative-datetime".equals(l.get(0)) || "absolute-datetime".equals(l.get(0)));
    }

    /** A date value of a filter, as the local date-time it denotes. */
    private LocalDateTime temporalValue(Object v, TemporalUnit unit) {
        if (v instanceof List<?> l && "relative-datetime".equals(l.get(0))) {
            return relativeDateTime(l.subList(1, l.size()), unit);
        }
        if (v instanceof List<?> l && "absolute-datetime".equals(l.get(0))) {
            return asDateTime(temporalLiteral(l.size() > 1 ? l.get(1) : null));
        }
        return asDateTime(temporalLiteral(v));
    }

    /** The column a reference names, without its temporal unit (the raw values a date range compares). */
    private Sql rawColumn(Object ref) {
        Typed t = expr(ref);
        if (t.col() != null && t.col().raw != null) {
            return t.col().raw;
        }
        return t.sql();
    }

    private Sql range(Sql raw, LocalDateTime start, LocalDateTime end) {
        return range(raw, start, end, null);
    }

    /** {@code start <= raw < end}. */
    private Sql range(Sql raw, LocalDateTime start, LocalDateTime end, Col col) {
        return Sql.format("(%s >= %s AND %s < %s)", raw, temporalParam(start, col), raw, temporalParam(end, col));
    }

    /** A date bound typed like the column: a date for date columns, an instant in UTC for time-zoned ones. */
    private Sql temporalParam(LocalDateTime t, Col col) {
        Object value = t;
        if (col != null && MbqlTypes.isDateOnly(col.effectiveType) && t.toLocalTime().equals(java.time.LocalTime.MIDNIGHT)) {
            value = t.toLocalDate();
        } else if (col != null && MbqlTypes.isTimeZoned(col.effectiveType)) {
            value = t.atOffset(ZoneOffset.UTC);
        }
        return Sql.param(d.bindValue(value));
    }

    private Sql timeInterval(List<?> args) {
        need(args, 3, "time-interval");
        TemporalUnit unit = intervalUnit(args.get(2));
        Object n = args.get(1);
        long amount;
        if (n instanceof String s) {
            amount = switch (s.toLowerCase(Locale.ROOT)) {
                case "current" -> 0;
                case "last" -> -1;
                case "next" -> 1;
                default -> throw invalid("time-interval takes a number, \"current\", \"last\" or \"next\".");
            };
        } else {
            amount = wholeNumber(n, "time-interval amount");
        }
        boolean includeCurrent = args.size() > 3 && args.get(3) instanceof Map<?, ?> opts
                && Boolean.TRUE.equals(opts.get("include-current") != null ? opts.get("include-current") : opts.get("include_current"));
        LocalDateTime current = unit.truncate(ctx.now(), ctx.firstDayOfWeek());
        LocalDateTime start;
        LocalDateTime end;
        if (amount == 0) {
            start = current;
            end = unit.plus(current, 1);
        } else if (amount < 0) {
            start = unit.plus(current, amount);
            end = includeCurrent ? unit.plus(current, 1) : current;
        } else {
            start = includeCurrent ? current : unit.plus(current, 1);
            end = unit.plus(current, amount + 1);
        }
        Typed col = expr(args.get(0));
        return range(rawColumn(args.get(0)), start, end, col.col());
    }

    private Sql relativeTimeInterval(List<?> args) {
        need(args, 5, "relative-time-interval");
        long value = wholeNumber(args.get(1), "relative-time-interval amount");
        TemporalUnit unit = intervalUnit(args.get(2));
        long offset = wholeNumber(args.get(3), "relative-time-interval offset");
        TemporalUnit offsetUnit = intervalUnit(args.get(4));
        LocalDateTime current = unit.truncate(ctx.now(), ctx.firstDayOfWeek());
        LocalDateTime start = value < 0 ? unit.plus(current, value) : unit.plus(current, 1);
        LocalDateTime end = value < 0 ? current : unit.plus(current, value + 1);
        start = offsetUnit.plus(start, offset);
        end = offsetUnit.plus(end, offset);
        Typed col = expr(args.get(0));
        return range(rawColumn(args.get(0)), start, end, col.col());
    }

    /** {@code [n, unit]} or {@code ["current"]}: now, moved by n units and truncated to the unit. */
    private LocalDateTime relativeDateTime(List<?> args, TemporalUnit columnUnit) {
        if (args.isEmpty() || "current".equals(args.get(0))) {
            TemporalUnit unit = columnUnit != null && columnUnit.truncates() ? columnUnit : null;
            return unit == null ? ctx.now() : unit.truncate(ctx.now(), ctx.firstDayOfWeek());
        }
        long amount = wholeNumber(args.get(0), "relative-datetime amount");
        TemporalUnit unit = args.size() > 1 ? intervalUnit(args.get(1)) : TemporalUnit.DAY;
        return unit.truncate(unit.plus(ctx.now(), amount), ctx.firstDayOfWeek());
    }

    private Sql stringFilter(String op, List<?> args) {
        // [op, field, value, opts] (legacy) or [op, {opts}, field, value, value...] (several values)
        Map<?, ?> opts = null;
        List<?> rest = args;
        if (!args.isEmpty() && args.get(0) instanceof Map<?, ?> m) {
            opts = m;
            rest = args.subList(1, args.size());
        } else if (!args.isEmpty() && args.get(args.size() - 1) instanceof Map<?, ?> m) {
            opts = m;
            rest = args.subList(0, args.size() - 1);
        }
        need(rest, 2, op);
        boolean caseSensitive = opts == null || !Boolean.FALSE.equals(opts.get("case-sensitive") != null
                ? opts.get("case-sensitive") : opts.get("case_sensitive"));
        Typed field = expr(rest.get(0));
        Sql subject = MbqlTypes.isText(field.type()) || MbqlTypes.ANY.equals(field.type()) ? field.sql() : d.toText(field.sql());
        if (!caseSensitive) {
            subject = Sql.format("LOWER(%s)", subject);
        }
        String likeOp = op.equals("does-not-contain") ? "contains" : op;
        List<Sql> tests = new ArrayList<>();
        for (Object value : rest.subList(1, rest.size())) {
            Sql pattern;
            if (value instanceof String s) {
                String escaped = s.replace("!", "!!").replace("%", "!%").replace("_", "!_");
                if (!caseSensitive) {
                    escaped = escaped.toLowerCase(Locale.ROOT);
                }
                pattern = Sql.param(switch (likeOp) {
                    case "starts-with" -> escaped + "%";
                    case "ends-with" -> "%" + escaped;
                    default -> "%" + escaped + "%";
                });
                tests.add(Sql.format("%s LIKE %s ESCAPE '!'", subject, pattern));
            } else {
                Sql v = expr(value).sql();
                List<Sql> parts = new ArrayList<>();
                if (!likeOp.equals("starts-with")) {
                    parts.add(Sql.param("%"));
                }
                parts.add(v);
                if (!likeOp.equals("ends-with")) {
                    parts.add(Sql.param("%"));
                }
                Sql p = d.concat(parts);
                tests.add(Sql.format("%s LIKE %s", subject, caseSensitive ? p : Sql.format("LOWER(%s)", p)));
            }
        }
        if (op.equals("does-not-contain")) {
            List<Sql> negated = new ArrayList<>();
            for (Sql t : tests) {
                negated.add(Sql.format("(NOT (%s) OR %s IS NULL)", t, field.sql()));
            }
            return negated.size() == 1 ? negated.get(0) : Sql.join(" AND ", negated).parenthesized();
        }
        return tests.size() == 1 ? tests.get(0).parenthesized() : Sql.join(" OR ", tests).parenthesized();
    }

    /** A literal compared with {@code against}, bound as the type the column needs. */
    private Sql value(Object v, Typed against) {
        if (v instanceof List<?> || v instanceof Map<?, ?>) {
            if (v instanceof List<?> l && !l.isEmpty() && "value".equals(l.get(0))) {
                return value(l.size() > 1 ? l.get(1) : null, against);
            }
            return expr(v).sql();
        }
        String type = against.type() == null ? MbqlTypes.ANY : against.type();
        Object bound = v;
        if (v instanceof String s) {
            if (MbqlTypes.isNumber(type)) {
                bound = parseNumber(s);
            } else if (MbqlTypes.isTemporal(type)) {
                Object t = parseTemporal(s);
                if (t != null) {
                    bound = MbqlTypes.isDateOnly(type) && t instanceof LocalDateTime ldt ? ldt.toLocalDate()
                            : !MbqlTypes.isDateOnly(type) && t instanceof LocalDate ld ? ld.atStartOfDay()
                            : MbqlTypes.isTimeZoned(type) && t instanceof LocalDateTime ldt ? ldt.atOffset(ZoneOffset.UTC) : t;
                }
            } else if (MbqlTypes.isa(type, MbqlTypes.BOOLEAN) && ("true".equalsIgnoreCase(s) || "false".equalsIgnoreCase(s))) {
                bound = Boolean.parseBoolean(s);
            } else if (MbqlTypes.isa(type, MbqlTypes.UUID) && "postgres".equals(d.engine())) {
                try {
                    bound = java.util.UUID.fromString(s);
                } catch (IllegalArgumentException notUuid) {
                    return Sql.param(s); // compared as text below
                }
            }
        } else if (v instanceof Number n) {
            bound = MbqlTypes.isText(type) ? String.valueOf(number(n)) : number(n);
        }
        return Sql.param(d.bindValue(bound));
    }

    private Sql numberParam(Object v) {
        if (!(v instanceof Number n)) {
            throw invalid("\"inside\" takes numbers for its bounds.");
        }
        return Sql.param(number(n));
    }

    // ------------------------------------------------------------------------------------------------ aggregations

    /** A compiled aggregation. */
    private record Agg(Sql sql, String name, String displayName, String baseType, String semanticType) {
    }

    private Agg aggregation(Object clause, int index) {
        if (!(clause instanceof List<?> l) || l.isEmpty() || !(l.get(0) instanceof String op)) {
            throw invalid("Unknown aggregation " + describe(clause) + ".");
        }
        if (op.equals("aggregation-options")) {
            Agg inner = aggregation(l.size() > 1 ? l.get(1) : null, index);
            Map<?, ?> opts = l.size() > 2 && l.get(2) instanceof Map<?, ?> m ? m : Map.of();
            String name = opts.get("name") instanceof String s && !s.isBlank() ? s : inner.name();
            String display = opts.get("display-name") instanceof String s && !s.isBlank() ? s
                    : opts.get("name") instanceof String s && !s.isBlank() ? s : inner.displayName();
            return new Agg(inner.sql(), name, display, inner.baseType(), inner.semanticType());
        }
        if (op.equals("metric")) {
            throw new IllegalStateException("The pass expand-metrics leaves no metric in an aggregation.");
        }
        List<?> args = l.subList(1, l.size());
        switch (op) {
            case "count" -> {
                if (args.isEmpty()) {
                    return new Agg(Sql.raw("COUNT(*)"), "count", "Count", MbqlTypes.BIG_INTEGER, "type/Quantity");
                }
                Typed t = expr(args.get(0));
                return new Agg(Sql.format("COUNT(%s)", t.sql()), "count", "Count of " + display(args.get(0)), MbqlTypes.BIG_INTEGER,
                        "type/Quantity");
            }
            case "cum-count" -> {
                Sql count = args.isEmpty() ? Sql.raw("COUNT(*)") : Sql.format("COUNT(%s)", expr(args.get(0)).sql());
                String display = args.isEmpty() ? "Cumulative count" : "Cumulative count of " + display(args.get(0));
                return new Agg(cumulative(count), "cum_count", display, MbqlTypes.BIG_INTEGER, "type/Quantity");
            }
            case "sum", "cum-sum", "min", "max" -> {
                need(args, 1, op);
                Typed t = expr(args.get(0));
                String semantic = t.col() == null || isKey(t.col().semanticType) ? null : t.col().semanticType;
                String type = MbqlTypes.ANY.equals(t.type()) ? MbqlTypes.FLOAT : t.type();
                return switch (op) {
                    case "sum" -> new Agg(Sql.format("SUM(%s)", t.sql()), "sum", "Sum of " + display(args.get(0)), type, semantic);
                    case "cum-sum" -> new Agg(cumulative(Sql.format("SUM(%s)", t.sql())), "sum",
                            "Cumulative sum of " + display(args.get(0)), type, semantic);
                    case "min" -> new Agg(Sql.format("MIN(%s)", t.sql()), "min", "Min of " + display(args.get(0)), t.type(), semantic);
                    default -> new Agg(Sql.format("MAX(%s)", t.sql()), "max", "Max of " + display(args.get(0)), t.type(), semantic);
                };
            }
            case "avg" -> {
                need(args, 1, op);
                Typed t = expr(args.get(0));
                return new Agg(Sql.format("AVG(%s)", numeric(t)), "avg", "Average of " + display(args.get(0)), MbqlTypes.FLOAT, null);
            }
            case "distinct" -> {
                need(args, 1, op);
                return new Agg(Sql.format("COUNT(DISTINCT %s)", expr(args.get(0)).sql()), "count",
                        "Distinct values of " + display(args.get(0)), MbqlTypes.BIG_INTEGER, "type/Quantity");
            }
            case "stddev" -> {
                need(args, 1, op);
                return new Agg(d.stddev(numeric(expr(args.get(0)))), "stddev", "Standard deviation of " + display(args.get(0)),
                        MbqlTypes.FLOAT, null);
            }
            case "var" -> {
                need(args, 1, op);
                return new Agg(d.variance(numeric(expr(args.get(0)))), "var", "Variance of " + display(args.get(0)),
                        MbqlTypes.FLOAT, null);
            }
            case "median" -> {
                need(args, 1, op);
                return new Agg(d.median(numeric(expr(args.get(0)))), "median", "Median of " + display(args.get(0)), MbqlTypes.FLOAT,
                        null);
            }
            case "percentile" -> {
                need(args, 2, op);
                if (!(args.get(1) instanceof Number p) || p.doubleValue() < 0 || p.doubleValue() > 1) {
                    throw invalid("A percentile is a number from 0 to 1.");
                }
                return new Agg(d.percentile(numeric(expr(args.get(0))), p.doubleValue()), "percentile",
                        number(p) + "th percentile of " + display(args.get(0)), MbqlTypes.FLOAT, null);
            }
            case "share" -> {
                need(args, 1, op);
                // a float division: MySQL divides exact numbers to 4 decimal places only
                Sql matching = d.toFloat(Sql.format("SUM(CASE WHEN %s THEN 1 ELSE 0 END)", filter(args.get(0))));
                return new Agg(Sql.format("(%s / NULLIF(COUNT(*), 0))", matching),
                        "share", "Share of rows matching condition", MbqlTypes.FLOAT, null);
            }
            case "count-where" -> {
                need(args, 1, op);
                return new Agg(Sql.format("SUM(CASE WHEN %s THEN 1 ELSE 0 END)", filter(args.get(0))), "count-where",
                        "Count of rows matching condition", MbqlTypes.BIG_INTEGER, "type/Quantity");
            }
            case "sum-where" -> {
                need(args, 2, op);
                Typed t = expr(args.get(0));
                return new Agg(Sql.format("SUM(CASE WHEN %s THEN %s ELSE 0 END)", filter(args.get(1)), t.sql()),
                        "sum_where_" + columnName(t, args.get(0)), "Sum of " + display(args.get(0)) + " matching condition",
                        MbqlTypes.ANY.equals(t.type()) ? MbqlTypes.FLOAT : t.type(), null);
            }
            case "distinct-where" -> {
                need(args, 2, op);
                return new Agg(Sql.format("COUNT(DISTINCT CASE WHEN %s THEN %s END)", filter(args.get(1)), expr(args.get(0)).sql()),
                        "distinct_where_" + columnName(expr(args.get(0)), args.get(0)),
                        "Distinct values of " + display(args.get(0)) + " matching condition", MbqlTypes.BIG_INTEGER, null);
            }
            case "+", "-", "*", "/" -> {
                need(args, 2, op);
                List<Sql> parts = new ArrayList<>();
                List<String> displays = new ArrayList<>();
                boolean integral = !op.equals("/");
                for (Object arg : args) {
                    Typed part;
                    String partDisplay;
                    if (arg instanceof List<?> al && !al.isEmpty() && (AGGREGATIONS.contains(String.valueOf(al.get(0)))
                            || Set.of("+", "-", "*", "/").contains(String.valueOf(al.get(0))))) {
                        Agg inner = aggregation(arg, index);
                        part = new Typed(inner.sql(), inner.baseType(), null);
                        partDisplay = inner.displayName();
                    } else {
                        part = expr(arg);
                        partDisplay = display(arg);
                    }
                    integral &= MbqlTypes.isInteger(part.type());
                    parts.add(op.equals("/") ? d.toFloat(part.sql()) : part.sql());
                    displays.add(partDisplay);
                }
                Sql sql;
                if (op.equals("/")) {
                    sql = parts.get(0);
                    for (Sql denominator : parts.subList(1, parts.size())) {
                        sql = Sql.format("(%s / NULLIF(%s, 0))", sql, denominator);
                    }
                } else {
                    sql = Sql.join(" " + op + " ", parts).parenthesized();
                }
                String symbol = switch (op) {
                    case "*" -> "×";
                    case "/" -> "÷";
                    default -> op;
                };
                return new Agg(sql, "expression", String.join(" " + symbol + " ", displays),
                        integral ? MbqlTypes.BIG_INTEGER : MbqlTypes.FLOAT, null);
            }
            default -> throw invalid("Unknown aggregation \"" + op + "\".");
        }
    }

    private Sql numeric(Typed t) {
        return MbqlTypes.isInteger(t.type()) ? d.toFloat(t.sql()) : t.sql();
    }

    private static boolean isKey(String semanticType) {
        return "type/PK".equals(semanticType) || "type/FK".equals(semanticType);
    }

    private String columnName(Typed t, Object clause) {
        return t.col() != null ? t.col().name : "expression";
    }

    /**
     * A running total over the groups, as Metabase computes cumulative aggregations: summed over the rows ordered by
     * the query's order, partitioned by every breakout but the finest date (or the last one). Without breakouts it
     * is the plain aggregate.
     */
    private Sql cumulative(Sql aggregate) {
        if (breakoutRefs.isEmpty()) {
            return aggregate;
        }
        int main = breakoutRefs.size() - 1;
        TemporalUnit finest = null;
        for (int i = 0; i < breakoutCols.size(); i++) {
            TemporalUnit u = breakoutCols.get(i).unit;
            if (u != null && u.truncates() && (finest == null || u.ordinal() < finest.ordinal())) {
                finest = u;
                main = i;
            }
        }
        List<Sql> partition = new ArrayList<>();
        for (int i = 0; i < breakoutRefs.size(); i++) {
            if (i != main) {
                partition.add(breakoutRefs.get(i));
            }
        }
        List<Sql> orderBy = new ArrayList<>();
        boolean mainOrdered = false;
        for (OrderEntry e : order) {
            if (e.breakout >= 0) {
                orderBy.add(Sql.format("%s " + e.direction, breakoutRefs.get(e.breakout)));
                mainOrdered |= e.breakout == main;
            }
        }
        if (!mainOrdered) {
            orderBy.add(Sql.format("%s ASC", breakoutRefs.get(main)));
        }
        Sql over = partition.isEmpty() ? Sql.format("ORDER BY %s", Sql.join(", ", orderBy))
                : Sql.format("PARTITION BY %s ORDER BY %s", Sql.join(", ", partition), Sql.join(", ", orderBy));
        return Sql.format("SUM(%s) OVER (%s ROWS UNBOUNDED PRECEDING)", aggregate, over);
    }

    /** How an aggregation's argument reads in a display name ("Total", "Product → Price", "my expression"). */
    private String display(Object clause) {
        if (clause instanceof List<?> l && !l.isEmpty() && ("field".equals(l.get(0)) || "expression".equals(l.get(0)))) {
            return withoutNest(() -> column(l).displayName);
        }
        if (clause instanceof List<?> l && !l.isEmpty() && Set.of("+", "-", "*", "/").contains(String.valueOf(l.get(0)))) {
            List<String> parts = new ArrayList<>();
            for (Object arg : l.subList(1, l.size())) {
                parts.add(display(arg));
            }
            String symbol = switch (String.valueOf(l.get(0))) {
                case "*" -> "×";
                case "/" -> "÷";
                default -> String.valueOf(l.get(0));
            };
            return String.join(" " + symbol + " ", parts);
        }
        if (clause instanceof Number || clause instanceof String) {
            return String.valueOf(clause);
        }
        return "Custom expression";
    }

    // ------------------------------------------------------------------------------------------------ nesting

    /**
     * The inner SELECT of a nested grouped stage: the breakouts and every column the outer part reads, under short
     * aliases. While it is active, every column reference compiles to the inner column.
     */
    private final class Nest {
        final List<Sql> items = new ArrayList<>();
        final List<String> aliases = new ArrayList<>();
        final Map<String, String> byText = new LinkedHashMap<>();

        Sql column(String text) {
            String alias = byText.get(text);
            if (alias == null) {
                alias = "c" + (byText.size() + 1);
                byText.put(text, alias);
                items.add(Sql.raw(text + " AS " + d.quote(alias)));
                aliases.add(alias);
            }
            return Sql.raw(d.quote(SOURCE) + "." + d.quote(alias));
        }
    }

    /** A column of a table or subquery by its qualified name — the inner column while nesting. */
    private Sql leaf(String text) {
        return nest == null ? Sql.raw(text) : nest.column(text);
    }

    private <T> T withoutNest(Supplier<T> body) {
        Nest saved = nest;
        nest = null;
        try {
            return body.get();
        } finally {
            nest = saved;
        }
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private Table requireTable(Object id) {
        if (!(id instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
            throw invalid("Invalid source table " + describe(id) + ".");
        }
        Table t = ctx.metadata().table(n.longValue());
        if (t == null) {
            throw invalid("Table " + n.longValue() + " does not exist.");
        }
        return t;
    }

    private Field requireField(Number id) {
        Field f = ctx.metadata().field(id.longValue());
        if (f == null) {
            throw invalid("Field " + id.longValue() + " does not exist.");
        }
        return f;
    }

    private static Object number(Number n) {
        if (n instanceof Double dbl && dbl == Math.rint(dbl) && Math.abs(dbl) < 1e15) {
            return dbl.longValue();
        }
        if (n instanceof Integer || n instanceof Short || n instanceof Byte) {
            return n.longValue();
        }
        if (n instanceof BigInteger b) {
            return b.bitLength() < 63 ? (Object) b.longValue() : new BigDecimal(b);
        }
        if (n instanceof Float f) {
            return f.doubleValue();
        }
        return n;
    }

    private static boolean integral(Number n) {
        return number(n) instanceof Long || n instanceof BigInteger;
    }

    private static Object parseNumber(String s) {
        try {
            BigDecimal b = new BigDecimal(s.trim());
            if (b.scale() <= 0 && b.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) < 0) {
                return b.longValueExact();
            }
            return b.doubleValue();
        } catch (NumberFormatException | ArithmeticException e) {
            throw invalid("\"" + s + "\" is not a number.");
        }
    }

    /** A date or date-time literal ({@code 2024-01-31}, {@code 2024-01-31T10:00:00}, with an offset or Z). */
    private static Object temporalLiteral(Object v) {
        if (v instanceof String s) {
            Object t = parseTemporal(s);
            if (t != null) {
                return t;
            }
        }
        throw invalid(describe(v) + " is not a date.");
    }

    static Object parseTemporal(String s) {
        String text = s.trim();
        try {
            if (DATE.matcher(text).matches()) {
                return LocalDate.parse(text);
            }
            String iso = text.length() > 10 && text.charAt(10) == ' ' ? text.substring(0, 10) + "T" + text.substring(11) : text;
            if (iso.endsWith("Z") || iso.matches(".*[+-]\\d{2}:?\\d{2}$")) {
                return OffsetDateTime.parse(iso).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
            }
            return LocalDateTime.parse(iso);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static LocalDateTime asDateTime(Object t) {
        if (t instanceof LocalDate date) {
            return date.atStartOfDay();
        }
        return (LocalDateTime) t;
    }

    private static void need(List<?> args, int count, String op) {
        if (args.size() < count) {
            throw invalid("\"" + op + "\" needs " + count + " argument" + (count == 1 ? "" : "s") + ".");
        }
    }

    private static List<?> list(Object value, String what) {
        if (value == null) {
            return List.of();
        }
        if (value instanceof List<?> l) {
            return l;
        }
        throw invalid("\"" + what + "\" must be a list.");
    }

    static List<Object> ref(Object... parts) {
        List<Object> out = new ArrayList<>(parts.length);
        for (Object p : parts) {
            out.add(p instanceof Map<?, ?> m ? new LinkedHashMap<>(m) : p);
        }
        return out;
    }

    private static List<Object> withRefOption(List<Object> fieldRef, String key, Object value) {
        List<Object> out = new ArrayList<>(fieldRef);
        if (out.get(0).equals("expression")) {
            if (out.size() < 3) {
                out.add(new LinkedHashMap<>());
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> opts = out.get(2) instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m) : new LinkedHashMap<>();
        opts.put(key, value);
        out.set(2, opts);
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }

    private static String describe(Object value) {
        String text = value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
        return text.length() > 80 ? text.substring(0, 80) + "…" : text;
    }

    static QueryFailure invalid(String message) {
        return new QueryFailure(QueryFailure.Type.INVALID_QUERY, message);
    }

    /** Unique names, compared without case, shortened to a length limit with a hash suffix. */
    static final class Names {
        private final int maxLength;
        private final Set<String> used = new HashSet<>();

        Names(int maxLength) {
            this.maxLength = maxLength;
        }

        String unique(String desired) {
            String base = shorten(desired == null || desired.isEmpty() ? "column" : desired);
            String candidate = base;
            for (int n = 2; !used.add(candidate.toLowerCase(Locale.ROOT)); n++) {
                candidate = shorten(base + "_" + n);
            }
            return candidate;
        }

        private String shorten(String name) {
            if (name.length() <= maxLength) {
                return name;
            }
            String hash = Integer.toHexString(name.hashCode());
            return name.substring(0, maxLength - hash.length() - 1) + "_" + hash;
        }
    }

    /** A column as a stage sees it: its SQL, types, names and where it comes from. */
    static final class Col {
        Sql sql;
        /** Before its temporal unit was applied (date ranges compare this). */
        Sql raw;
        String baseType;
        String effectiveType;
        String semanticType;
        Field field;
        Long tableId;
        String name;
        String displayName;
        /** The desired SQL alias when selected. */
        String alias;
        List<Object> fieldRef;
        String joinAlias;
        Long fkFieldId;
        String implicitAlias;
        TemporalUnit unit;
        TemporalUnit upstreamUnit;
        Map<String, Object> binningInfo;
        boolean expression;

        OutColumn toOut(String source) {
            OutColumn o = new OutColumn();
            o.displayName = displayName;
            o.baseType = baseType;
            o.effectiveType = effectiveType;
            o.semanticType = semanticType;
            o.fieldRef = fieldRef;
            o.source = source;
            o.field = field;
            o.tableId = tableId;
            o.joinAlias = joinAlias;
            o.fkFieldId = fkFieldId;
            o.implicitAlias = implicitAlias;
            o.unit = unit;
            o.binningInfo = binningInfo;
            return o;
        }
    }
}
