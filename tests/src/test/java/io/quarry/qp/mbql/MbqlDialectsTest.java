package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.driver.AnsiDialect;
import io.quarry.driver.Sql;
import io.quarry.driver.SqlDialect;
import io.quarry.driver.TemporalUnit;
import io.quarry.driver.duckdb.DuckDbDialect;
import io.quarry.driver.h2.H2Dialect;
import io.quarry.driver.mysql.MySqlDialect;
import io.quarry.driver.postgres.PostgresDialect;
import io.quarry.driver.sqlite.SqliteDialect;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What each engine's SQL looks like for the operations that differ between engines. */
class MbqlDialectsTest {
    private static final Sql X = Sql.raw("x");

    @Test
    void enginesHaveTheirDialects() {
        assertEquals("h2", MbqlDialects.forEngine("h2").engine());
        assertEquals("postgres", MbqlDialects.forEngine("postgres").engine());
        assertEquals("mysql", MbqlDialects.forEngine("mysql").engine());
        assertEquals("mysql", MbqlDialects.forEngine("mariadb").engine());
        assertEquals("sqlite", MbqlDialects.forEngine("sqlite").engine());
        assertEquals("duckdb", MbqlDialects.forEngine("duckdb").engine());
        assertNull(MbqlDialects.forEngine("mongo"));
        assertNull(MbqlDialects.forEngine(null));
    }

    @Test
    void quotingDoublesTheQuoteCharacter() {
        assertEquals("\"a\"\"b\"", new PostgresDialect().quote("a\"b"));
        assertEquals("`a``b`", new MySqlDialect().quote("a`b"));
        assertEquals("\"s\".\"t\"", new SqliteDialect().qualify("s", "t"));
        assertEquals("\"t\"", new DuckDbDialect().qualify(null, "t"));
        assertThrows(IllegalArgumentException.class, () -> new H2Dialect().quote("a\0b"));
    }

    @Test
    void truncation() {
        assertEquals("DATE_TRUNC('MONTH', x)", new H2Dialect().truncate(TemporalUnit.MONTH, X, DayOfWeek.SUNDAY).text());
        assertEquals("DATE_TRUNC('month', x)", new PostgresDialect().truncate(TemporalUnit.MONTH, X, DayOfWeek.SUNDAY).text());
        assertEquals("(DATE_TRUNC('week', (x + INTERVAL '1 day')) + INTERVAL '-1 day')",
                new PostgresDialect().truncate(TemporalUnit.WEEK, X, DayOfWeek.SUNDAY).text());
        assertEquals("DATE_TRUNC('week', x)", new DuckDbDialect().truncate(TemporalUnit.WEEK, X, DayOfWeek.MONDAY).text());
        assertEquals("STR_TO_DATE(DATE_FORMAT(x, '%Y-%m-01'), '%Y-%m-%d')",
                new MySqlDialect().truncate(TemporalUnit.MONTH, X, DayOfWeek.SUNDAY).text());
        assertEquals("DATE(DATE_SUB(x, INTERVAL ((WEEKDAY(x) + 1) % 7) DAY))",
                new MySqlDialect().truncate(TemporalUnit.WEEK, X, DayOfWeek.SUNDAY).text());
        assertEquals("STR_TO_DATE(CONCAT(YEAR(x), '-', QUARTER(x) * 3 - 2, '-01'), '%Y-%m-%d')",
                new MySqlDialect().truncate(TemporalUnit.QUARTER, X, DayOfWeek.SUNDAY).text());
        assertEquals("DATE(x, 'start of month')", new SqliteDialect().truncate(TemporalUnit.MONTH, X, DayOfWeek.SUNDAY).text());
        assertEquals("DATE(x, '-' || ((CAST(STRFTIME('%w', x) AS INTEGER) + 7) % 7) || ' days')",
                new SqliteDialect().truncate(TemporalUnit.WEEK, X, DayOfWeek.SUNDAY).text());
        assertEquals("DATE(x, '-' || ((CAST(STRFTIME('%w', x) AS INTEGER) + 6) % 7) || ' days')",
                new SqliteDialect().truncate(TemporalUnit.WEEK, X, DayOfWeek.MONDAY).text());
        assertEquals("STRFTIME('%Y-%m-%d %H:00:00', x)", new SqliteDialect().truncate(TemporalUnit.HOUR, X, DayOfWeek.SUNDAY).text());
    }

    @Test
    void extraction() {
        assertEquals("EXTRACT(ISO_DAY_OF_WEEK FROM x)", new H2Dialect().extract(SqlDialect.Part.ISO_DAY_OF_WEEK, X).text());
        assertEquals("CAST(EXTRACT(ISODOW FROM x) AS INTEGER)", new PostgresDialect().extract(SqlDialect.Part.ISO_DAY_OF_WEEK, X).text());
        assertEquals("CAST(FLOOR(EXTRACT(SECOND FROM x)) AS INTEGER)", new PostgresDialect().extract(SqlDialect.Part.SECOND, X).text());
        assertEquals("(WEEKDAY(x) + 1)", new MySqlDialect().extract(SqlDialect.Part.ISO_DAY_OF_WEEK, X).text());
        assertEquals("WEEK(x, 3)", new MySqlDialect().extract(SqlDialect.Part.ISO_WEEK, X).text());
        assertEquals("((CAST(STRFTIME('%m', x) AS INTEGER) + 2) / 3)", new SqliteDialect().extract(SqlDialect.Part.QUARTER, X).text());
        assertEquals("CAST(EXTRACT(DOY FROM x) AS INTEGER)", new DuckDbDialect().extract(SqlDialect.Part.DAY_OF_YEAR, X).text());
    }

