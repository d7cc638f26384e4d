package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.driver.Sql;
import io.quarry.driver.TemporalUnit;
import io.quarry.qp.QueryFailure;
import io.quarry.warehouse.Table;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The SQL compilers of one stage, each on its own, over a scope whose FROM is the shop's ORDERS table. */
class StageCompilersTest {
    private static final String TOTAL = "\"PUBLIC\".\"ORDERS\".\"TOTAL\"";
    private StageScope scope;

    @BeforeEach
    void ordersScope() {
        MbqlCompiler.Context context = PassTesting.context(MbqlReferences.NONE);
        Table orders = context.metadata().table(2);
        scope = StageScope.ofTable(context, orders);
    }

    private static String message(Runnable body) {
        return assertThrows(QueryFailure.class, body::run).getMessage();
    }

    @Nested
    class Columns {
        @Test
        void aFieldOfTheTableIsItsQualifiedColumn() {
            Col total = scope.columnCompiler.column(PassTesting.json("[\"field\", 23, null]"));
            assertEquals(TOTAL, total.sql.text());
            assertEquals("TOTAL", total.alias);
        }

        @Test
        void aFieldThroughAForeignKeyAddsOneImplicitJoin() {
            // The scope is immutable: the implicit joins are collected from the clauses first, then the columns compile.
            scope = new ImplicitJoins().collect(scope, List.of(PassTesting.json("[\"field\", 12, {\"source-field\": 21}]"),
                    PassTesting.json("[\"field\", 11, {\"source-field\": 21}]")));
            scope.columnCompiler.column(PassTesting.json("[\"field\", 12, {\"source-field\": 21}]"));
            scope.columnCompiler.column(PassTesting.json("[\"field\", 11, {\"source-field\": 21}]"));
            assertEquals(List.of("PRODUCTS__via__PRODUCT_ID"), List.copyOf(scope.implicitJoins.keySet()));
        }

        @Test
        void unknownExpressionsAndForeignFieldsFail() {
            assertEquals("No expression named \"x\".", message(() -> scope.columnCompiler.column(PassTesting.json("[\"expression\", \"x\"]"))));
            assertEquals("Field 31 is not in a table of this query.",
                    message(() -> scope.columnCompiler.column(PassTesting.json("[\"field\", 31, null]"))));
        }
    }

    @Nested
    class BucketingAndBinning {
        @Test
        void aTemporalUnitTruncatesAndKeepsTheRawColumnForRanges() {
            Col month = scope.columnCompiler.column(PassTesting.json("[\"field\", 25, {\"temporal-unit\": \"month\"}]"));
            assertEquals(TemporalUnit.MONTH, month.unit);
            assertEquals("\"PUBLIC\".\"ORDERS\".\"CREATED_AT\"", month.raw.text());
            assertTrue(month.displayName.endsWith(": Month"), month.displayName);
        }

        @Test
        void onlyDatesBucketAndOnlyNumbersBin() {
            assertEquals("The column TOTAL is not a date or time: it can't be grouped by month.",
                    message(() -> scope.columnCompiler.column(PassTesting.json("[\"field\", 23, {\"temporal-unit\": \"month\"}]"))));
            assertEquals("The column CREATED_AT is not a number: it can't be binned.", message(() -> scope.columnCompiler.column(
                    PassTesting.json("[\"field\", 25, {\"binning\": {\"strategy\": \"default\"}}]"))));
        }
    }

    @Nested
    class Expressions {
        @Test
        void arithmeticBindsItsLiterals() {
            Typed t = scope.expressionCompiler.expr(PassTesting.json("[\"+\", [\"field\", 23, null], 1]"));
            assertEquals("(" + TOTAL + " + ?)", t.sql().text());
            assertEquals(List.of(1L), t.sql().params());
        }

        @Test
        void aggregationsAreNoExpressions() {
            assertEquals("The aggregation \"sum\" can only be used in \"aggregation\".",
                    message(() -> scope.expressionCompiler.expr(PassTesting.json("[\"sum\", [\"field\", 23, null]]"))));
        }
    }

    @Nested
    class Filters {
        @Test
        void aComparisonBindsItsValue() {
            Sql sql = scope.filterCompiler.filter(PassTesting.json("[\">\", [\"field\", 23, null], 5]"));
            assertEquals("(" + TOTAL + " > ?)", sql.text());
            assertEquals(List.of(5L), sql.params());
        }

        @Test
        void unknownFiltersFail() {
            assertEquals("Unknown filter \"bogus\".", message(() -> scope.filterCompiler.filter(PassTesting.json("[\"bogus\", 1]"))));
        }
    }

    @Nested
    class Aggregations {
        @Test
        void aSumIsNamedAfterItsColumn() {
            AggregationCompiler.Agg sum = scope.aggregationCompiler.aggregation(PassTesting.json("[\"sum\", [\"field\", 23, null]]"), 0);
            assertEquals("SUM(" + TOTAL + ")", sum.sql().text());
            assertEquals("sum", sum.name());
            assertTrue(sum.displayName().startsWith("Sum of "), sum.displayName());
        }

        @Test
        void aCumulativeSumWithoutBreakoutsIsThePlainSum() {
            AggregationCompiler.Agg sum = scope.aggregationCompiler.aggregation(PassTesting.json("[\"cum-sum\", [\"field\", 23, null]]"), 0);
            assertEquals("SUM(" + TOTAL + ")", sum.sql().text());
        }
    }
}
