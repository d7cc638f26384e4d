package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.driver.Sql;
import io.quarry.driver.TemporalUnit;
import io.quarry.qp.QueryFailure;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link TemporalBucketing}: a reference's {@code temporal-unit} applied to its column, over the shop's ORDERS
 * (CREATED_AT 25 is a date-time, TOTAL 23 a number) and PEOPLE (BIRTH_DATE 32 is a date) on H2.
 */
class TemporalBucketingTest {
    private static final String CREATED_AT = "\"PUBLIC\".\"ORDERS\".\"CREATED_AT\"";

    private static StageScope orders(DayOfWeek firstDayOfWeek) {
        return PassTesting.tableScope(FakeMetadata.shop(), 2, firstDayOfWeek);
    }

    /** Field {@code id} of {@code scope}'s table, bucketed by {@code unit}. */
    private static Col bucketed(StageScope scope, long id, String unit) {
        return scope.columnCompiler.column(PassTesting.json("[\"field\", " + id + ", {\"temporal-unit\": \"" + unit + "\"}]"));
    }

    private static String sql(DayOfWeek firstDayOfWeek, String unit) {
        return bucketed(orders(firstDayOfWeek), 25, unit).sql.text();
    }

    private static String failure(StageScope scope, Col col, Object unit) {
        QueryFailure failure = assertThrows(QueryFailure.class, () -> scope.temporalBucketing.bucket(col, Map.of("temporal-unit", unit)));
        assertEquals(QueryFailure.Type.INVALID_QUERY, failure.type());
        return failure.getMessage();
    }

    /** A column of a source query, as the stage reading it sees it. */
    private static Col upstream(String type, TemporalUnit unit) {
        Col col = new Col();
        col.sql = Sql.raw("\"source\".\"CREATED_AT\"");
        col.name = "CREATED_AT";
        col.displayName = "Created At: Month";
        col.baseType = type;
        col.effectiveType = type;
        col.unit = unit;
        col.upstreamUnit = unit;
        col.fieldRef = List.of("field", "CREATED_AT", Map.of("base-type", type));
        return col;
    }

    @Test
    void aTruncationUnitTruncatesAndKeepsTheRawColumnAndTheType() {
        Col month = bucketed(orders(DayOfWeek.SUNDAY), 25, "month");
        assertEquals("DATE_TRUNC('MONTH', " + CREATED_AT + ")", month.sql.text());
        assertEquals(CREATED_AT, month.raw.text());
        assertEquals(TemporalUnit.MONTH, month.unit);
        assertEquals("type/DateTime", month.effectiveType);
        assertEquals("type/CreationTimestamp", month.semanticType);
        assertEquals("Created At: Month", month.displayName);
        PassTesting.assertClause("[\"field\", 25, {\"temporal-unit\": \"month\"}]", month.fieldRef);
        Map.of("minute", "MINUTE", "HOUR", "HOUR", "quarter", "QUARTER", "year", "YEAR").forEach((unit, part) ->
                assertEquals("DATE_TRUNC('" + part + "', " + CREATED_AT + ")", sql(DayOfWeek.SUNDAY, unit), unit));
    }

    @Test
    void anExtractionUnitIsAnIntegerWithoutItsSemanticType() {
        Col monthOfYear = bucketed(orders(DayOfWeek.SUNDAY), 25, "month-of-year");
        assertEquals("EXTRACT(MONTH FROM " + CREATED_AT + ")", monthOfYear.sql.text());
        assertEquals(TemporalUnit.MONTH_OF_YEAR, monthOfYear.unit);
        assertEquals("type/Integer", monthOfYear.baseType);
        assertEquals("type/Integer", monthOfYear.effectiveType);
        assertNull(monthOfYear.semanticType);
        assertEquals("Created At: Month of year", monthOfYear.displayName);
        Map.of("second-of-minute", "SECOND", "hour-of-day", "HOUR", "day-of-month", "DAY", "day-of-year", "DAY_OF_YEAR",
                "quarter-of-year", "QUARTER", "year-of-era", "YEAR", "week-of-year-iso", "ISO_WEEK").forEach((unit, part) ->
                assertEquals("EXTRACT(" + part + " FROM " + CREATED_AT + ")", sql(DayOfWeek.SUNDAY, unit), unit));
    }

    @Test
    void aDateTruncatedToADayOrCoarserStaysADate() {
        StageScope people = PassTesting.tableScope(FakeMetadata.shop(), 3, DayOfWeek.SUNDAY);
        String birthDate = "\"PUBLIC\".\"PEOPLE\".\"BIRTH_DATE\"";
        assertEquals("CAST(DATE_TRUNC('MONTH', " + birthDate + ") AS DATE)", bucketed(people, 32, "month").sql.text());
        assertEquals("CAST(DATE_TRUNC('DAY', " + birthDate + ") AS DATE)", bucketed(people, 32, "day").sql.text());
        assertEquals("DATE_TRUNC('DAY', " + CREATED_AT + ")", sql(DayOfWeek.SUNDAY, "day"));
    }