    @Test
    void intervals() {
        assertEquals("DATEADD(QUARTER, -2, x)", new H2Dialect().addInterval(X, -2, TemporalUnit.QUARTER).text());
        assertEquals("(x + INTERVAL '-6 month')", new PostgresDialect().addInterval(X, -2, TemporalUnit.QUARTER).text());
        assertEquals("DATE_ADD(x, INTERVAL 3 WEEK)", new MySqlDialect().addInterval(X, 3, TemporalUnit.WEEK).text());
        assertEquals("DATETIME(x, '-14 days')", new SqliteDialect().addInterval(X, -2, TemporalUnit.WEEK).text());
        assertEquals("DATETIME(x, '+1 years')", new SqliteDialect().addInterval(X, 1, TemporalUnit.YEAR).text());
        assertEquals("(x + INTERVAL '5 hour')", new DuckDbDialect().addInterval(X, 5, TemporalUnit.HOUR).text());
    }

    @Test
    void differencesBetweenDates() {
        Sql a = Sql.raw("a");
        Sql b = Sql.raw("b");
        assertEquals("TIMESTAMPDIFF(QUARTER, a, b)", new MySqlDialect().datetimeDiff(TemporalUnit.QUARTER, a, b).text());
        assertEquals("TRUNC((EXTRACT(EPOCH FROM (CAST(b AS TIMESTAMP) - CAST(a AS TIMESTAMP))) / 3600.0))",
                new PostgresDialect().datetimeDiff(TemporalUnit.HOUR, a, b).text());
        assertEquals("CAST((((JULIANDAY(b) - JULIANDAY(a)) * 86400.0) / 86400.0) AS INTEGER)",
                new SqliteDialect().datetimeDiff(TemporalUnit.DAY, a, b).text());
        String months = new H2Dialect().datetimeDiff(TemporalUnit.MONTH, a, b).text();
        assertTrue(months.startsWith("(((EXTRACT(YEAR FROM CAST(b AS TIMESTAMP)) - EXTRACT(YEAR FROM CAST(a AS TIMESTAMP))) * 12"), months);
        assertThrows(IllegalArgumentException.class, () -> new H2Dialect().datetimeDiff(TemporalUnit.MONTH_OF_YEAR, a, b));
    }

    @Test
    void textAndNumbers() {
        assertEquals("(a || b)", new SqliteDialect().concat(List.of(Sql.raw("a"), Sql.raw("b"))).text());
        assertEquals("CONCAT(a, b)", new MySqlDialect().concat(List.of(Sql.raw("a"), Sql.raw("b"))).text());
        assertEquals("SUBSTRING(x FROM CAST(s AS INTEGER) FOR CAST(l AS INTEGER))",
                new PostgresDialect().substring(X, Sql.raw("s"), Sql.raw("l")).text());
        assertEquals("SUBSTR(x, s)", new SqliteDialect().substring(X, Sql.raw("s"), null).text());
        assertEquals("CAST(x AS DOUBLE)", new MySqlDialect().toFloat(X).text());
        assertEquals("CAST(x AS REAL)", new SqliteDialect().toFloat(X).text());
        assertEquals("TRUNCATE(x, 0)", new MySqlDialect().truncateNumber(X).text());
        assertEquals("LOG(x)", new PostgresDialect().log10(X).text());
        assertEquals("FROM_UNIXTIME(x)", new MySqlDialect().unixSecondsToTimestamp(X).text());
        assertEquals("DATETIME(x, 'unixepoch')", new SqliteDialect().unixSecondsToTimestamp(X).text());
        assertEquals("1", new SqliteDialect().booleanLiteral(true).text());
        assertEquals("FALSE", new PostgresDialect().booleanLiteral(false).text());
    }

    @Test
    void limits() {
        assertEquals("LIMIT 10 OFFSET 20", new PostgresDialect().limitOffset(10L, 20));
        assertEquals("OFFSET 5", new H2Dialect().limitOffset(null, 5));
        assertEquals("LIMIT " + Long.MAX_VALUE + " OFFSET 5", new MySqlDialect().limitOffset(null, 5));
        assertEquals("", new DuckDbDialect().limitOffset(null, 0));
    }

    @Test
    void sqliteBindsDatesAsText() {
        SqliteDialect sqlite = new SqliteDialect();
        assertEquals("2024-02-10", sqlite.bindValue(LocalDate.of(2024, 2, 10)));
        assertEquals("2024-02-10 10:30:00", sqlite.bindValue(LocalDateTime.of(2024, 2, 10, 10, 30)));
        assertEquals("2024-02-10 08:30:00", sqlite.bindValue(OffsetDateTime.of(2024, 2, 10, 10, 30, 0, 0, ZoneOffset.ofHours(2))));
        assertEquals(1, sqlite.bindValue(true));
        assertEquals("x", sqlite.bindValue("x"));
        assertEquals(LocalDate.of(2024, 2, 10), new H2Dialect().bindValue(LocalDate.of(2024, 2, 10)));
    }

    @Test
    void unsupportedAggregates() {
        assertThrows(AnsiDialect.UnsupportedFeature.class, () -> new MySqlDialect().percentile(X, 0.5));
        assertThrows(AnsiDialect.UnsupportedFeature.class, () -> new SqliteDialect().variance(X));
        assertEquals("MEDIAN(x)", new H2Dialect().median(X).text());
        assertEquals("PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY x)", new PostgresDialect().median(X).text());
        assertEquals("QUANTILE_CONT(x, 0.9)", new DuckDbDialect().percentile(X, 0.9).text());
    }
}
