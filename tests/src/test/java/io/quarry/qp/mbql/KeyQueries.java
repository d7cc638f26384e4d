package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.type.TypeReference;
import io.quarry.core.Json;
import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The structured queries every engine must answer alike, each with reference SQL written by hand for H2 and run on the
 * Sample Database: the expected rows are computed independently of the compiler.
 */
final class KeyQueries {
    /** Ids of the sample's tables and fields as one metadata source numbers them. */
    interface Ids {
        long table(String table);

        long field(String table, String column);
    }

    /** A query in JSON with {@code $TABLE} and {@code %TABLE.COLUMN} placeholders, and its reference SQL for H2. */
    record KeyQuery(String name, String mbql, String referenceSql, List<Object> referenceParams, boolean withoutPercentiles) {
        Map<String, Object> mbql(Ids ids) {
            return parse(resolve(mbql, ids));
        }
    }

    private KeyQueries() {
    }

    static String resolve(String template, Ids ids) {
        Matcher fields = Pattern.compile("%([A-Z_]+)\\.([A-Z_]+)").matcher(template);
        StringBuilder out = new StringBuilder();
        while (fields.find()) {
            fields.appendReplacement(out, String.valueOf(ids.field(fields.group(1), fields.group(2))));
        }
        fields.appendTail(out);
        Matcher tables = Pattern.compile("\\$([A-Z_]+)").matcher(out.toString());
        StringBuilder done = new StringBuilder();
        while (tables.find()) {
            tables.appendReplacement(done, String.valueOf(ids.table(tables.group(1))));
        }
        tables.appendTail(done);
        return done.toString();
    }

