package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.driver.Sql;
import io.quarry.driver.TemporalUnit;
import io.quarry.qp.mbql.StageScope.Grouping;
import io.quarry.qp.mbql.StageScope.OrderEntry;
import java.time.DayOfWeek;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Cumulative aggregations ({@code cum-sum}, {@code cum-count}) in {@link AggregationCompiler}: a running total, as a
 * window function over the stage's grouping (breakouts and order), of the plain aggregate. The breakouts here are the
 * columns {@code "b1"}, {@code "b2"}, … of a grouping built by hand, over the shop's ORDERS.
 */
class CumulativeAggregationsTest {
    private static final String TOTAL = "\"PUBLIC\".\"ORDERS\".\"TOTAL\"";
    private static final String RUNNING = " ROWS UNBOUNDED PRECEDING)";

    /** The scope grouped by breakouts of these units (null: not a date), ordered by {@code order}. */
    private static StageScope grouped(List<TemporalUnit> units, List<OrderEntry> order) {
        List<Sql> refs = new ArrayList<>();
        List<Col> cols = new ArrayList<>();
        for (TemporalUnit unit : units) {
            refs.add(breakout(refs.size()));
            Col col = new Col();
            col.unit = unit;
            cols.add(col);
        }
        return PassTesting.tableScope(FakeMetadata.shop(), 2, DayOfWeek.SUNDAY).withGrouping(new Grouping(refs, cols, order));
    }

    private static Sql breakout(int index) {
        return Sql.raw("\"b" + (index + 1) + "\"");
    }

    private static OrderEntry byBreakout(int index, String direction) {
        return new OrderEntry(breakout(index), direction, index, -1);
    }

    private static AggregationCompiler.Agg aggregation(StageScope scope, String clause) {
        return scope.aggregationCompiler.aggregation(PassTesting.json(clause), 0);
    }

    private static String sql(StageScope scope, String clause) {
        return aggregation(scope, clause).sql().text();
    }

    @Test
    void aCumulativeSumIsTheRunningSumOverTheBreakout() {
        AggregationCompiler.Agg sum = aggregation(grouped(List.of(TemporalUnit.MONTH), List.of()), "[\"cum-sum\", [\"field\", 23, null]]");
        assertEquals("SUM(SUM(" + TOTAL + ")) OVER (ORDER BY \"b1\" ASC" + RUNNING, sum.sql().text());
        assertEquals("sum", sum.name());
        assertEquals("Cumulative sum of Total", sum.displayName());
        assertEquals("type/Float", sum.baseType());
    }

    @Test
    void aCumulativeCountIsTheRunningSumOfTheCounts() {
        StageScope scope = grouped(List.of(TemporalUnit.MONTH), List.of());
        AggregationCompiler.Agg rows = aggregation(scope, "[\"cum-count\"]");
        assertEquals("SUM(COUNT(*)) OVER (ORDER BY \"b1\" ASC" + RUNNING, rows.sql().text());
        assertEquals("cum_count", rows.name());
        assertEquals("Cumulative count", rows.displayName());
        assertEquals("type/BigInteger", rows.baseType());
        AggregationCompiler.Agg values = aggregation(scope, "[\"cum-count\", [\"field\", 23, null]]");
        assertEquals("SUM(COUNT(" + TOTAL + ")) OVER (ORDER BY \"b1\" ASC" + RUNNING, values.sql().text());
        assertEquals("Cumulative count of Total", values.displayName());
    }

    @Test
    void withoutBreakoutsTheyAreThePlainAggregates() {
        StageScope scope = grouped(List.of(), List.of());
        assertEquals("SUM(" + TOTAL + ")", sql(scope, "[\"cum-sum\", [\"field\", 23, null]]"));
        assertEquals("COUNT(*)", sql(scope, "[\"cum-count\"]"));
        assertEquals("COUNT(" + TOTAL + ")", sql(scope, "[\"cum-count\", [\"field\", 23, null]]"));
    }

