package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.driver.SqlDialect;
import io.quarry.driver.duckdb.DuckDbDialect;
import io.quarry.driver.h2.H2Dialect;
import io.quarry.driver.mysql.MySqlDialect;
import io.quarry.driver.postgres.PostgresDialect;
import io.quarry.driver.sqlite.SqliteDialect;
import io.quarry.qp.Column;
import io.quarry.qp.CompiledQuery;
import io.quarry.qp.QueryFailure;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The compiler clause by clause against hand-built metadata: the exact SQL, the bound values, the column metadata.
 * The shop: PRODUCTS (1: ID 10, TITLE 11, CATEGORY 12, PRICE 13, RATING 14, CREATED_AT 15), ORDERS (2: ID 20,
 * PRODUCT_ID 21 → 10, USER_ID 22 → 30, TOTAL 23, QUANTITY 24, CREATED_AT 25, DISCOUNT 26), PEOPLE (3: ID 30, NAME 31,
 * BIRTH_DATE 32 (date), LATITUDE 33, LONGITUDE 34, PASSWORD 35 (sensitive), CREATED_AT_TS 36 (Unix seconds)).
 * "Now" is Sunday 15 March 2026, 12:00; weeks start on Sunday.
 */
class MbqlCompilerTest {
    static final LocalDateTime NOW = LocalDateTime.of(2026, 3, 15, 12, 0);
    static final String ORDERS = "\"PUBLIC\".\"ORDERS\"";
    static final String PRODUCTS = "\"PUBLIC\".\"PRODUCTS\"";
    static final String PEOPLE = "\"PUBLIC\".\"PEOPLE\"";

    static CompiledQuery compile(SqlDialect dialect, FakeMetadata metadata, MbqlReferences references, String json) {
        return new MbqlCompiler(new MbqlCompiler.Context(dialect, metadata, references, 1, NOW, DayOfWeek.SUNDAY, 8, 10.0))
                .compile(KeyQueries.parse(json));
    }

    static CompiledQuery compile(SqlDialect dialect, String json) {
        return compile(dialect, FakeMetadata.shop(), MbqlReferences.NONE, json);
    }

    static CompiledQuery h2(String json) {
        return compile(new H2Dialect(), json);
    }

    static String sql(String json) {
        return h2(json).sql();
    }

    static String where(String filterJson) {
        String sql = sql("{\"source-table\": 2, \"aggregation\": [[\"count\"]], \"filter\": " + filterJson + "}");
        return sql.substring(sql.indexOf(" WHERE ") + 7);
    }

    static List<Object> params(String json) {
        return h2(json).params();
    }

    static List<Object> filterParams(String filterJson) {
        return params("{\"source-table\": 2, \"aggregation\": [[\"count\"]], \"filter\": " + filterJson + "}");
    }

    static String invalid(String json) {
        QueryFailure failure = assertThrows(QueryFailure.class, () -> h2(json));
        assertEquals(QueryFailure.Type.INVALID_QUERY, failure.type());
        return failure.getMessage();
    }

    static String col(String field) {
        return ORDERS + ".\"" + field + "\"";
    }

    @Nested
    class Sources {
        @Test
        void aTableSelectsItsVisibleFieldsInOrder() {
            CompiledQuery q = compile(new H2Dialect(), "{\"source-table\": 3}");
            assertEquals("SELECT " + PEOPLE + ".\"ID\" AS \"ID\", " + PEOPLE + ".\"NAME\" AS \"NAME\", " + PEOPLE + ".\"BIRTH_DATE\" AS "
                    + "\"BIRTH_DATE\", " + PEOPLE + ".\"LATITUDE\" AS \"LATITUDE\", " + PEOPLE + ".\"LONGITUDE\" AS \"LONGITUDE\", "
                    + "DATEADD(MILLISECOND, CAST(" + PEOPLE + ".\"CREATED_AT_TS\" * 1000 AS BIGINT), TIMESTAMP '1970-01-01 00:00:00') AS "
                    + "\"CREATED_AT_TS\" FROM " + PEOPLE, q.sql());
            assertFalse(q.sql().contains("PASSWORD"), "sensitive fields are left out");
            assertEquals(6, q.columns().size());
            assertEquals("type/DateTime", q.columns().get(5).effectiveType(), "coerced from Unix seconds");
        }

        @Test
        void tablesAndFieldsOfAnotherDatabaseDoNotExist() {
            assertEquals("Table 99 does not exist.", invalid("{\"source-table\": 99}"));
            assertEquals("Field 999 does not exist.", invalid("{\"source-table\": 2, \"fields\": [[\"field\", 999, null]]}"));
            assertEquals("Field 31 is not in a table of this query.", invalid("{\"source-table\": 2, \"fields\": [[\"field\", 31, null]]}"));
            assertEquals("A structured query needs a \"source-table\" or a \"source-query\".", invalid("{}"));
            assertEquals("Invalid source table \"ORDERS\".", invalid("{\"source-table\": \"ORDERS\"}"));
        }

        @Test
        void aCardSourceIsItsQueryAsASubquery() {
            MbqlReferences cards = new References(Map.of(7L, new MbqlReferences.CardQuery(1, KeyQueries.parse(
                    "{\"database\": 1, \"type\": \"query\", \"query\": {\"source-table\": 2, \"aggregation\": [[\"count\"]],"
                            + " \"breakout\": [[\"field\", 22, null]]}}"))), Map.of(), Map.of());
            CompiledQuery q = compile(new H2Dialect(), FakeMetadata.shop(), cards,
                    "{\"source-table\": \"card__7\", \"filter\": [\">\", [\"field\", \"count\", {\"base-type\": \"type/BigInteger\"}], 2],"
                            + " \"aggregation\": [[\"count\"]]}");
            assertEquals("SELECT COUNT(*) AS \"count\" FROM (SELECT " + col("USER_ID") + " AS \"USER_ID\", COUNT(*) AS \"count\" FROM "
                    + ORDERS + " GROUP BY " + col("USER_ID") + " ORDER BY " + col("USER_ID") + " ASC) AS \"source\" WHERE (\"source\"."
                    + "\"count\" > ?)", q.sql());
            assertEquals(List.of(2L), q.params());
            assertEquals("Card 8 not found.", assertThrows(QueryFailure.class, () -> compile(new H2Dialect(), FakeMetadata.shop(), cards,
                    "{\"source-table\": \"card__8\"}")).getMessage());
            MbqlReferences elsewhere = new References(Map.of(7L, new MbqlReferences.CardQuery(2, Map.of("type", "query",
                    "query", Map.of("source-table", 2)))), Map.of(), Map.of());
            assertEquals("Card 7 belongs to another database.", assertThrows(QueryFailure.class, () -> compile(new H2Dialect(),
                    FakeMetadata.shop(), elsewhere, "{\"source-table\": \"card__7\"}")).getMessage());
            assertEquals("Card 123 not found.", invalid("{\"source-table\": \"card__123\"}"));
        }

        @Test
        void aNativeCardSourceIsWrappedAsASubquery() {
            MbqlReferences cards = new References(Map.of(3L, new MbqlReferences.CardQuery(1, Map.of("type", "native",
                    "native", Map.of("query", "SELECT 1 AS X;")))), Map.of(), Map.of());
            CompiledQuery q = compile(new H2Dialect(), FakeMetadata.shop(), cards, "{\"source-table\": \"card__3\"}");
            assertEquals("SELECT \"source\".* FROM (SELECT 1 AS X) AS \"source\"", q.sql());
            assertTrue(q.columns().isEmpty(), "a native source's columns are known only when it runs");
        }