    static Map<String, Object> parse(String json) {
        try {
            return Json.MAPPER.readValue(json, new TypeReference<Map<String, Object>>() { });
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    /** The key queries; {@code now} is the instant relative dates are computed from. */
    static List<KeyQuery> all(LocalDateTime now) {
        LocalDateTime thisMonth = now.toLocalDate().withDayOfMonth(1).atStartOfDay();
        List<KeyQuery> queries = new ArrayList<>();
        queries.add(new KeyQuery("order count and total by product category (implicit join)",
                "{\"source-table\": $ORDERS, \"aggregation\": [[\"count\"], [\"sum\", [\"field\", %ORDERS.TOTAL, null]]],"
                        + " \"breakout\": [[\"field\", %PRODUCTS.CATEGORY, {\"source-field\": %ORDERS.PRODUCT_ID}]]}",
                "SELECT p.CATEGORY, COUNT(*), SUM(o.TOTAL) FROM PUBLIC.ORDERS o LEFT JOIN PUBLIC.PRODUCTS p ON p.ID = o.PRODUCT_ID"
                        + " GROUP BY p.CATEGORY ORDER BY p.CATEGORY", List.of(), false));
        queries.add(new KeyQuery("orders by month",
                "{\"source-table\": $ORDERS, \"aggregation\": [[\"count\"]],"
                        + " \"breakout\": [[\"field\", %ORDERS.CREATED_AT, {\"temporal-unit\": \"month\"}]]}",
                "SELECT DATEADD(DAY, 1 - DAY(CREATED_AT), CAST(CREATED_AT AS DATE)) m, COUNT(*) FROM PUBLIC.ORDERS"
                        + " GROUP BY DATEADD(DAY, 1 - DAY(CREATED_AT), CAST(CREATED_AT AS DATE)) ORDER BY m", List.of(), false));
        queries.add(new KeyQuery("products binned by rating (5 bins of 1 star)",
                "{\"source-table\": $PRODUCTS, \"aggregation\": [[\"count\"], [\"avg\", [\"field\", %PRODUCTS.PRICE, null]]],"
                        + " \"breakout\": [[\"field\", %PRODUCTS.RATING, {\"binning\": {\"strategy\": \"num-bins\", \"num-bins\": 5}}]]}",
                "SELECT FLOOR(RATING) r, COUNT(*), AVG(PRICE) FROM PUBLIC.PRODUCTS GROUP BY FLOOR(RATING) ORDER BY r",
                List.of(), false));
        queries.add(new KeyQuery("left join with an alias",
                "{\"source-table\": $ORDERS, \"joins\": [{\"source-table\": $PRODUCTS, \"alias\": \"Product\", \"strategy\": \"left-join\","
                        + " \"condition\": [\"=\", [\"field\", %ORDERS.PRODUCT_ID, null], [\"field\", %PRODUCTS.ID, {\"join-alias\": \"Product\"}]],"
                        + " \"fields\": \"none\"}], \"aggregation\": [[\"count\"], [\"max\", [\"field\", %PRODUCTS.PRICE, {\"join-alias\": \"Product\"}]]],"
                        + " \"breakout\": [[\"field\", %PRODUCTS.VENDOR, {\"join-alias\": \"Product\"}]],"
                        + " \"order-by\": [[\"desc\", [\"aggregation\", 0]]], \"limit\": 5}",
                "SELECT p.VENDOR, COUNT(*) n, MAX(p.PRICE) FROM PUBLIC.ORDERS o LEFT JOIN PUBLIC.PRODUCTS p ON o.PRODUCT_ID = p.ID"
                        + " GROUP BY p.VENDOR ORDER BY n DESC, p.VENDOR LIMIT 5", List.of(), false));
        queries.add(new KeyQuery("nested source query: users by number of orders",
                "{\"source-query\": {\"source-table\": $ORDERS, \"aggregation\": [[\"count\"]], \"breakout\": [[\"field\", %ORDERS.USER_ID, null]]},"
                        + " \"aggregation\": [[\"count\"]], \"breakout\": [[\"field\", \"count\", {\"base-type\": \"type/BigInteger\"}]]}",
                "SELECT n, COUNT(*) FROM (SELECT USER_ID, COUNT(*) n FROM PUBLIC.ORDERS GROUP BY USER_ID) t GROUP BY n ORDER BY n",
                List.of(), false));
        queries.add(new KeyQuery("expressions: a case breakout and a sum of a difference",
                "{\"source-table\": $ORDERS, \"expressions\": {\"net\": [\"-\", [\"field\", %ORDERS.TOTAL, null], [\"field\", %ORDERS.TAX, null]],"
                        + " \"size\": [\"case\", [[[\">\", [\"field\", %ORDERS.TOTAL, null], 100], \"big\"]], {\"default\": \"small\"}]},"
                        + " \"aggregation\": [[\"sum\", [\"expression\", \"net\"]], [\"count\"]], \"breakout\": [[\"expression\", \"size\"]]}",
                "SELECT CASE WHEN TOTAL > 100 THEN 'big' ELSE 'small' END s, SUM(TOTAL - TAX), COUNT(*) FROM PUBLIC.ORDERS"
                        + " GROUP BY CASE WHEN TOTAL > 100 THEN 'big' ELSE 'small' END ORDER BY s", List.of(), false));
        queries.add(new KeyQuery("case-insensitive contains",
                "{\"source-table\": $PEOPLE, \"filter\": [\"contains\", [\"field\", %PEOPLE.NAME, null], \"JOHN\", {\"case-sensitive\": false}],"
                        + " \"aggregation\": [[\"count\"]]}",
                "SELECT COUNT(*) FROM PUBLIC.PEOPLE WHERE LOWER(NAME) LIKE '%john%'", List.of(), false));
        queries.add(new KeyQuery("case-sensitive contains",
                "{\"source-table\": $PEOPLE, \"filter\": [\"contains\", [\"field\", %PEOPLE.NAME, null], \"John\"],"
                        + " \"aggregation\": [[\"count\"]]}",
                "SELECT COUNT(*) FROM PUBLIC.PEOPLE WHERE NAME LIKE '%John%'", List.of(), false));
        queries.add(new KeyQuery("time-interval: the last 12 months",
                "{\"source-table\": $ORDERS, \"filter\": [\"time-interval\", [\"field\", %ORDERS.CREATED_AT, null], -12, \"month\"],"
                        + " \"aggregation\": [[\"count\"]]}",
                "SELECT COUNT(*) FROM PUBLIC.ORDERS WHERE CREATED_AT >= ? AND CREATED_AT < ?",
                List.of(thisMonth.minusMonths(12), thisMonth), false));
        queries.add(new KeyQuery("cumulative count and sum by year",
                "{\"source-table\": $ORDERS, \"aggregation\": [[\"cum-count\"], [\"cum-sum\", [\"field\", %ORDERS.QUANTITY, null]]],"
                        + " \"breakout\": [[\"field\", %ORDERS.CREATED_AT, {\"temporal-unit\": \"year\"}]]}",
                "SELECT y, SUM(n) OVER (ORDER BY y), SUM(q) OVER (ORDER BY y) FROM (SELECT DATEADD(DAY, 1 - DAY_OF_YEAR(CREATED_AT),"
                        + " CAST(CREATED_AT AS DATE)) y, COUNT(*) n, SUM(QUANTITY) q FROM PUBLIC.ORDERS GROUP BY DATEADD(DAY, 1 - DAY_OF_YEAR(CREATED_AT),"
                        + " CAST(CREATED_AT AS DATE))) t ORDER BY y",
                List.of(), false));
        queries.add(new KeyQuery("conditional aggregations",
                "{\"source-table\": $ORDERS, \"aggregation\": [[\"count-where\", [\">\", [\"field\", %ORDERS.TOTAL, null], 100]],"
                        + " [\"sum-where\", [\"field\", %ORDERS.QUANTITY, null], [\"<\", [\"field\", %ORDERS.TOTAL, null], 50]],"
                        + " [\"share\", [\"not-null\", [\"field\", %ORDERS.DISCOUNT, null]]],"
                        + " [\"distinct\", [\"field\", %ORDERS.USER_ID, null]],"
                        + " [\"distinct-where\", [\"field\", %ORDERS.PRODUCT_ID, null], [\">\", [\"field\", %ORDERS.QUANTITY, null], 5]],"
                        + " [\"min\", [\"field\", %ORDERS.TOTAL, null]], [\"avg\", [\"field\", %ORDERS.QUANTITY, null]]]}",
                "SELECT SUM(CASE WHEN TOTAL > 100 THEN 1 ELSE 0 END), SUM(CASE WHEN TOTAL < 50 THEN QUANTITY ELSE 0 END),"
                        + " CAST(COUNT(DISCOUNT) AS DOUBLE) / COUNT(*), COUNT(DISTINCT USER_ID),"
                        + " COUNT(DISTINCT CASE WHEN QUANTITY > 5 THEN PRODUCT_ID END), MIN(TOTAL), AVG(CAST(QUANTITY AS DOUBLE))"
                        + " FROM PUBLIC.ORDERS", List.of(), false));
        queries.add(new KeyQuery("median and percentile",
                "{\"source-table\": $ORDERS, \"aggregation\": [[\"median\", [\"field\", %ORDERS.TOTAL, null]],"
                        + " [\"percentile\", [\"field\", %ORDERS.TOTAL, null], 0.9], [\"stddev\", [\"field\", %ORDERS.TOTAL, null]]]}",
                "SELECT MEDIAN(TOTAL), PERCENTILE_CONT(0.9) WITHIN GROUP (ORDER BY TOTAL), STDDEV_POP(TOTAL) FROM PUBLIC.ORDERS",
                List.of(), true));
        queries.add(new KeyQuery("filters: between, multi-value =, != with NULLs kept, starts-with, is-null",
                "{\"source-table\": $ORDERS, \"filter\": [\"and\", [\"between\", [\"field\", %ORDERS.QUANTITY, null], 2, 4],"
                        + " [\"=\", [\"field\", %PEOPLE.SOURCE, {\"source-field\": %ORDERS.USER_ID}], \"Google\", \"Twitter\"],"
                        + " [\"!=\", [\"field\", %ORDERS.DISCOUNT, null], 5],"
                        + " [\"or\", [\"starts-with\", [\"field\", %PRODUCTS.CATEGORY, {\"source-field\": %ORDERS.PRODUCT_ID}], \"G\"],"
                        + " [\"is-null\", [\"field\", %ORDERS.DISCOUNT, null]]]], \"aggregation\": [[\"count\"]]}",
                "SELECT COUNT(*) FROM PUBLIC.ORDERS o JOIN PUBLIC.PEOPLE u ON u.ID = o.USER_ID JOIN PUBLIC.PRODUCTS p ON p.ID = o.PRODUCT_ID"
                        + " WHERE o.QUANTITY BETWEEN 2 AND 4 AND u.SOURCE IN ('Google', 'Twitter') AND (o.DISCOUNT <> 5 OR o.DISCOUNT IS NULL)"
                        + " AND (p.CATEGORY LIKE 'G%' OR o.DISCOUNT IS NULL)", List.of(), false));
        queries.add(new KeyQuery("rows: fields, order-by and page",
                "{\"source-table\": $PRODUCTS, \"fields\": [[\"field\", %PRODUCTS.ID, null], [\"field\", %PRODUCTS.TITLE, null]],"
                        + " \"order-by\": [[\"desc\", [\"field\", %PRODUCTS.PRICE, null]], [\"asc\", [\"field\", %PRODUCTS.ID, null]]],"
                        + " \"page\": {\"page\": 2, \"items\": 5}}",
                "SELECT ID, TITLE FROM PUBLIC.PRODUCTS ORDER BY PRICE DESC, ID LIMIT 5 OFFSET 5", List.of(), false));
        queries.add(new KeyQuery("day of week and quarter of year",
                "{\"source-table\": $ORDERS, \"aggregation\": [[\"count\"]], \"breakout\": [[\"field\", %ORDERS.CREATED_AT, {\"temporal-unit\": \"day-of-week\"}]],"
                        + " \"filter\": [\"=\", [\"field\", %ORDERS.CREATED_AT, {\"temporal-unit\": \"quarter-of-year\"}], 2]}",
                "SELECT MOD(ISO_DAY_OF_WEEK(CREATED_AT), 7) + 1 d, COUNT(*) FROM PUBLIC.ORDERS WHERE QUARTER(CREATED_AT) = 2"
                        + " GROUP BY MOD(ISO_DAY_OF_WEEK(CREATED_AT), 7) + 1 ORDER BY d", List.of(), false));
        return queries;
    }

    static List<List<Object>> rows(Connection c, String sql, List<Object> params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.size(); i++) {
                ps.setObject(i + 1, params.get(i));
            }
            List<List<Object>> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>(n);
                    for (int i = 1; i <= n; i++) {
                        row.add(normalize(rs.getObject(i)));
                    }
                    rows.add(row);
                }
            }
            return rows;
        }
    }

    /** Values comparable across engines: numbers to 9 significant digits, dates and date-times as ISO text. */
    static Object normalize(Object value) {
        if (value instanceof Number n) {
            BigDecimal d = new BigDecimal(n.toString()).round(new MathContext(9));
            return d.stripTrailingZeros().toPlainString();
        }
        if (value instanceof java.sql.Timestamp ts) {
            return normalize(ts.toLocalDateTime());
        }
        if (value instanceof java.sql.Date date) {
            return date.toLocalDate().toString();
        }
        if (value instanceof OffsetDateTime t) {
            return normalize(t.toLocalDateTime());
        }
        if (value instanceof LocalDateTime t) {
            return t.toLocalTime().equals(java.time.LocalTime.MIDNIGHT) ? t.toLocalDate().toString()
                    : t.toString().replace('T', ' ');
        }
        if (value instanceof LocalDate d) {
            return d.toString();
        }
        if (value instanceof String s && s.matches("\\d{4}-\\d{2}-\\d{2}[ T]00:00(:00(\\.0+)?)?")) {
            return s.substring(0, 10);
        }
        return value;
    }

    static void assertSameRows(String name, List<List<Object>> expected, List<List<Object>> actual) {
        assertEquals(expected.toString(), actual.toString(), name);
    }
}
