package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.qp.QueryFailure;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The pre-pass that finds a stage's implicit joins before its SQL is generated, over the shop's ORDERS table. */
class ImplicitJoinsTest {
    private static final Object PEOPLE_NAME = PassTesting.json("[\"field\", 31, {\"source-field\": 22}]");
    private static final Object PRODUCT_CATEGORY = PassTesting.json("[\"field\", 12, {\"source-field\": 21}]");
    private StageScope orders;

    @BeforeEach
    void ordersScope() {
        MbqlCompiler.Context context = PassTesting.context(MbqlReferences.NONE);
        orders = StageScope.ofTable(context, context.metadata().table(2));
    }

    @Test
    void joinsComeInTheOrderTheClausesAreReadOnceEach() {
        StageScope scope = new ImplicitJoins().collect(orders, List.of(PRODUCT_CATEGORY, PEOPLE_NAME, PRODUCT_CATEGORY));
        assertEquals(List.of("PRODUCTS__via__PRODUCT_ID", "PEOPLE__via__USER_ID"), List.copyOf(scope.implicitJoins.keySet()));
        assertEquals("\"PUBLIC\".\"ORDERS\".\"PRODUCT_ID\"", scope.implicitJoins.get("PRODUCTS__via__PRODUCT_ID").fk().text());
        StageScope reversed = new ImplicitJoins().collect(orders, List.of(PEOPLE_NAME, PRODUCT_CATEGORY));
        assertEquals(List.of("PEOPLE__via__USER_ID", "PRODUCTS__via__PRODUCT_ID"), List.copyOf(reversed.implicitJoins.keySet()));
    }

    @Test
    void collectingLeavesTheGivenScopeAsItWas() {
        new ImplicitJoins().collect(orders, List.of(PRODUCT_CATEGORY));
        assertTrue(orders.implicitJoins.isEmpty(), orders.implicitJoins.toString());
        assertThrows(UnsupportedOperationException.class, () -> orders.joins.put("x", null));
    }

    @Test
    void referencesToNamedExpressionsAreFollowedEvenWhenTheyReferToThemselves() {
        StageScope scope = orders.withExpressions(Map.of(
                "loud", PassTesting.json("[\"concat\", [\"field\", 12, {\"source-field\": 21}], [\"expression\", \"loud\"]]")));
        scope = new ImplicitJoins().collect(scope, List.of(PassTesting.json("[\"=\", [\"expression\", \"loud\"], \"X\"]")));
        assertEquals(List.of("PRODUCTS__via__PRODUCT_ID"), List.copyOf(scope.implicitJoins.keySet()));
        StageScope compiling = scope;
        assertEquals("The expression \"loud\" refers to itself.", assertThrows(QueryFailure.class,
                () -> compiling.filterCompiler.filter(PassTesting.json("[\"=\", [\"expression\", \"loud\"], \"X\"]"))).getMessage());
    }

    @Test
    void aBadReferenceIsSkippedAndTheCompilerReportsIt() {
        Object notAForeignKey = PassTesting.json("[\"field\", 12, {\"source-field\": 23}]");
        StageScope scope = new ImplicitJoins().collect(orders, List.of(notAForeignKey));
        assertTrue(scope.implicitJoins.isEmpty(), scope.implicitJoins.toString());
        assertEquals("Field 23 is not a foreign key.",
                assertThrows(QueryFailure.class, () -> scope.columnCompiler.column(notAForeignKey)).getMessage());
    }

    @Test
    void aColumnWhoseJoinWasNotCollectedIsAnErrorOfTheCompilerNotOfTheQuery() {
        assertThrows(IllegalStateException.class, () -> orders.columnCompiler.column(PRODUCT_CATEGORY));
    }

    @Test
    void aStageJoinsInTheOrderItsClausesCompile() {
        // The filter compiles before the breakout, so PEOPLE's join comes first although the breakout is written first.
        String sql = MbqlCompilerTest.sql("{\"source-table\": 2, \"breakout\": [[\"field\", 12, {\"source-field\": 21}]],"
                + " \"aggregation\": [[\"count\"]], \"filter\": [\"=\", [\"field\", 31, {\"source-field\": 22}], \"Ann\"]}");
        assertTrue(sql.indexOf("AS \"PEOPLE__via__USER_ID\"") < sql.indexOf("AS \"PRODUCTS__via__PRODUCT_ID\""), sql);
        assertTrue(sql.contains("AS \"PEOPLE__via__USER_ID\""), sql);
    }
}