        @Test
        void nestedQueriesReferToTheirSourceByNameOrFieldId() {
            String inner = "{\"source-table\": 2, \"aggregation\": [[\"sum\", [\"field\", 23, null]]],"
                    + " \"breakout\": [[\"field\", 25, {\"temporal-unit\": \"month\"}]]}";
            CompiledQuery byName = h2("{\"source-query\": " + inner + ", \"filter\": [\">\", [\"field\", \"sum\", {\"base-type\":"
                    + " \"type/Float\"}], 100], \"fields\": [[\"field\", \"CREATED_AT\", {\"base-type\": \"type/DateTime\"}]]}");
            assertTrue(byName.sql().startsWith("SELECT \"source\".\"CREATED_AT\" AS \"CREATED_AT\" FROM (SELECT DATE_TRUNC('MONTH', "),
                    byName.sql());
            assertTrue(byName.sql().endsWith(") AS \"source\" WHERE (\"source\".\"sum\" > ?)"), byName.sql());
            assertEquals("Created At: Month", byName.columns().get(0).displayName());
            // the month the source already applied is not applied again; a coarser unit is
            String sameUnit = sql("{\"source-query\": " + inner + ", \"fields\": [[\"field\", 25, {\"temporal-unit\": \"month\"}]]}");
            assertTrue(sameUnit.startsWith("SELECT \"source\".\"CREATED_AT\" AS"), sameUnit);
            String year = sql("{\"source-query\": " + inner + ", \"aggregation\": [[\"sum\", [\"field\", \"sum\", {\"base-type\":"
                    + " \"type/Float\"}]]], \"breakout\": [[\"field\", 25, {\"temporal-unit\": \"year\"}]]}");
            assertTrue(year.startsWith("SELECT DATE_TRUNC('YEAR', \"source\".\"CREATED_AT\") AS \"CREATED_AT\", SUM(\"source\".\"sum\")"),
                    year);
            assertEquals("The source query returns no column \"nope\".",
                    invalid("{\"source-query\": " + inner + ", \"fields\": [[\"field\", \"nope\", {\"base-type\": \"type/Text\"}]]}"));
        }
    }

    @Nested
    class Filters {
        @Test
        void equalityBindsValuesTypedLikeTheColumn() {
            assertEquals("(" + col("QUANTITY") + " = ?)", where("[\"=\", [\"field\", 24, null], \"3\"]"));
            assertEquals(List.of(3L), filterParams("[\"=\", [\"field\", 24, null], \"3\"]"));
            assertEquals("(" + col("QUANTITY") + " IN (?, ?))", where("[\"=\", [\"field\", 24, null], 1, 2]"));
            assertEquals("(" + col("DISCOUNT") + " IS NULL)", where("[\"=\", [\"field\", 26, null], null]"));
            assertEquals("(" + col("DISCOUNT") + " IS NOT NULL)", where("[\"!=\", [\"field\", 26, null], null]"));
            assertEquals("(" + col("QUANTITY") + " <> ? OR " + col("QUANTITY") + " IS NULL)", where("[\"!=\", [\"field\", 24, null], 5]"));
            assertEquals("(" + col("QUANTITY") + " NOT IN (?, ?) OR " + col("QUANTITY") + " IS NULL)",
                    where("[\"!=\", [\"field\", 24, null], 5, 6]"));
            assertEquals("(" + col("QUANTITY") + " = ? OR " + col("QUANTITY") + " IS NULL)",
                    where("[\"=\", [\"field\", 24, null], 5, null]"));
            assertEquals(List.of("5"), params("{\"source-table\": 1, \"filter\": [\"=\", [\"field\", 12, null], 5]}"),
                    "numbers compared with text columns are bound as text");
            assertEquals("\"x\" is not a number.", invalid("{\"source-table\": 2, \"filter\": [\"=\", [\"field\", 24, null], \"x\"]}"));
        }

        @Test
        void comparisonsAndRanges() {
            assertEquals("(" + col("TOTAL") + " < ?)", where("[\"<\", [\"field\", 23, null], 10]"));
            assertEquals("(" + col("TOTAL") + " >= ?)", where("[\">=\", [\"field\", 23, null], 10.5]"));
            assertEquals(List.of(10.5), filterParams("[\">=\", [\"field\", 23, null], 10.5]"));
            assertEquals("(" + col("TOTAL") + " BETWEEN ? AND ?)", where("[\"between\", [\"field\", 23, null], 10, 20]"));
            assertEquals("(" + PEOPLE + ".\"LATITUDE\" BETWEEN ? AND ? AND " + PEOPLE + ".\"LONGITUDE\" BETWEEN ? AND ?)",
                    sql("{\"source-table\": 3, \"aggregation\": [[\"count\"]], \"filter\": [\"inside\", [\"field\", 33, null],"
                            + " [\"field\", 34, null], 50, -120, 30, -80]}").replaceAll(".* WHERE ", ""));
            assertEquals(List.of(30L, 50L, -120L, -80L), params("{\"source-table\": 3, \"filter\": [\"inside\", [\"field\", 33, null],"
                    + " [\"field\", 34, null], 50, -120, 30, -80]}"));
        }

        @Test
        void nullAndEmptiness() {
            assertEquals("(" + col("DISCOUNT") + " IS NULL)", where("[\"is-null\", [\"field\", 26, null]]"));
            assertEquals("(" + col("DISCOUNT") + " IS NOT NULL)", where("[\"not-null\", [\"field\", 26, null]]"));
            assertEquals("(" + col("DISCOUNT") + " IS NULL)", where("[\"is-empty\", [\"field\", 26, null]]"));
            String title = PRODUCTS + ".\"TITLE\"";
            CompiledQuery empty = h2("{\"source-table\": 1, \"filter\": [\"is-empty\", [\"field\", 11, null]], \"aggregation\": [[\"count\"]]}");
            assertTrue(empty.sql().endsWith("WHERE (" + title + " IS NULL OR " + title + " = ?)"), empty.sql());
            assertEquals(List.of(""), empty.params());
            assertTrue(sql("{\"source-table\": 1, \"filter\": [\"not-empty\", [\"field\", 11, null]]}")
                    .endsWith("WHERE (" + title + " IS NOT NULL AND " + title + " <> ?)"));
        }

        @Test
        void stringFiltersEscapeTheirPatternsAndHonourCaseSensitivity() {
            String title = PRODUCTS + ".\"TITLE\"";
            String base = "{\"source-table\": 1, \"filter\": ";
            assertTrue(sql(base + "[\"contains\", [\"field\", 11, null], \"Gizmo\"]}").endsWith("WHERE (" + title + " LIKE ? ESCAPE '!')"));
            assertEquals(List.of("%50!% off!_now!!%"), params(base + "[\"contains\", [\"field\", 11, null], \"50% off_now!\"]}"));
            assertEquals(List.of("gizmo%"), params(base + "[\"starts-with\", [\"field\", 11, null], \"GiZmo\", {\"case-sensitive\": false}]}"));
            assertTrue(sql(base + "[\"starts-with\", [\"field\", 11, null], \"GiZmo\", {\"case-sensitive\": false}]}")
                    .endsWith("WHERE (LOWER(" + title + ") LIKE ? ESCAPE '!')"));
            assertEquals(List.of("%hat"), params(base + "[\"ends-with\", [\"field\", 11, null], \"hat\"]}"));
            assertTrue(sql(base + "[\"does-not-contain\", [\"field\", 11, null], \"x\"]}")
                    .endsWith("WHERE (NOT (" + title + " LIKE ? ESCAPE '!') OR " + title + " IS NULL)"));
            assertTrue(sql(base + "[\"not\", [\"contains\", [\"field\", 11, null], \"x\"]]}")
                    .endsWith("WHERE ((NOT (" + title + " LIKE ? ESCAPE '!')) OR " + title + " IS NULL)"));
            // several values (MBQL 5 style, options second)
            assertTrue(sql(base + "[\"contains\", {\"case-sensitive\": false}, [\"field\", 11, null], \"a\", \"b\"]}")
                    .endsWith("WHERE (LOWER(" + title + ") LIKE ? ESCAPE '!' OR LOWER(" + title + ") LIKE ? ESCAPE '!')"));
        }

        @Test
        void logicalCombinations() {
            assertEquals("((" + col("TOTAL") + " > ?) AND ((" + col("QUANTITY") + " = ?) OR (NOT (" + col("DISCOUNT") + " IS NULL))))",
                    where("[\"and\", [\">\", [\"field\", 23, null], 1], [\"or\", [\"=\", [\"field\", 24, null], 2],"
                            + " [\"not\", [\"is-null\", [\"field\", 26, null]]]]]"));
        }