    @Test
    void theDefaultUnitAndNoUnitLeaveTheColumnAsItIs() {
        StageScope scope = orders(DayOfWeek.SUNDAY);
        Col asDefault = bucketed(scope, 25, "default");
        assertEquals(CREATED_AT, asDefault.sql.text());
        assertNull(asDefault.raw);
        assertNull(asDefault.unit);
        assertEquals("Created At", asDefault.displayName);
        PassTesting.assertClause("[\"field\", 25, null]", asDefault.fieldRef);
        // default is no bucketing at all, so even a number may ask for it
        assertEquals("\"PUBLIC\".\"ORDERS\".\"TOTAL\"", bucketed(scope, 23, "default").sql.text());
        Col plain = upstream("type/DateTime", null);
        assertSame(plain, scope.temporalBucketing.bucket(plain, Map.of()));
        assertEquals("\"source\".\"CREATED_AT\"", plain.sql.text());
    }

    @Test
    void aColumnItsSourceAlreadyBucketedByTheUnitIsLeftAlone() {
        StageScope scope = orders(DayOfWeek.SUNDAY);
        Col month = scope.temporalBucketing.bucket(upstream("type/DateTime", TemporalUnit.MONTH), Map.of("temporal-unit", "month"));
        assertEquals("\"source\".\"CREATED_AT\"", month.sql.text());
        assertNull(month.raw);
        assertEquals("Created At: Month", month.displayName);
        PassTesting.assertClause("[\"field\", \"CREATED_AT\", {\"base-type\": \"type/DateTime\"}]", month.fieldRef);
        // another unit buckets the bucketed column again
        Col year = scope.temporalBucketing.bucket(upstream("type/DateTime", TemporalUnit.MONTH), Map.of("temporal-unit", "year"));
        assertEquals("DATE_TRUNC('YEAR', \"source\".\"CREATED_AT\")", year.sql.text());
        assertEquals(TemporalUnit.YEAR, year.unit);
        // the same through the compiler: the outer stage does not truncate what its source query truncated
        String nested = MbqlCompilerTest.sql("{\"source-query\": {\"source-table\": 2, \"aggregation\": [[\"count\"]], \"breakout\":"
                + " [[\"field\", 25, {\"temporal-unit\": \"month\"}]]}, \"breakout\": [[\"field\", \"CREATED_AT\", {\"base-type\":"
                + " \"type/DateTime\", \"temporal-unit\": \"month\"}]]}");
        assertTrue(nested.startsWith("SELECT \"source\".\"CREATED_AT\" AS \"CREATED_AT\" FROM (SELECT DATE_TRUNC('MONTH', "), nested);
        assertTrue(nested.endsWith(") AS \"source\" GROUP BY \"source\".\"CREATED_AT\" ORDER BY \"source\".\"CREATED_AT\" ASC"), nested);
    }

    @Test
    void anUnknownUnitIsRefusedByName() {
        StageScope scope = orders(DayOfWeek.SUNDAY);
        assertEquals("Unknown temporal unit \"fortnight\".", failure(scope, upstream("type/DateTime", null), "fortnight"));
        assertEquals("Unknown temporal unit \"7\".", failure(scope, upstream("type/DateTime", null), 7L));
    }

    @Test
    void onlyADateOrTimeOrAColumnOfUnknownTypeIsBucketed() {
        StageScope scope = orders(DayOfWeek.SUNDAY);
        Col total = scope.columnCompiler.column(PassTesting.json("[\"field\", 23, null]"));
        assertEquals("The column TOTAL is not a date or time: it can't be grouped by month.", failure(scope, total, "month"));
        Col count = upstream("type/BigInteger", null);
        count.name = "count";
        assertEquals("The column count is not a date or time: it can't be grouped by day-of-week.", failure(scope, count, "day-of-week"));
        // an expression's type may be unknown ("type/*"): it is trusted to be a date
        Col unknown = scope.temporalBucketing.bucket(upstream(MbqlTypes.ANY, null), Map.of("temporal-unit", "year"));
        assertEquals("DATE_TRUNC('YEAR', \"source\".\"CREATED_AT\")", unknown.sql.text());
    }

