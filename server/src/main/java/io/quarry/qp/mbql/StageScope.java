package io.quarry.qp.mbql;

import static io.quarry.qp.mbql.Clauses.describe;
import static io.quarry.qp.mbql.Clauses.invalid;

import io.quarry.driver.Sql;
import io.quarry.driver.SqlDialect;
import io.quarry.qp.mbql.StageCompiler.Stage;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What one stage's SQL compilers share: the tables, source query and joins in its FROM, the implicit joins added
 * while columns are compiled, its named expressions, the nesting of a grouped stage, and the compilers themselves.
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

    Table table;
    String tableSql;
    Stage source;
    final Map<String, Join> joins = new LinkedHashMap<>();
    final Map<String, Implicit> implicitJoins = new LinkedHashMap<>();
    final Map<String, Object> expressions = new LinkedHashMap<>();
    final Set<String> expanding = new HashSet<>();
    Nest nest;
    List<Sql> breakoutRefs = List.of();
    List<Col> breakoutCols = List.of();
    List<OrderEntry> order = List.of();

    StageScope(MbqlCompiler.Context ctx) {
        this.ctx = ctx;
        this.d = ctx.dialect();
        this.columnCompiler = new ColumnCompiler(this);
        this.temporalBucketing = new TemporalBucketing(this);
        this.columnBinner = new ColumnBinner(this);
        this.expressionCompiler = new ExpressionCompiler(this);
        this.filterCompiler = new FilterCompiler(this);
        this.aggregationCompiler = new AggregationCompiler(this);
    }

    record Join(String alias, String keyword, Table table, String tableSql, Stage query, Object fields, Sql[] condition) {
    }

    record Implicit(String alias, Table target, Field pk, Sql fk) {
    }

    record OrderEntry(Sql sql, String direction, int breakout, int aggregation) {
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
     * The inner SELECT of a nested grouped stage: the breakouts and every column the outer part reads, under short
     * aliases. While it is active, every column reference compiles to the inner column.
     */
    final class Nest {
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
            return Sql.raw(d.quote(StageCompiler.SOURCE) + "." + d.quote(alias));
        }
    }

    /** A column of a table or subquery by its qualified name — the inner column while nesting. */
    Sql leaf(String text) {
        return nest == null ? Sql.raw(text) : nest.column(text);
    }

    <T> T withoutNest(Supplier<T> body) {
        Nest saved = nest;
        nest = null;
        try {
            return body.get();
        } finally {
            nest = saved;
        }
    }

    Table requireTable(Object id) {
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