        @Test
        void bucketedDateEqualityIsAHalfOpenRangeOnTheRawColumn() {
            String created = col("CREATED_AT");
            assertEquals("(" + created + " >= ? AND " + created + " < ?)",
                    where("[\"=\", [\"field\", 25, {\"temporal-unit\": \"month\"}], \"2024-02-10\"]"));
            assertEquals(List.of(LocalDateTime.of(2024, 2, 1, 0, 0), LocalDateTime.of(2024, 3, 1, 0, 0)),
                    filterParams("[\"=\", [\"field\", 25, {\"temporal-unit\": \"month\"}], \"2024-02-10\"]"));
            // a plain date against a date-time column means that whole day
            assertEquals(List.of(LocalDateTime.of(2024, 2, 10, 0, 0), LocalDateTime.of(2024, 2, 11, 0, 0)),
                    filterParams("[\"=\", [\"field\", 25, null], \"2024-02-10\"]"));
            assertEquals(List.of(LocalDateTime.of(2024, 2, 11, 0, 0)), filterParams("[\"<=\", [\"field\", 25, null], \"2024-02-10\"]"));
            assertEquals(List.of(LocalDateTime.of(2024, 2, 11, 0, 0)), filterParams("[\">\", [\"field\", 25, null], \"2024-02-10\"]"));
            assertEquals(List.of(LocalDateTime.of(2024, 1, 1, 0, 0), LocalDateTime.of(2025, 1, 1, 0, 0)),
                    filterParams("[\"between\", [\"field\", 25, {\"temporal-unit\": \"quarter\"}], \"2024-02-10\", \"2024-12-01\"]"));
            assertEquals("(NOT (" + created + " >= ? AND " + created + " < ?) OR " + created + " IS NULL)",
                    where("[\"!=\", [\"field\", 25, {\"temporal-unit\": \"day\"}], \"2024-02-10\"]"));
            // a date-time with a time of day is compared as it is
            assertEquals("(" + created + " < ?)", where("[\"<\", [\"field\", 25, null], \"2024-02-10T10:30:00\"]"));
            assertEquals(List.of(LocalDateTime.of(2024, 2, 10, 10, 30)), filterParams("[\"<\", [\"field\", 25, null], \"2024-02-10T10:30:00\"]"));
            // date columns get dates
            assertEquals(List.of(LocalDate.of(1990, 1, 1), LocalDate.of(1991, 1, 1)), params("{\"source-table\": 3, \"filter\":"
                    + " [\"=\", [\"field\", 32, {\"temporal-unit\": \"year\"}], \"1990-06-01\"]}"));
            // extraction units compare numbers
            assertEquals("(EXTRACT(MONTH FROM " + created + ") = ?)", where("[\"=\", [\"field\", 25, {\"temporal-unit\": \"month-of-year\"}], 3]"));
        }

        @Test
        void timeZonedColumnsGetInstantsInUtc() {
            FakeMetadata m = FakeMetadata.shop();
            m.field(25).effectiveType = "type/DateTimeWithLocalTZ";
            m.field(25).baseType = "type/DateTimeWithLocalTZ";
            CompiledQuery q = compile(new PostgresDialect(), m, MbqlReferences.NONE,
                    "{\"source-table\": 2, \"filter\": [\"=\", [\"field\", 25, {\"temporal-unit\": \"day\"}], \"2024-02-10\"]}");
            assertEquals(List.of(OffsetDateTime.of(2024, 2, 10, 0, 0, 0, 0, ZoneOffset.UTC), OffsetDateTime.of(2024, 2, 11, 0, 0, 0, 0,
                    ZoneOffset.UTC)), q.params());
        }

        @Test
        void relativeFiltersAreComputedFromNow() {
            String created = col("CREATED_AT");
            assertEquals("(" + created + " >= ? AND " + created + " < ?)", where("[\"time-interval\", [\"field\", 25, null], -30, \"day\"]"));
            assertEquals(List.of(LocalDateTime.of(2026, 2, 13, 0, 0), LocalDateTime.of(2026, 3, 15, 0, 0)),
                    filterParams("[\"time-interval\", [\"field\", 25, null], -30, \"day\"]"));
            assertEquals(List.of(LocalDateTime.of(2026, 2, 13, 0, 0), LocalDateTime.of(2026, 3, 16, 0, 0)),
                    filterParams("[\"time-interval\", [\"field\", 25, null], -30, \"day\", {\"include-current\": true}]"));
            assertEquals(List.of(LocalDateTime.of(2026, 3, 1, 0, 0), LocalDateTime.of(2026, 4, 1, 0, 0)),
                    filterParams("[\"time-interval\", [\"field\", 25, null], \"current\", \"month\"]"));
            assertEquals(List.of(LocalDateTime.of(2026, 3, 8, 0, 0), LocalDateTime.of(2026, 3, 15, 0, 0)),
                    filterParams("[\"time-interval\", [\"field\", 25, null], \"last\", \"week\"]"), "weeks start on Sunday");
            assertEquals(List.of(LocalDateTime.of(2026, 4, 1, 0, 0), LocalDateTime.of(2026, 7, 1, 0, 0)),
                    filterParams("[\"time-interval\", [\"field\", 25, null], \"next\", \"quarter\"]"));
            assertEquals(List.of(LocalDateTime.of(2026, 3, 16, 0, 0), LocalDateTime.of(2026, 3, 19, 0, 0)),
                    filterParams("[\"time-interval\", [\"field\", 25, null], 3, \"day\"]"));
            assertEquals(List.of(LocalDateTime.of(2026, 3, 15, 0, 0), LocalDateTime.of(2026, 3, 19, 0, 0)),
                    filterParams("[\"time-interval\", [\"field\", 25, null], 3, \"day\", {\"include-current\": true}]"));
            // the last 2 months, a year ago
            assertEquals(List.of(LocalDateTime.of(2025, 1, 1, 0, 0), LocalDateTime.of(2025, 3, 1, 0, 0)),
                    filterParams("[\"relative-time-interval\", [\"field\", 25, null], -2, \"month\", -1, \"year\"]"));
            assertEquals(List.of(LocalDateTime.of(2024, 2, 1, 0, 0), LocalDateTime.of(2024, 3, 1, 0, 0)),
                    filterParams("[\"during\", [\"field\", 25, null], \"2024-02-29T10:00:00\", \"month\"]"));
            assertEquals(List.of(LocalDateTime.of(2026, 2, 1, 0, 0), LocalDateTime.of(2026, 3, 1, 0, 0)),
                    filterParams("[\"=\", [\"field\", 25, {\"temporal-unit\": \"month\"}], [\"relative-datetime\", -1, \"month\"]]"));
        }

        @Test
        void segmentsAreReferencesResolvedElsewhere() {
            assertEquals("Segment 4 not found.", invalid("{\"source-table\": 2, \"filter\": [\"segment\", 4]}"));
            MbqlReferences segments = new References(Map.of(), Map.of(4L, List.of(">", List.of("field", 23, Map.of()), 100)), Map.of());
            CompiledQuery q = compile(new H2Dialect(), FakeMetadata.shop(), segments, "{\"source-table\": 2, \"filter\": [\"segment\", 4]}");
            assertTrue(q.sql().endsWith("WHERE (" + col("TOTAL") + " > ?)"), q.sql());
        }

        @Test
        void hostileValuesAreOnlyEverParameters() {
            String hostile = "x'); DROP TABLE \"ORDERS\"; --";
            for (String filter : List.of("[\"=\", [\"field\", 11, null], V]", "[\"contains\", [\"field\", 11, null], V]",
                    "[\"starts-with\", [\"field\", 11, null], V, {\"case-sensitive\": false}]", "[\"!=\", [\"field\", 11, null], V, V]",
                    "[\"between\", [\"field\", 11, null], V, V]")) {
                CompiledQuery q = h2("{\"source-table\": 1, \"filter\": " + filter.replace("V", "\"x'); DROP TABLE \\\"ORDERS\\\"; --\"")
                        + "}");
                assertFalse(q.sql().contains("DROP"), q.sql());
                assertTrue(q.params().stream().anyMatch(p -> String.valueOf(p).toUpperCase().contains("DROP TABLE")), filter);
            }
        }
    }

