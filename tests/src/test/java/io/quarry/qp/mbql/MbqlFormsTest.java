package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quarry.driver.Sql;
import io.quarry.qp.QueryFailure;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Old legacy forms and MBQL 5 both end up as the canonical legacy inner query; fragments keep their values in order. */
class MbqlFormsTest {
    private static String legacy(String json) {
        return MbqlCompiler.legacy(KeyQueries.parse(json)).toString();
    }

    @Test
    void oldReferenceFormsAreRewritten() {
        assertEquals("{source-table=2, fields=[[field, 23, null], [field, 11, {source-field=21}], [field, 25, {temporal-unit=month}],"
                + " [field, X, {base-type=type/Text}], [field, 11, {join-alias=P}], [field, 23, {binning={strategy=num-bins, num-bins=10}}],"
                + " [field, 24, null]]}",
                legacy("{\"source_table\": 2, \"fields\": [[\"field-id\", 23], [\"fk->\", [\"field-id\", 21], [\"field-id\", 11]],"
                        + " [\"datetime-field\", [\"field-id\", 25], \"as\", \"MONTH\"], [\"field-literal\", \"X\", \"type/Text\"],"
                        + " [\"joined-field\", \"P\", [\"field-id\", 11]], [\"binning-strategy\", [\"field-id\", 23], \"num-bins\", 10], 24]}"));
        assertEquals("{source-table=2, aggregation=[[count]], order-by=[[desc, [field, 23, null]], [asc, [field, 24, null]]]}",
                legacy("{\"source-table\": 2, \"aggregation\": [\"rows\"], \"order-by\": [[[\"field-id\", 23], \"descending\"],"
                        + " [\"ASC\", 24]]}"));
        assertEquals("{source-table=2, aggregation=[[sum, [field, 23, null]]], filter=[and, [is-null, [field, 26, null]],"
                + " [starts-with, [field, 11, null], A_B, {case-sensitive=false}]]}",
                legacy("{\"source-table\": 2, \"aggregation\": [\"SUM\", [\"field-id\", 23]], \"filter\": [\"AND\", [\"IS_NULL\","
                        + " [\"field-id\", 26]], [\"starts-with\", [\"field\", 11, null], \"A_B\", {\"case_sensitive\": false}]]}"));
        assertEquals("{source-table=2, aggregation=[[aggregation-options, [count], {name=N, display-name=N}]]}",
                legacy("{\"source-table\": 2, \"aggregation\": [[\"named\", [\"count\"], \"N\"]]}"));
    }

    @Test
    void mbql5StagesBecomeNestedLegacyQueries() {
        String converted = legacy("{\"stages\": [{\"lib/type\": \"mbql.stage/mbql\", \"source-card\": 12,"
                + " \"expressions\": [[\"+\", {\"lib/uuid\": \"e\", \"lib/expression-name\": \"plus\"}, [\"field\", {\"lib/uuid\": \"f\"}, 24], 1]],"
                + " \"filters\": [[\"time-interval\", {\"lib/uuid\": \"t\", \"include-current\": true}, [\"field\", {\"lib/uuid\": \"g\"}, 25], -3, \"month\"],"
                + " [\"contains\", {\"lib/uuid\": \"c\", \"case-sensitive\": false}, [\"field\", {\"lib/uuid\": \"h\"}, 11], \"a\", \"b\"]],"
                + " \"aggregation\": [[\"sum\", {\"lib/uuid\": \"s\", \"display-name\": \"Units\"}, [\"expression\", {\"lib/uuid\": \"x\"}, \"plus\"]]],"
                + " \"breakout\": [[\"field\", {\"lib/uuid\": \"b\", \"temporal-unit\": \"week\", \"base-type\": \"type/DateTime\"}, 25]],"
                + " \"order-by\": [[\"desc\", {\"lib/uuid\": \"o\"}, [\"aggregation\", {\"lib/uuid\": \"r\"}, \"s\"]]],"
                + " \"joins\": [{\"lib/type\": \"mbql/join\", \"alias\": \"P\", \"strategy\": \"inner-join\", \"fields\": \"all\","
                + " \"stages\": [{\"lib/type\": \"mbql.stage/mbql\", \"source-table\": 1}],"
                + " \"conditions\": [[\"=\", {\"lib/uuid\": \"j\"}, [\"field\", {\"lib/uuid\": \"k\"}, 21], [\"field\", {\"lib/uuid\": \"l\", \"join-alias\": \"P\"}, 10]]]}]},"
                + " {\"lib/type\": \"mbql.stage/mbql\", \"limit\": 5, \"fields\": [[\"field\", {\"lib/uuid\": \"m\", \"base-type\": \"type/Float\"}, \"sum\"]]}]}");
        assertEquals("{fields=[[field, sum, {base-type=type/Float}]], limit=5, source-query={source-table=card__12,"
                + " joins=[{source-table=1, alias=P, strategy=inner-join, fields=all, condition=[=, [field, 21, null], [field, 10, {join-alias=P}]]}],"
                + " expressions={plus=[+, [field, 24, null], 1]}, filter=[and, [time-interval, [field, 25, null], -3, month, {include-current=true}],"
                + " [or, [contains, [field, 11, null], a, {case-sensitive=false}], [contains, [field, 11, null], b, {case-sensitive=false}]]],"
                + " breakout=[[field, 25, {temporal-unit=week, base-type=type/DateTime}]],"
                + " aggregation=[[aggregation-options, [sum, [expression, plus]], {display-name=Units}]], order-by=[[desc, [aggregation, 0]]]}}",
                converted);
        assertEquals("No aggregation with uuid nope.", assertThrows(QueryFailure.class, () -> legacy("{\"stages\": [{\"source-table\": 2,"
                + " \"order-by\": [[\"asc\", {}, [\"aggregation\", {}, \"nope\"]]]}]}")).getMessage());
        assertEquals("Only the first stage of a query may be native.", assertThrows(QueryFailure.class, () -> legacy("{\"stages\":"
                + " [{\"source-table\": 2}, {\"lib/type\": \"mbql.stage/native\", \"native\": \"SELECT 1\"}]}")).getMessage());
    }