    @Test
    void theRunIsAlongTheFinestDateAndPartitionedByTheOtherBreakouts() {
        // no date: along the last breakout
        assertEquals("SUM(COUNT(*)) OVER (PARTITION BY \"b1\" ORDER BY \"b2\" ASC" + RUNNING,
                sql(grouped(Arrays.asList(null, null), List.of()), "[\"cum-count\"]"));
        // a date: along it, wherever it is
        assertEquals("SUM(COUNT(*)) OVER (PARTITION BY \"b2\", \"b3\" ORDER BY \"b1\" ASC" + RUNNING,
                sql(grouped(Arrays.asList(TemporalUnit.YEAR, null, null), List.of()), "[\"cum-count\"]"));
        // two dates: along the finer one
        assertEquals("SUM(COUNT(*)) OVER (PARTITION BY \"b1\" ORDER BY \"b2\" ASC" + RUNNING,
                sql(grouped(List.of(TemporalUnit.YEAR, TemporalUnit.MONTH), List.of()), "[\"cum-count\"]"));
        // an extracted unit (month of year) is a number, not a date to run along
        assertEquals("SUM(COUNT(*)) OVER (PARTITION BY \"b1\" ORDER BY \"b2\" ASC" + RUNNING,
                sql(grouped(Arrays.asList(TemporalUnit.MONTH_OF_YEAR, null), List.of()), "[\"cum-count\"]"));
    }

    @Test
    void theRunFollowsTheOrderOfTheBreakouts() {
        // the stage's order of its breakouts, in its directions; the running breakout last when the order omits it
        assertEquals("SUM(COUNT(*)) OVER (ORDER BY \"b1\" DESC" + RUNNING,
                sql(grouped(List.of(TemporalUnit.MONTH), List.of(byBreakout(0, "DESC"))), "[\"cum-count\"]"));
        assertEquals("SUM(COUNT(*)) OVER (PARTITION BY \"b2\" ORDER BY \"b2\" DESC, \"b1\" ASC" + RUNNING,
                sql(grouped(Arrays.asList(TemporalUnit.MONTH, null), List.of(byBreakout(1, "DESC"))), "[\"cum-count\"]"));
        // an order by an aggregation or by another expression is no part of the window
        List<OrderEntry> byOthers = List.of(new OrderEntry(null, "DESC", -1, 0), new OrderEntry(Sql.raw("\"x\""), "DESC", -1, -1),
                byBreakout(0, "ASC"));
        assertEquals("SUM(COUNT(*)) OVER (ORDER BY \"b1\" ASC" + RUNNING,
                sql(grouped(List.of(TemporalUnit.MONTH), byOthers), "[\"cum-count\"]"));
    }

    @Test
    void theCompilerRunsThemOverTheBreakoutsOfANestedStageInItsOrder() {
        String sql = MbqlCompilerTest.sql("{\"source-table\": 2, \"aggregation\": [[\"cum-sum\", [\"field\", 23, null]]], \"breakout\":"
                + " [[\"field\", 25, {\"temporal-unit\": \"month\"}]], \"order-by\": [[\"desc\", [\"field\", 25, {\"temporal-unit\":"
                + " \"month\"}]]]}");
        assertTrue(sql.startsWith("SELECT \"source\".\"b1\" AS \"CREATED_AT\", SUM(SUM(\"source\".\"c1\")) OVER (ORDER BY"
                + " \"source\".\"b1\" DESC" + RUNNING + " AS \"sum\" FROM (SELECT DATE_TRUNC('MONTH', "), sql);
        assertTrue(sql.endsWith(" GROUP BY \"source\".\"b1\" ORDER BY \"source\".\"b1\" DESC"), sql);
        // a cumulative aggregation inside arithmetic runs too
        String doubled = MbqlCompilerTest.sql("{\"source-table\": 2, \"aggregation\": [[\"*\", [\"cum-count\"], 2]], \"breakout\":"
                + " [[\"field\", 25, {\"temporal-unit\": \"month\"}]]}");
        assertTrue(doubled.contains("(SUM(COUNT(*)) OVER (ORDER BY \"source\".\"b1\" ASC" + RUNNING + " * ?) AS \"expression\""), doubled);
    }
}