    @Nested
    class Aggregations {
        @Test
        void namesDisplayNamesAndTypesFollowMetabase() {
            CompiledQuery q = h2("{\"source-table\": 2, \"aggregation\": [[\"count\"], [\"count\", [\"field\", 26, null]], [\"sum\", [\"field\", 23, null]],"
                    + " [\"avg\", [\"field\", 24, null]], [\"min\", [\"field\", 23, null]], [\"max\", [\"field\", 25, null]],"
                    + " [\"distinct\", [\"field\", 22, null]], [\"stddev\", [\"field\", 23, null]], [\"var\", [\"field\", 23, null]],"
                    + " [\"median\", [\"field\", 23, null]], [\"percentile\", [\"field\", 23, null], 0.9], [\"sum\", [\"field\", 23, null]]]}");
            assertEquals("SELECT COUNT(*) AS \"count\", COUNT(" + col("DISCOUNT") + ") AS \"count_2\", SUM(" + col("TOTAL") + ") AS \"sum\", "
                    + "AVG(CAST(" + col("QUANTITY") + " AS DOUBLE PRECISION)) AS \"avg\", MIN(" + col("TOTAL") + ") AS \"min\", MAX("
                    + col("CREATED_AT") + ") AS \"max\", COUNT(DISTINCT " + col("USER_ID") + ") AS \"count_3\", STDDEV_POP(" + col("TOTAL")
                    + ") AS \"stddev\", VAR_POP(" + col("TOTAL") + ") AS \"var\", MEDIAN(" + col("TOTAL") + ") AS \"median\", "
                    + "PERCENTILE_CONT(0.9) WITHIN GROUP (ORDER BY " + col("TOTAL") + ") AS \"percentile\", SUM(" + col("TOTAL")
                    + ") AS \"sum_2\" FROM " + ORDERS, q.sql());
            List<String> names = q.columns().stream().map(Column::displayName).toList();
            assertEquals(List.of("Count", "Count of Discount", "Sum of Total", "Average of Quantity", "Min of Total", "Max of Created At",
                    "Distinct values of User ID", "Standard deviation of Total", "Variance of Total", "Median of Total",
                    "0.9th percentile of Total", "Sum of Total"), names);
            assertEquals(List.of("type/BigInteger", "type/BigInteger", "type/Float", "type/Float", "type/Float", "type/DateTime",
                    "type/BigInteger", "type/Float", "type/Float", "type/Float", "type/Float", "type/Float"),
                    q.columns().stream().map(Column::baseType).toList());
            assertEquals("type/Quantity", q.columns().get(0).semanticType());
            assertEquals(List.of("aggregation", 11), q.columns().get(11).fieldRef());
        }

        @Test
        void conditionalAggregations() {
            CompiledQuery q = h2("{\"source-table\": 2, \"aggregation\": [[\"share\", [\">\", [\"field\", 23, null], 10]],"
                    + " [\"count-where\", [\">\", [\"field\", 23, null], 20]], [\"sum-where\", [\"field\", 24, null], [\"<\", [\"field\", 23, null], 30]],"
                    + " [\"distinct-where\", [\"field\", 22, null], [\">\", [\"field\", 24, null], 40]]]}");
            assertEquals("SELECT (CAST(SUM(CASE WHEN (" + col("TOTAL") + " > ?) THEN 1 ELSE 0 END) AS DOUBLE PRECISION) / NULLIF(COUNT(*), 0)) AS \"share\", "
                    + "SUM(CASE WHEN (" + col("TOTAL") + " > ?) THEN 1 ELSE 0 END) AS \"count-where\", SUM(CASE WHEN (" + col("TOTAL")
                    + " < ?) THEN " + col("QUANTITY") + " ELSE 0 END) AS \"sum_where_QUANTITY\", COUNT(DISTINCT CASE WHEN (" + col("QUANTITY")
                    + " > ?) THEN " + col("USER_ID") + " END) AS \"distinct_where_USER_ID\" FROM " + ORDERS, q.sql());
            assertEquals(List.of(10L, 20L, 30L, 40L), q.params(), "in the order of their placeholders");
            assertEquals(List.of("Share of rows matching condition", "Count of rows matching condition",
                    "Sum of Quantity matching condition", "Distinct values of User ID matching condition"),
                    q.columns().stream().map(Column::displayName).toList());
        }

        @Test
        void namedAndArithmeticAggregationsAndMetrics() {
            CompiledQuery q = h2("{\"source-table\": 2, \"aggregation\": [[\"aggregation-options\", [\"sum\", [\"field\", 23, null]],"
                    + " {\"name\": \"revenue\", \"display-name\": \"Revenue\"}], [\"/\", [\"sum\", [\"field\", 23, null]], [\"count\"]],"
                    + " [\"named\", [\"count\"], \"Orders\"]]}");
            assertEquals("SELECT SUM(" + col("TOTAL") + ") AS \"revenue\", (CAST(SUM(" + col("TOTAL") + ") AS DOUBLE PRECISION) / "
                    + "NULLIF(CAST(COUNT(*) AS DOUBLE PRECISION), 0)) AS \"expression\", COUNT(*) AS \"Orders\" FROM " + ORDERS, q.sql());
            assertEquals(List.of("Revenue", "Sum of Total ÷ Count", "Orders"), q.columns().stream().map(Column::displayName).toList());
            assertEquals("Metric 9 not found.", invalid("{\"source-table\": 2, \"aggregation\": [[\"metric\", 9]]}"));
            MbqlReferences metrics = new References(Map.of(), Map.of(), Map.of(9L, List.of("max", List.of("field", 23, Map.of()))));
            assertEquals("SELECT MAX(" + col("TOTAL") + ") AS \"max\" FROM " + ORDERS, compile(new H2Dialect(), FakeMetadata.shop(), metrics,
                    "{\"source-table\": 2, \"aggregation\": [[\"metric\", 9]]}").sql());
        }

        @Test
        void cumulativeAggregationsRunOverTheBreakoutsInANestedQuery() {
            CompiledQuery q = h2("{\"source-table\": 2, \"aggregation\": [[\"cum-sum\", [\"field\", 23, null]], [\"cum-count\"]],"
                    + " \"breakout\": [[\"field\", 25, {\"temporal-unit\": \"month\"}]]}");
            assertEquals("SELECT \"source\".\"b1\" AS \"CREATED_AT\", SUM(SUM(\"source\".\"c1\")) OVER (ORDER BY \"source\".\"b1\" ASC ROWS"
                    + " UNBOUNDED PRECEDING) AS \"sum\", SUM(COUNT(*)) OVER (ORDER BY \"source\".\"b1\" ASC ROWS UNBOUNDED PRECEDING) AS"
                    + " \"cum_count\" FROM (SELECT DATE_TRUNC('MONTH', " + col("CREATED_AT") + ") AS \"b1\", " + col("TOTAL") + " AS \"c1\""
                    + " FROM " + ORDERS + ") AS \"source\" GROUP BY \"source\".\"b1\" ORDER BY \"source\".\"b1\" ASC", q.sql());
            assertEquals(List.of("Created At: Month", "Cumulative sum of Total", "Cumulative count"),
                    q.columns().stream().map(Column::displayName).toList());
            // partitioned by every breakout but the finest date
            String two = sql("{\"source-table\": 2, \"aggregation\": [[\"cum-count\"]], \"breakout\": [[\"field\", 25, {\"temporal-unit\":"
                    + " \"year\"}], [\"field\", 22, null]]}");
            assertTrue(two.contains("OVER (PARTITION BY \"source\".\"b2\" ORDER BY \"source\".\"b1\" ASC, \"source\".\"b2\" ASC ROWS"), two);
            // without breakouts a cumulative aggregate is the plain one
            assertEquals("SELECT SUM(" + col("TOTAL") + ") AS \"sum\" FROM " + ORDERS,
                    sql("{\"source-table\": 2, \"aggregation\": [[\"cum-sum\", [\"field\", 23, null]]]}"));
        }

        @Test
        void percentilesWhereEnginesHaveThem() {
            String q = "{\"source-table\": 2, \"aggregation\": [[\"median\", [\"field\", 23, null]], [\"percentile\", [\"field\", 23, null], 0.25]]}";
            assertTrue(compile(new PostgresDialect(), q).sql().startsWith("SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY "));
            assertTrue(compile(new DuckDbDialect(), q).sql().contains("QUANTILE_CONT(\"PUBLIC\".\"ORDERS\".\"TOTAL\", 0.25)"));
            assertEquals("Median is not supported by MySQL.", assertThrows(QueryFailure.class, () -> compile(new MySqlDialect(), q)).getMessage());
            assertEquals("Median is not supported by SQLite.", assertThrows(QueryFailure.class, () -> compile(new SqliteDialect(), q)).getMessage());
            assertEquals("Standard deviation is not supported by SQLite.", assertThrows(QueryFailure.class, () -> compile(new SqliteDialect(),
                    "{\"source-table\": 2, \"aggregation\": [[\"stddev\", [\"field\", 23, null]]]}")).getMessage());
            assertEquals("A percentile is a number from 0 to 1.", invalid("{\"source-table\": 2, \"aggregation\": [[\"percentile\","
                    + " [\"field\", 23, null], 90]]}"));
        }
    }