    @Test
    void caseAndValuesConvert() {
        assertEquals("{source-table=2, expressions={c=[case, [[[>, [field, 23, null], 1], big]], {default=small}]}}",
                legacy("{\"stages\": [{\"source-table\": 2, \"expressions\": [[\"case\", {\"lib/uuid\": \"u\", \"lib/expression-name\": \"c\"},"
                        + " [[[\">\", {}, [\"field\", {}, 23], [\"value\", {\"base-type\": \"type/Integer\"}, 1]], \"big\"]], \"small\"]]}]}"));
    }

    @Test
    void fragmentsKeepTheirValuesInTextOrder() {
        Sql a = Sql.format("a = %s", Sql.param(1));
        Sql b = Sql.format("b = %s", Sql.param(2));
        Sql both = Sql.format("(%s OR %s) AND c LIKE '%%x' AND d = %s", a, b, Sql.param("3"));
        assertEquals("(a = ? OR b = ?) AND c LIKE '%x' AND d = ?", both.text());
        assertEquals(List.of(1, 2, "3"), both.params());
        assertEquals(List.of(1, 2), Sql.join(", ", List.of(a, b)).params());
        assertThrows(IllegalArgumentException.class, () -> Sql.format("%s %s", a));
        assertThrows(IllegalArgumentException.class, () -> Sql.format("%s", a, b));
        assertEquals(Map.of(), Map.of());
    }

    @Test
    void binningPicksPleasingWidthsAndBounds() {
        Binning.Resolved eight = Binning.resolve("default", null, false, 8.9, 159.3, 8, 10);
        assertEquals(new Binning.Resolved("num-bins", 0, 160, 20, 8), eight);
        assertEquals(new Binning.Resolved("num-bins", 0, 5, 1, 5), Binning.resolve("num-bins", 5.0, false, 0, 5, 8, 10));
        assertEquals(new Binning.Resolved("bin-width", 20, 50, 10, 3), Binning.resolve("default", null, true, 24.3, 48.9, 8, 10));
        assertEquals(new Binning.Resolved("bin-width", 0, 165, 15, 11), Binning.resolve("bin-width", 15.0, false, 8.9, 159.3, 8, 10));
        assertEquals(1.25, Binning.nicerBinWidth(0, 5, 4));
        assertEquals("0.75", Binning.literal(0.75));
        assertEquals("20.0", Binning.literal(20));
        assertEquals("Auto binned", Binning.displayName("default", eight, null, false));
        assertEquals("10°", Binning.displayName("bin-width", eight, 10.0, true));
        assertEquals("8 bins", Binning.displayName("num-bins", eight, 8.0, false));
    }
}
