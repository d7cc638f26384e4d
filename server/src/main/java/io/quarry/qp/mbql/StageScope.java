package io.quarry.qp.mbql;

import static io.quarry.qp.mbql.Clauses.describe;
import static io.quarry.qp.mbql.Clauses.invalid;

import io.quarry.driver.Sql;
import io.quarry.driver.SqlDialect;
import io.quarry.qp.mbql.StageCompiler.Stage;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one stage's SQL compilers read, fixed before they run: the table or source query and the joins in its FROM,
 * the implicit joins (collected from the stage's clauses by {@link ImplicitJoins} before any SQL is generated), its
 * named expressions and, for a grouped stage, its breakouts and order. A scope never changes: a compiler that needs a
 * different view (a join's condition seeing only the joins before it, an expression being expanded, the inner SELECT
 * of a nested grouped stage) gets a derived scope from one of the {@code with...} methods. The only thing that
 * accumulates while compiling is the inner SELECT of a nested stage, collected by the explicit {@link Nest} a nested
 * scope carries.
 */
final class StageScope {
    final MbqlCompiler.Context ctx;
    final SqlDialect d;
    final ColumnCompiler columnCompiler;
    final TemporalBucketing temporalBucketing;
    final ColumnBinner columnBinner;
    final ExpressionCompiler expressionCompiler;
    final FilterCompiler filterCompiler;
    final AggregationCompiler aggregationCompiler;

    /** The stage's table (then {@code tableSql} is its qualified name), or null when it reads {@code source}. */
    final Table table;
    final String tableSql;
    final Stage source;
    final Map<String, Join> joins;
    final Map<String, Implicit> implicitJoins;
    final Map<String, Object> expressions;
    /** The expressions being expanded, innermost last: one referring to itself fails. */
    final Set<String> expanding;
    /** The inner SELECT being collected, while compiling the outer part of a nested grouped stage; else null. */
    final Nest nest;
    final Grouping grouping;
    /** This scope without its nest (itself when it has none). */
    private final StageScope unnested;

    private StageScope(MbqlCompiler.Context ctx, Table table, String tableSql, Stage source, Map<String, Join> joins,
                       Map<String, Implicit> implicitJoins, Map<String, Object> expressions, Set<String> expanding,
                       Nest nest, Grouping grouping, StageScope unnested) {
        this.ctx = ctx;
        this.d = ctx.dialect();
        this.table = table;
        this.tableSql = tableSql;
        this.source = source;
        this.joins = Collections.unmodifiableMap(new LinkedHashMap<>(joins));
        this.implicitJoins = Collections.unmodifiableMap(new LinkedHashMap<>(implicitJoins));
        this.expressions = Collections.unmodifiableMap(new LinkedHashMap<>(expressions));
        this.expanding = Collections.unmodifiableSet(new LinkedHashSet<>(expanding));
        this.nest = nest;
        this.grouping = grouping;
        this.unnested = nest == null ? this : unnested;
        this.columnCompiler = new ColumnCompiler(this);
        this.temporalBucketing = new TemporalBucketing(this);
        this.columnBinner = new ColumnBinner(this);
        this.expressionCompiler = new ExpressionCompiler(this);
        this.filterCompiler = new FilterCompiler(this);
        this.aggregationCompiler = new AggregationCompiler(this);
    }

    /** A stage reading a table. */
    static StageScope ofTable(MbqlCompiler.Context ctx, Table table) {
        return new StageScope(ctx, table, ctx.dialect().qualify(table.schemaName, table.name), null, Map.of(), Map.of(),
                Map.of(), Set.of(), null, Grouping.NONE, null);
    }

    /** A stage reading the result of its source query. */
    static StageScope ofSource(MbqlCompiler.Context ctx, Stage source) {
        return new StageScope(ctx, null, null, source, Map.of(), Map.of(), Map.of(), Set.of(), null, Grouping.NONE, null);
    }

    StageScope withExpressions(Map<String, Object> named) {
        StageScope flat = nest == null ? null : unnested.withExpressions(named);
        return new StageScope(ctx, table, tableSql, source, joins, implicitJoins, named, expanding, nest, grouping, flat);
    }

    /** This scope with one more join after the others. */
    StageScope withJoin(Join join) {
        Map<String, Join> more = new LinkedHashMap<>(joins);
        more.put(join.alias(), join);
        StageScope flat = nest == null ? null : unnested.withJoin(join);
        return new StageScope(ctx, table, tableSql, source, more, implicitJoins, expressions, expanding, nest, grouping, flat);
    }

    StageScope withImplicitJoins(Map<String, Implicit> implicit) {
        StageScope flat = nest == null ? null : unnested.withImplicitJoins(implicit);
        return new StageScope(ctx, table, tableSql, source, joins, implicit, expressions, expanding, nest, grouping, flat);
    }

    /** This scope while the expression {@code name} is expanded. */
    StageScope expanding(String name) {
        Set<String> more = new LinkedHashSet<>(expanding);
        more.add(name);
        StageScope flat = nest == null ? null : unnested.expanding(name);
        return new StageScope(ctx, table, tableSql, source, joins, implicitJoins, expressions, more, nest, grouping, flat);
    }

    /** This scope reading the breakouts and order of a grouped stage (cumulative aggregations follow them). */
    StageScope withGrouping(Grouping g) {
        StageScope flat = nest == null ? null : unnested.withGrouping(g);
        return new StageScope(ctx, table, tableSql, source, joins, implicitJoins, expressions, expanding, nest, g, flat);
    }

    /** This scope compiling every column reference to a column of {@code inner}, the inner SELECT it collects. */
    StageScope nested(Nest inner) {
        return new StageScope(ctx, table, tableSql, source, joins, implicitJoins, expressions, expanding, inner, grouping,
                unnested);
    }

    /** This scope with column references compiled to the columns themselves, not the inner SELECT's. */
    StageScope unnested() {
        return unnested;
    }

    record Join(String alias, String keyword, Table table, String tableSql, Stage query, Object fields, Object condition) {
    }

    record Implicit(String alias, Table target, Field pk, Sql fk) {
    }

    record OrderEntry(Sql sql, String direction, int breakout, int aggregation) {
    }

    /** How a grouped stage's breakouts are referred to, their columns, and the stage's order. */
    record Grouping(List<Sql> breakoutRefs, List<Col> breakoutCols, List<OrderEntry> order) {
        static final Grouping NONE = new Grouping(List.of(), List.of(), List.of());

        Grouping {
            breakoutRefs = List.copyOf(breakoutRefs);
            breakoutCols = List.copyOf(breakoutCols);
            order = List.copyOf(order);
        }
    }

    List<Field> visibleFields(long tableId) {
        List<Field> visible = new ArrayList<>();
        for (Field f : ctx.metadata().fields(tableId)) {
            if (f.active && f.parentId == null && !"sensitive".equals(f.visibilityType) && !"retired".equals(f.visibilityType)) {
                visible.add(f);
            }
        }
        return visible;
    }

    /**
     * The inner SELECT of a nested grouped stage, collected while its outer part compiles: the breakouts and every
     * column the outer part reads, under short aliases. A nested scope compiles every column reference to the inner
     * column this adds.
     */
    static final class Nest {
        private final SqlDialect d;
        private final List<Sql> items = new ArrayList<>();
        private final Map<String, String> byText = new LinkedHashMap<>();

        Nest(SqlDialect d, List<Sql> breakouts) {
            this.d = d;
            for (int i = 0; i < breakouts.size(); i++) {
                items.add(Sql.format("%s AS " + d.quote(breakoutAlias(i)), breakouts.get(i)));
            }
        }

        /** How the outer part refers to the breakout at {@code index}. */
        Sql breakout(int index) {
            return Sql.raw(d.quote(StageCompiler.SOURCE) + "." + d.quote(breakoutAlias(index)));
        }

        private static String breakoutAlias(int index) {
            return "b" + (index + 1);
        }

        Sql column(String text) {
            String alias = byText.get(text);
            if (alias == null) {
                alias = "c" + (byText.size() + 1);
                byText.put(text, alias);
                items.add(Sql.raw(text + " AS " + d.quote(alias)));
            }
            return Sql.raw(d.quote(StageCompiler.SOURCE) + "." + d.quote(alias));
        }

        /** The inner SELECT's items so far. */
        List<Sql> items() {
            return List.copyOf(items);
        }
    }

    /** A column of a table or subquery by its qualified name — the inner column while nesting. */
    Sql leaf(String text) {
        return nest == null ? Sql.raw(text) : nest.column(text);
    }

    Table requireTable(Object id) {
        return requireTable(ctx, id);
    }

    static Table requireTable(MbqlCompiler.Context ctx, Object id) {
        if (!(id instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
            throw invalid("Invalid source table " + describe(id) + ".");
        }
        Table t = ctx.metadata().table(n.longValue());
        if (t == null) {
            throw invalid("Table " + n.longValue() + " does not exist.");
        }
        return t;
    }

    Field requireField(Number id) {
        Field f = ctx.metadata().field(id.longValue());
        if (f == null) {
            throw invalid("Field " + id.longValue() + " does not exist.");
        }
        return f;
    }
}