    @Nested
    class Breakouts {
        @Test
        void breakoutsAreGroupedAndOrderedAscendingUnlessOrderedOtherwise() {
            CompiledQuery q = h2("{\"source-table\": 2, \"aggregation\": [[\"count\"]], \"breakout\": [[\"field\", 22, null], [\"field\", 24, null]],"
                    + " \"order-by\": [[\"desc\", [\"aggregation\", 0]], [\"desc\", [\"field\", 24, null]]], \"limit\": 10}");
            assertEquals("SELECT " + col("USER_ID") + " AS \"USER_ID\", " + col("QUANTITY") + " AS \"QUANTITY\", COUNT(*) AS \"count\" FROM "
                    + ORDERS + " GROUP BY " + col("USER_ID") + ", " + col("QUANTITY") + " ORDER BY \"count\" DESC, " + col("QUANTITY")
                    + " DESC, " + col("USER_ID") + " ASC LIMIT 10", q.sql());
            assertEquals(List.of("breakout", "breakout", "aggregation"), q.columns().stream().map(Column::source).toList());
            assertEquals("No aggregation at index 3.", invalid("{\"source-table\": 2, \"aggregation\": [[\"count\"]],"
                    + " \"order-by\": [[\"asc\", [\"aggregation\", 3]]]}"));
        }

        @Test
        void temporalUnitsTruncateOrExtract() {
            String created = col("CREATED_AT");
            Map<String, String> expected = Map.ofEntries(
                    Map.entry("minute", "DATE_TRUNC('MINUTE', " + created + ")"),
                    Map.entry("hour", "DATE_TRUNC('HOUR', " + created + ")"),
                    Map.entry("day", "DATE_TRUNC('DAY', " + created + ")"),
                    Map.entry("week", "DATEADD(DAY, -1, DATE_TRUNC('WEEK', DATEADD(DAY, 1, " + created + ")))"),
                    Map.entry("month", "DATE_TRUNC('MONTH', " + created + ")"),
                    Map.entry("quarter", "DATE_TRUNC('QUARTER', " + created + ")"),
                    Map.entry("year", "DATE_TRUNC('YEAR', " + created + ")"),
                    Map.entry("minute-of-hour", "EXTRACT(MINUTE FROM " + created + ")"),
                    Map.entry("hour-of-day", "EXTRACT(HOUR FROM " + created + ")"),
                    Map.entry("day-of-week", "((EXTRACT(ISO_DAY_OF_WEEK FROM " + created + ") + 0) % 7 + 1)"),
                    Map.entry("day-of-month", "EXTRACT(DAY FROM " + created + ")"),
                    Map.entry("day-of-year", "EXTRACT(DAY_OF_YEAR FROM " + created + ")"),
                    Map.entry("month-of-year", "EXTRACT(MONTH FROM " + created + ")"),
                    Map.entry("quarter-of-year", "EXTRACT(QUARTER FROM " + created + ")"));
            for (Map.Entry<String, String> e : expected.entrySet()) {
                CompiledQuery q = h2("{\"source-table\": 2, \"aggregation\": [[\"count\"]], \"breakout\": [[\"field\", 25, {\"temporal-unit\": \""
                        + e.getKey() + "\"}]]}");
                assertEquals("SELECT " + e.getValue() + " AS \"CREATED_AT\", COUNT(*) AS \"count\" FROM " + ORDERS + " GROUP BY "
                        + e.getValue() + " ORDER BY " + e.getValue() + " ASC", q.sql(), e.getKey());
                Column c = q.columns().get(0);
                assertEquals(e.getKey(), c.extra().get("unit"));
                assertEquals(List.of("field", 25L, Map.of("temporal-unit", e.getKey())), c.fieldRef());
                assertEquals(e.getKey().contains("-") ? "type/Integer" : "type/DateTime", c.baseType(), e.getKey());
            }
            assertEquals("Created At: Day of week", h2("{\"source-table\": 2, \"breakout\": [[\"field\", 25, {\"temporal-unit\": \"day-of-week\"}]]}")
                    .columns().get(0).displayName());
            String weekOfYear = sql("{\"source-table\": 2, \"breakout\": [[\"field\", 25, {\"temporal-unit\": \"week-of-year\"}]]}");
            assertTrue(weekOfYear.startsWith("SELECT CAST((CEIL((EXTRACT(DAY_OF_YEAR FROM " + created + ") - (8 - ((EXTRACT(ISO_DAY_OF_WEEK FROM "
                    + "DATE_TRUNC('YEAR', " + created + ")) + 0) % 7 + 1))) / 7.0) + 1) AS BIGINT)"), weekOfYear);
            // dates stay dates
            assertTrue(sql("{\"source-table\": 3, \"breakout\": [[\"field\", 32, {\"temporal-unit\": \"month\"}]]}")
                    .startsWith("SELECT CAST(DATE_TRUNC('MONTH', " + PEOPLE + ".\"BIRTH_DATE\") AS DATE) AS \"BIRTH_DATE\""));
            assertEquals("Unknown temporal unit \"fortnight\".", invalid("{\"source-table\": 2, \"breakout\": [[\"field\", 25,"
                    + " {\"temporal-unit\": \"fortnight\"}]]}"));
        }

        @Test
        void weeksFollowTheStartOfWeekSetting() {
            FakeMetadata m = FakeMetadata.shop();
            String json = "{\"source-table\": 2, \"breakout\": [[\"field\", 25, {\"temporal-unit\": \"week\"}], [\"field\", 25,"
                    + " {\"temporal-unit\": \"day-of-week\"}]]}";
            String monday = new MbqlCompiler(new MbqlCompiler.Context(new H2Dialect(), m, MbqlReferences.NONE, 1, NOW, DayOfWeek.MONDAY,
                    8, 10.0)).compile(KeyQueries.parse(json)).sql();
            assertTrue(monday.startsWith("SELECT DATE_TRUNC('WEEK', " + col("CREATED_AT") + ") AS \"CREATED_AT\", EXTRACT(ISO_DAY_OF_WEEK"),
                    monday);
            String saturday = new MbqlCompiler(new MbqlCompiler.Context(new H2Dialect(), m, MbqlReferences.NONE, 1, NOW, DayOfWeek.SATURDAY,
                    8, 10.0)).compile(KeyQueries.parse(json)).sql();
            assertTrue(saturday.startsWith("SELECT DATEADD(DAY, -2, DATE_TRUNC('WEEK', DATEADD(DAY, 2, "), saturday);
            assertTrue(saturday.contains("((EXTRACT(ISO_DAY_OF_WEEK FROM " + col("CREATED_AT") + ") + 1) % 7 + 1)"), saturday);
        }

        @Test
        void numericBinningUsesTheColumnsRange() {
            FakeMetadata m = FakeMetadata.shop();
            m.range(23, 8.9, 159.3);
            m.range(14, 0, 5);
            CompiledQuery auto = compile(new H2Dialect(), m, MbqlReferences.NONE, "{\"source-table\": 2, \"aggregation\": [[\"count\"]],"
                    + " \"breakout\": [[\"field\", 23, {\"binning\": {\"strategy\": \"default\"}}]]}");
            // 8 bins over 8.9 .. 159.3: width 18.8 → a pleasing 20, bounds 0 .. 160
            String binned = "CAST((FLOOR(" + col("TOTAL") + " / 20.0) * 20.0) AS DOUBLE PRECISION)";
            assertEquals("SELECT " + binned + " AS \"TOTAL\", COUNT(*) AS \"count\" FROM " + ORDERS + " GROUP BY " + binned + " ORDER BY "
                    + binned + " ASC", auto.sql());
            Column c = auto.columns().get(0);
            assertEquals("Total: Auto binned", c.displayName());
            assertEquals(Map.of("binning_strategy", "num-bins", "bin_width", 20.0, "num_bins", 8, "min_value", 0.0, "max_value", 160.0),
                    c.extra().get("binning_info"));
            String bins = compile(new H2Dialect(), m, MbqlReferences.NONE, "{\"source-table\": 1, \"breakout\": [[\"field\", 14,"
                    + " {\"binning\": {\"strategy\": \"num-bins\", \"num-bins\": 4}}]]}").sql();
            assertTrue(bins.startsWith("SELECT CAST((FLOOR(" + PRODUCTS + ".\"RATING\" / 1.25) * 1.25) AS DOUBLE PRECISION)"), bins);
            String width = compile(new H2Dialect(), m, MbqlReferences.NONE, "{\"source-table\": 2, \"breakout\": [[\"field\", 23,"
                    + " {\"binning\": {\"strategy\": \"bin-width\", \"bin-width\": 15}}]]}").sql();
            assertTrue(width.startsWith("SELECT CAST((FLOOR(" + col("TOTAL") + " / 15.0) * 15.0) AS DOUBLE PRECISION) AS \"TOTAL\""), width);
            m.range(33, 24.3, 48.9);
            String coordinate = compile(new H2Dialect(), m, MbqlReferences.NONE, "{\"source-table\": 3, \"breakout\": [[\"field\", 33,"
                    + " {\"binning\": {\"strategy\": \"default\"}}]]}").sql();
            assertTrue(coordinate.startsWith("SELECT CAST(((FLOOR((" + PEOPLE + ".\"LATITUDE\" - 20.0) / 10.0) * 10.0) + 20.0) AS DOUBLE"),
                    "coordinates bin by 10 degrees: " + coordinate);
            assertEquals("The column TOTAL can't be binned: its smallest and largest values are unknown.",
                    invalid("{\"source-table\": 2, \"breakout\": [[\"field\", 23, {\"binning\": {\"strategy\": \"default\"}}]]}"));
            assertEquals("The column CATEGORY is not a number: it can't be binned.",
                    invalid("{\"source-table\": 1, \"breakout\": [[\"field\", 12, {\"binning\": {\"strategy\": \"default\"}}]]}"));
        }