    @Test
    void weeksAndDaysOfTheWeekFollowTheStartOfWeekSetting() {
        // weeks: H2 truncates to Monday; another first day shifts into Monday's week and back
        assertEquals("DATE_TRUNC('WEEK', " + CREATED_AT + ")", sql(DayOfWeek.MONDAY, "week"));
        assertEquals("DATEADD(DAY, -1, DATE_TRUNC('WEEK', DATEADD(DAY, 1, " + CREATED_AT + ")))", sql(DayOfWeek.SUNDAY, "week"));
        assertEquals("DATEADD(DAY, -2, DATE_TRUNC('WEEK', DATEADD(DAY, 2, " + CREATED_AT + ")))", sql(DayOfWeek.SATURDAY, "week"));
        // day of week: 1 is the first day
        String iso = "EXTRACT(ISO_DAY_OF_WEEK FROM " + CREATED_AT + ")";
        assertEquals(iso, sql(DayOfWeek.MONDAY, "day-of-week"));
        assertEquals("((" + iso + " + 0) % 7 + 1)", sql(DayOfWeek.SUNDAY, "day-of-week"));
        assertEquals("((" + iso + " + 1) % 7 + 1)", sql(DayOfWeek.SATURDAY, "day-of-week"));
        // ... but not the ISO day of week, the ISO week nor the US week of the year
        assertEquals(iso, sql(DayOfWeek.SATURDAY, "day-of-week-iso"));
        assertEquals("EXTRACT(ISO_WEEK FROM " + CREATED_AT + ")", sql(DayOfWeek.SATURDAY, "week-of-year-iso"));
        assertEquals(sql(DayOfWeek.SUNDAY, "week-of-year"), sql(DayOfWeek.MONDAY, "week-of-year-us"));
        assertEquals(sql(DayOfWeek.SUNDAY, "week-of-year-us"), sql(DayOfWeek.SATURDAY, "week-of-year-us"));
        assertEquals(sql(DayOfWeek.MONDAY, "week-of-year"), sql(DayOfWeek.MONDAY, "week-of-year-instance"));
    }

    @Test
    void theWeekUnitsCountFromTheFirstDayOfTheWeekOnH2() throws SQLException {
        // 1 January 2026 is a Thursday; 3 January a Saturday, 4 January a Sunday, 5 January a Monday
        List<LocalDate> days = List.of(LocalDate.of(2026, 1, 1), LocalDate.of(2026, 1, 3), LocalDate.of(2026, 1, 4),
                LocalDate.of(2026, 1, 5), LocalDate.of(2026, 1, 11));
        assertEquals(List.of(5L, 7L, 1L, 2L, 1L), evaluate(DayOfWeek.SUNDAY, TemporalUnit.DAY_OF_WEEK, days));
        assertEquals(List.of(4L, 6L, 7L, 1L, 7L), evaluate(DayOfWeek.MONDAY, TemporalUnit.DAY_OF_WEEK, days));
        assertEquals(List.of(6L, 1L, 2L, 3L, 2L), evaluate(DayOfWeek.SATURDAY, TemporalUnit.DAY_OF_WEEK, days));
        // week 1 starts on 1 January, week 2 on the first day of the week after it
        assertEquals(List.of(1L, 1L, 2L, 2L, 3L), evaluate(DayOfWeek.SUNDAY, TemporalUnit.WEEK_OF_YEAR, days));
        assertEquals(List.of(1L, 1L, 1L, 2L, 2L), evaluate(DayOfWeek.MONDAY, TemporalUnit.WEEK_OF_YEAR, days));
        assertEquals(List.of(1L, 2L, 2L, 2L, 3L), evaluate(DayOfWeek.SATURDAY, TemporalUnit.WEEK_OF_YEAR, days));
        assertEquals(List.of(1L, 1L, 2L, 2L, 3L), evaluate(DayOfWeek.MONDAY, TemporalUnit.WEEK_OF_YEAR_US, days));
    }

    /** The extraction of {@code unit} from each day (at noon), as an in-memory H2 computes it. */
    private static List<Long> evaluate(DayOfWeek firstDayOfWeek, TemporalUnit unit, List<LocalDate> days) throws SQLException {
        Sql extracted = orders(firstDayOfWeek).temporalBucketing.extract(unit, Sql.raw("\"T\""));
        List<Long> values = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection("jdbc:h2:mem:");
             PreparedStatement statement = connection.prepareStatement("SELECT " + extracted.text()
                     + " FROM (SELECT CAST(? AS TIMESTAMP) AS \"T\") AS \"DAYS\"")) {
            for (LocalDate day : days) {
                statement.setObject(1, day.atTime(12, 0));
                try (ResultSet rs = statement.executeQuery()) {
                    rs.next();
                    values.add(rs.getLong(1));
                }
            }
        }
        return values;
    }
}