        @Test
        void breakoutsWithParametersAreComputedInANestedQuery() {
            CompiledQuery q = h2("{\"source-table\": 2, \"expressions\": {\"size\": [\"case\", [[[\">\", [\"field\", 23, null], 100], \"big\"]],"
                    + " {\"default\": \"small\"}]}, \"aggregation\": [[\"sum\", [\"field\", 23, null]]], \"breakout\": [[\"expression\", \"size\"]]}");
            assertEquals("SELECT \"source\".\"b1\" AS \"size\", SUM(\"source\".\"c1\") AS \"sum\" FROM (SELECT CASE WHEN (" + col("TOTAL")
                    + " > ?) THEN ? ELSE ? END AS \"b1\", " + col("TOTAL") + " AS \"c1\" FROM " + ORDERS + ") AS \"source\" GROUP BY"
                    + " \"source\".\"b1\" ORDER BY \"source\".\"b1\" ASC", q.sql());
            assertEquals(List.of(100L, "big", "small"), q.params());
            assertEquals(List.of("expression", "size"), q.columns().get(0).fieldRef());
        }
    }

    @Nested
    class Joins {
        @Test
        void explicitJoinsWithAliasesStrategiesAndFields() {
            CompiledQuery q = h2("{\"source-table\": 2, \"fields\": [[\"field\", 20, null]], \"joins\": [{\"source-table\": 1, \"alias\": \"P\","
                    + " \"strategy\": \"inner-join\", \"condition\": [\"=\", [\"field\", 21, null], [\"field\", 10, {\"join-alias\": \"P\"}]],"
                    + " \"fields\": [[\"field\", 11, {\"join-alias\": \"P\"}]]}]}");
            assertEquals("SELECT " + col("ID") + " AS \"ID\", \"P\".\"TITLE\" AS \"P__TITLE\" FROM " + ORDERS + " INNER JOIN " + PRODUCTS
                    + " AS \"P\" ON (" + col("PRODUCT_ID") + " = \"P\".\"ID\")", q.sql());
            assertEquals("P → Title", q.columns().get(1).displayName());
            assertEquals("TITLE", q.columns().get(1).name());
            assertEquals("P", q.columns().get(1).extra().get("source_alias"));
            String all = sql("{\"source-table\": 2, \"fields\": [[\"field\", 20, null]], \"joins\": [{\"source-table\": 1, \"condition\":"
                    + " [\"=\", [\"field\", 21, null], [\"field\", 10, {\"join-alias\": \"Products\"}]], \"fields\": \"all\"}]}");
            assertTrue(all.contains("\"Products\".\"CREATED_AT\" AS \"Products__CREATED_AT\""), "the default alias is the table's name: " + all);
            assertTrue(all.contains(" LEFT JOIN "), all);
            String fullJoin = "{\"source-table\": 2, \"joins\": [{\"source-table\": 1, \"alias\": \"P\", \"strategy\": \"full-join\","
                    + " \"condition\": [\"=\", [\"field\", 21, null], [\"field\", 10, {\"join-alias\": \"P\"}]]}]}";
            assertTrue(compile(new PostgresDialect(), fullJoin).sql().contains(" FULL JOIN "));
            assertEquals("FULL JOIN is not supported by this database.", assertThrows(QueryFailure.class, () -> compile(new MySqlDialect(),
                    fullJoin)).getMessage());
            // H2 has no FULL JOIN (its parser refuses one): refused here, not sent to fail on the database
            assertEquals("FULL JOIN is not supported by this database.", assertThrows(QueryFailure.class, () -> compile(new H2Dialect(),
                    fullJoin)).getMessage());
            assertEquals("Two joins have the alias \"P\".", invalid("{\"source-table\": 2, \"joins\": [{\"source-table\": 1, \"alias\": \"P\","
                    + " \"condition\": [\"=\", 1, 1]}, {\"source-table\": 1, \"alias\": \"P\", \"condition\": [\"=\", 1, 1]}]}"));
            assertEquals("The join \"P\" needs a \"condition\".", invalid("{\"source-table\": 2, \"joins\": [{\"source-table\": 1, \"alias\": \"P\"}]}"));
            assertEquals("Unknown join strategy \"cross-join\": use left-join, right-join, inner-join or full-join.",
                    invalid("{\"source-table\": 2, \"joins\": [{\"source-table\": 1, \"alias\": \"P\", \"strategy\": \"cross-join\"}]}"));
        }

        @Test
        void aJoinedQueryIsASubqueryUnderItsAlias() {
            String q = sql("{\"source-table\": 1, \"joins\": [{\"source-query\": {\"source-table\": 2, \"aggregation\": [[\"count\"]],"
                    + " \"breakout\": [[\"field\", 21, null]]}, \"alias\": \"Sales\", \"condition\": [\"=\", [\"field\", 10, null],"
                    + " [\"field\", 21, {\"join-alias\": \"Sales\"}]], \"fields\": [[\"field\", \"count\", {\"base-type\": \"type/BigInteger\","
                    + " \"join-alias\": \"Sales\"}]]}], \"fields\": [[\"field\", 11, null]]}");
            assertEquals("SELECT " + PRODUCTS + ".\"TITLE\" AS \"TITLE\", \"Sales\".\"count\" AS \"Sales__count\" FROM " + PRODUCTS + " LEFT JOIN"
                    + " (SELECT " + col("PRODUCT_ID") + " AS \"PRODUCT_ID\", COUNT(*) AS \"count\" FROM " + ORDERS + " GROUP BY " + col("PRODUCT_ID")
                    + " ORDER BY " + col("PRODUCT_ID") + " ASC) AS \"Sales\" ON (" + PRODUCTS + ".\"ID\" = \"Sales\".\"PRODUCT_ID\")", q);
        }

        @Test
        void implicitJoinsFollowForeignKeysOnce() {
            CompiledQuery q = h2("{\"source-table\": 2, \"fields\": [[\"field\", 11, {\"source-field\": 21}], [\"field\", 12, {\"source-field\": 21}],"
                    + " [\"field\", 31, {\"source-field\": 22}]]}");
            assertEquals("SELECT \"PRODUCTS__via__PRODUCT_ID\".\"TITLE\" AS \"PRODUCTS__via__PRODUCT_ID__TITLE\", \"PRODUCTS__via__PRODUCT_ID\"."
                    + "\"CATEGORY\" AS \"PRODUCTS__via__PRODUCT_ID__CATEGORY\", \"PEOPLE__via__USER_ID\".\"NAME\" AS \"PEOPLE__via__USER_ID__NAME\""
                    + " FROM " + ORDERS + " LEFT JOIN " + PRODUCTS + " AS \"PRODUCTS__via__PRODUCT_ID\" ON " + col("PRODUCT_ID")
                    + " = \"PRODUCTS__via__PRODUCT_ID\".\"ID\" LEFT JOIN " + PEOPLE + " AS \"PEOPLE__via__USER_ID\" ON " + col("USER_ID")
                    + " = \"PEOPLE__via__USER_ID\".\"ID\"", q.sql());
            assertEquals(List.of("Product → Title", "Product → Category", "User → Name"),
                    q.columns().stream().map(Column::displayName).toList());
            assertEquals(21L, q.columns().get(0).extra().get("fk_field_id"));
            assertEquals(List.of("field", 11L, Map.of("source-field", 21L)), q.columns().get(0).fieldRef());
            assertEquals("Field 23 is not a foreign key.", invalid("{\"source-table\": 2, \"fields\": [[\"field\", 11, {\"source-field\": 23}]]}"));
            assertEquals("Field 31 is not in the table foreign key 21 points to.",
                    invalid("{\"source-table\": 2, \"fields\": [[\"field\", 31, {\"source-field\": 21}]]}"));
        }
    }

    @Nested
    class Expressions {
        @Test
        void arithmeticAndFunctions() {
            CompiledQuery q = h2("{\"source-table\": 2, \"expressions\": {\"net\": [\"-\", [\"field\", 23, null], [\"field\", 26, null]],"
                    + " \"ratio\": [\"/\", [\"field\", 24, null], [\"field\", 26, null]], \"safe\": [\"coalesce\", [\"field\", 26, null], 0],"
                    + " \"r\": [\"round\", [\"*\", [\"field\", 23, null], 1.5]], \"p\": [\"power\", [\"field\", 24, null], 2],"
                    + " \"s\": [\"sqrt\", [\"abs\", [\"field\", 23, null]]], \"c\": [\"ceil\", [\"field\", 23, null]], \"f\": [\"floor\", [\"field\", 23, null]]},"
                    + " \"fields\": [[\"expression\", \"net\"], [\"expression\", \"ratio\"], [\"expression\", \"safe\"], [\"expression\", \"r\"],"
                    + " [\"expression\", \"p\"], [\"expression\", \"s\"], [\"expression\", \"c\"], [\"expression\", \"f\"]]}");
            assertEquals("SELECT (" + col("TOTAL") + " - " + col("DISCOUNT") + ") AS \"net\", (CAST(" + col("QUANTITY") + " AS DOUBLE PRECISION)"
                    + " / NULLIF(CAST(" + col("DISCOUNT") + " AS DOUBLE PRECISION), 0)) AS \"ratio\", COALESCE(" + col("DISCOUNT") + ", ?) AS \"safe\","
                    + " ROUND((" + col("TOTAL") + " * ?)) AS \"r\", POWER(" + col("QUANTITY") + ", ?) AS \"p\", SQRT(CAST(ABS(" + col("TOTAL")
                    + ") AS DOUBLE PRECISION)) AS \"s\", CEIL(" + col("TOTAL") + ") AS \"c\", FLOOR(" + col("TOTAL") + ") AS \"f\" FROM " + ORDERS,
                    q.sql());
            assertEquals(List.of(0L, 1.5, 2L), q.params());
            assertEquals(List.of("type/Float", "type/Float", "type/Float", "type/Integer", "type/Float", "type/Float", "type/Integer",
                    "type/Integer"), q.columns().stream().map(Column::baseType).toList());
            assertEquals(List.of("expression", "net"), q.columns().get(0).fieldRef());
        }

        @Test
        void textFunctions() {
            CompiledQuery q = h2("{\"source-table\": 1, \"expressions\": {\"t\": [\"concat\", [\"upper\", [\"field\", 11, null]], \" - \","
                    + " [\"lower\", [\"field\", 12, null]], [\"field\", 10, null]], \"s\": [\"substring\", [\"trim\", [\"field\", 11, null]], 1, 3],"
                    + " \"l\": [\"length\", [\"ltrim\", [\"rtrim\", [\"field\", 11, null]]]], \"r\": [\"replace\", [\"field\", 11, null], \"a\", \"b\"]},"
                    + " \"fields\": [[\"expression\", \"t\"], [\"expression\", \"s\"], [\"expression\", \"l\"], [\"expression\", \"r\"]]}");
            String title = PRODUCTS + ".\"TITLE\"";
            assertEquals("SELECT CONCAT(UPPER(" + title + "), ?, LOWER(" + PRODUCTS + ".\"CATEGORY\"), CAST(" + PRODUCTS + ".\"ID\" AS VARCHAR))"
                    + " AS \"t\", SUBSTRING(TRIM(" + title + "), ?, ?) AS \"s\", CHAR_LENGTH(LTRIM(RTRIM(" + title + "))) AS \"l\","
                    + " REPLACE(" + title + ", ?, ?) AS \"r\" FROM " + PRODUCTS, q.sql());
            assertEquals(List.of(" - ", 1L, 3L, "a", "b"), q.params());
            String sqlite = compile(new SqliteDialect(), "{\"source-table\": 1, \"expressions\": {\"t\": [\"concat\", [\"field\", 11, null], \"!\"]},"
                    + " \"fields\": [[\"expression\", \"t\"]]}").sql();
            assertTrue(sqlite.startsWith("SELECT (" + title + " || ?) AS \"t\""), sqlite);
        }

        @Test
        void caseAndConditions() {
            CompiledQuery q = h2("{\"source-table\": 2, \"expressions\": {\"band\": [\"case\", [[[\"<\", [\"field\", 23, null], 10], \"low\"],"
                    + " [[\"<\", [\"field\", 23, null], 100], \"mid\"]], {\"default\": \"high\"}], \"big\": [\">\", [\"field\", 23, null], 1000]},"
                    + " \"fields\": [[\"expression\", \"band\"], [\"expression\", \"big\"]]}");
            assertEquals("SELECT CASE WHEN (" + col("TOTAL") + " < ?) THEN ? WHEN (" + col("TOTAL") + " < ?) THEN ? ELSE ? END AS \"band\", ("
                    + col("TOTAL") + " > ?) AS \"big\" FROM " + ORDERS, q.sql());
            assertEquals(List.of(10L, "low", 100L, "mid", "high", 1000L), q.params());
            assertEquals("type/Boolean", q.columns().get(1).baseType());
        }

        @Test
        void datesAddDiffExtractAndIntervals() {
            CompiledQuery q = h2("{\"source-table\": 2, \"expressions\": {\"due\": [\"datetime-add\", [\"field\", 25, null], 2, \"week\"],"
                    + " \"back\": [\"-\", [\"field\", 25, null], [\"interval\", 3, \"month\"]], \"y\": [\"get-year\", [\"field\", 25, null]],"
                    + " \"q\": [\"get-quarter\", [\"field\", 25, null]], \"w\": [\"get-week\", [\"field\", 25, null]], \"h\": [\"get-hour\", [\"field\", 25, null]],"
                    + " \"n\": [\"now\"], \"d\": [\"datetime-diff\", [\"field\", 25, null], \"2026-01-01\", \"day\"]},"
                    + " \"fields\": [[\"expression\", \"due\"], [\"expression\", \"back\"], [\"expression\", \"y\"], [\"expression\", \"q\"],"
                    + " [\"expression\", \"w\"], [\"expression\", \"h\"], [\"expression\", \"n\"], [\"expression\", \"d\"]]}");
            String created = col("CREATED_AT");
            assertEquals("SELECT DATEADD(WEEK, 2, " + created + ") AS \"due\", DATEADD(MONTH, -3, " + created + ") AS \"back\", EXTRACT(YEAR FROM "
                    + created + ") AS \"y\", EXTRACT(QUARTER FROM " + created + ") AS \"q\", EXTRACT(ISO_WEEK FROM " + created + ") AS \"w\","
                    + " EXTRACT(HOUR FROM " + created + ") AS \"h\", LOCALTIMESTAMP AS \"n\", TRUNC(((DATEDIFF(MILLISECOND, " + created
                    + ", ?) / 1000.0) / 86400.0)) AS \"d\" FROM " + ORDERS, q.sql());
            assertEquals(List.of(LocalDate.of(2026, 1, 1)), q.params());
            assertEquals("TIMESTAMPDIFF(MONTH, `PUBLIC`.`ORDERS`.`CREATED_AT`, ?)", compile(new MySqlDialect(), "{\"source-table\": 2,"
                    + " \"expressions\": {\"m\": [\"datetime-diff\", [\"field\", 25, null], \"2026-01-01T00:00:00\", \"month\"]},"
                    + " \"fields\": [[\"expression\", \"m\"]]}").sql().replaceAll("SELECT (.*) AS `m`.*", "$1"));
            assertEquals("An interval can only be added to or subtracted from one date.", invalid("{\"source-table\": 2, \"expressions\":"
                    + " {\"x\": [\"*\", [\"field\", 25, null], [\"interval\", 3, \"month\"]]}, \"fields\": [[\"expression\", \"x\"]]}"));
        }

        @Test
        void expressionsCanUseExpressionsButNotThemselves() {
            assertTrue(sql("{\"source-table\": 2, \"expressions\": {\"a\": [\"+\", [\"field\", 24, null], 1], \"b\": [\"*\", [\"expression\", \"a\"], 2]},"
                    + " \"fields\": [[\"expression\", \"b\"]]}").startsWith("SELECT ((" + col("QUANTITY") + " + ?) * ?) AS \"b\""));
            assertEquals("The expression \"a\" refers to itself.", invalid("{\"source-table\": 2, \"expressions\": {\"a\": [\"+\", [\"expression\","
                    + " \"b\"], 1], \"b\": [\"expression\", \"a\"]}, \"fields\": [[\"expression\", \"a\"]]}"));
            assertEquals("No expression named \"zz\".", invalid("{\"source-table\": 2, \"fields\": [[\"expression\", \"zz\"]]}"));
        }

        @Test
        void namesChosenByTheQueryAreQuotedIdentifiersNeverSql() {
            String name = "x\\\" FROM \\\"ORDERS\\\"; DROP TABLE \\\"ORDERS\\\"; --";
            CompiledQuery q = h2("{\"source-table\": 2, \"expressions\": {\"" + name + "\": [\"+\", [\"field\", 24, null], 1]},"
                    + " \"fields\": [[\"expression\", \"" + name + "\"]]}");
            assertEquals("SELECT (" + col("QUANTITY") + " + ?) AS \"x\"\" FROM \"\"ORDERS\"\"; DROP TABLE \"\"ORDERS\"\"; --\" FROM " + ORDERS, q.sql());
            CompiledQuery mysql = compile(new MySqlDialect(), "{\"source-table\": 2, \"expressions\": {\"a`b\": [\"+\", [\"field\", 24, null], 1]},"
                    + " \"fields\": [[\"expression\", \"a`b\"]]}");
            assertTrue(mysql.sql().contains(" AS `a``b` "), mysql.sql());
        }
    }

    @Nested
    class LimitsAndColumns {
        @Test
        void limitAndPage() {
            assertTrue(sql("{\"source-table\": 2, \"fields\": [[\"field\", 20, null]], \"limit\": 5}").endsWith(" LIMIT 5"));
            assertTrue(sql("{\"source-table\": 2, \"fields\": [[\"field\", 20, null]], \"page\": {\"page\": 3, \"items\": 20}}")
                    .endsWith(" LIMIT 20 OFFSET 40"));
            assertEquals("The limit must be a whole number, 0 or more.", invalid("{\"source-table\": 2, \"limit\": -1}"));
            assertEquals("Pages are numbered from 1.", invalid("{\"source-table\": 2, \"page\": {\"page\": 0, \"items\": 5}}"));
        }

        @Test
        void plainRowsAreOrderedAsAsked() {
            assertTrue(sql("{\"source-table\": 2, \"fields\": [[\"field\", 20, null]], \"order-by\": [[\"desc\", [\"field\", 23, null]],"
                    + " [\"asc\", [\"field\", 11, {\"source-field\": 21}]]]}").endsWith(" ORDER BY " + col("TOTAL")
                    + " DESC, \"PRODUCTS__via__PRODUCT_ID\".\"TITLE\" ASC"));
        }

        @Test
        void duplicateNamesGetSuffixes() {
            CompiledQuery q = h2("{\"source-table\": 2, \"fields\": [[\"field\", 20, null], [\"field\", 25, null]], \"joins\": [{\"source-table\": 1,"
                    + " \"alias\": \"P\", \"condition\": [\"=\", [\"field\", 21, null], [\"field\", 10, {\"join-alias\": \"P\"}]],"
                    + " \"fields\": [[\"field\", 10, {\"join-alias\": \"P\"}], [\"field\", 15, {\"join-alias\": \"P\"}]]}]}");
            assertEquals(List.of("ID", "CREATED_AT", "ID_2", "CREATED_AT_2"), q.columns().stream().map(Column::name).toList());
        }

        @Test
        void aggregatedOrLimitedQueriesGetTheLargerCap() {
            assertFalse(MbqlCompiler.aggregatedOrLimited(KeyQueries.parse("{\"source-table\": 2}")));
            assertTrue(MbqlCompiler.aggregatedOrLimited(KeyQueries.parse("{\"source-table\": 2, \"aggregation\": [[\"count\"]]}")));
            assertTrue(MbqlCompiler.aggregatedOrLimited(KeyQueries.parse("{\"source-table\": 2, \"breakout\": [[\"field\", 20, null]]}")));
            assertTrue(MbqlCompiler.aggregatedOrLimited(KeyQueries.parse("{\"source-table\": 2, \"limit\": 5000}")));
        }
    }

    @Nested
    class Parameters {
        private CompiledQuery withParameters(String json, String parameters) {
            List<Map<String, Object>> list = new java.util.ArrayList<>();
            for (Object p : (List<?>) KeyQueries.parse("{\"p\": " + parameters + "}").get("p")) {
                @SuppressWarnings("unchecked")
                Map<String, Object> map = (Map<String, Object>) p;
                list.add(map);
            }
            return new MbqlCompiler(new MbqlCompiler.Context(new H2Dialect(), FakeMetadata.shop(), MbqlReferences.NONE, 1, NOW,
                    DayOfWeek.SUNDAY, 8, 10.0)).compile(KeyQueries.parse(json), list);
        }

        @Test
        void dimensionParametersBecomeFiltersOfTheLastStage() {
            CompiledQuery q = withParameters("{\"source-table\": 2, \"aggregation\": [[\"count\"]], \"filter\": [\">\", [\"field\", 23, null], 1]}",
                    "[{\"type\": \"category\", \"target\": [\"dimension\", [\"field\", 12, {\"source-field\": 21}]], \"value\": [\"Gizmo\", \"Widget\"]},"
                            + " {\"type\": \"number/between\", \"target\": [\"dimension\", [\"field\", 24, null]], \"value\": [2, null]},"
                            + " {\"type\": \"string/contains\", \"target\": [\"dimension\", [\"field\", 11, {\"source-field\": 21}]], \"value\": \"Hat\"},"
                            + " {\"type\": \"date/relative\", \"target\": [\"dimension\", [\"field\", 25, {\"temporal-unit\": \"month\"}]], \"value\": \"past3months\"},"
                            + " {\"type\": \"category\", \"target\": [\"dimension\", [\"field\", 22, null]], \"value\": null},"
                            + " {\"type\": \"category\", \"target\": [\"variable\", [\"template-tag\", \"x\"]], \"value\": 1}]");
            assertEquals("SELECT COUNT(*) AS \"count\" FROM " + ORDERS + " LEFT JOIN " + PRODUCTS + " AS \"PRODUCTS__via__PRODUCT_ID\" ON "
                    + col("PRODUCT_ID") + " = \"PRODUCTS__via__PRODUCT_ID\".\"ID\" WHERE ((" + col("TOTAL") + " > ?) AND (\"PRODUCTS__via__PRODUCT_ID\"."
                    + "\"CATEGORY\" IN (?, ?)) AND (" + col("QUANTITY") + " >= ?) AND (LOWER(\"PRODUCTS__via__PRODUCT_ID\".\"TITLE\") LIKE ? ESCAPE '!')"
                    + " AND ((" + col("CREATED_AT") + " >= ?) AND (" + col("CREATED_AT") + " < ?)))", q.sql());
            assertEquals(List.of(1L, "Gizmo", "Widget", 2L, "%hat%", LocalDateTime.of(2025, 12, 1, 0, 0), LocalDateTime.of(2026, 3, 1, 0, 0)),
                    q.params());
        }

        @Test
        void datesAndBadValues() {
            CompiledQuery q = withParameters("{\"source-table\": 3}", "[{\"type\": \"date/all-options\", \"target\": [\"dimension\","
                    + " [\"field\", 32, null]], \"value\": \"1990-01-01~1990-12-31\"}]");
            assertEquals(List.of(LocalDate.of(1990, 1, 1), LocalDate.of(1991, 1, 1)), q.params(), "date columns get dates");
            QueryFailure bad = assertThrows(QueryFailure.class, () -> withParameters("{\"source-table\": 3}", "[{\"type\": \"date/single\","
                    + " \"target\": [\"dimension\", [\"field\", 32, null]], \"value\": \"someday\"}]"));
            assertEquals(QueryFailure.Type.INVALID_QUERY, bad.type());
            assertEquals(List.of("Ada", "Grace"), withParameters("{\"source-table\": 3}", "[{\"type\": \"string/!=\", \"target\": [\"dimension\","
                    + " [\"field\", 31, null]], \"value\": [\"Ada\", \"Grace\"]}]").params());
        }
    }

    /** References with chosen cards, segments and metrics. */
    record References(Map<Long, CardQuery> cards, Map<Long, Object> segments, Map<Long, Object> metrics) implements MbqlReferences {
        @Override
        public CardQuery card(long cardId) {
            return cards.get(cardId);
        }

        @Override
        public Object segment(long segmentId) {
            return segments.get(segmentId);
        }

        @Override
        public Object metric(long metricId) {
            return metrics.get(metricId);
        }
    }
}
