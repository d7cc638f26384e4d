package io.quarry.qp.nativeq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TagResolverTest {
    private static final LocalDateTime NOW = LocalDateTime.of(2026, 11, 18, 14, 37);
    private static final TagResolver.Column CATEGORY = new TagResolver.Column("\"P\".\"CATEGORY\"", "type/Text");
    private static final TagResolver.Column PRICE = new TagResolver.Column("\"P\".\"PRICE\"", "type/Float");
    private static final TagResolver.Column CREATED = new TagResolver.Column("\"P\".\"CREATED_AT\"", "type/DateTime");

    private static final TagResolver.Sources SOURCES = new TagResolver.Sources() {
        @Override
        public TagResolver.Column column(long fieldId) {
            return switch ((int) fieldId) {
                case 1 -> CATEGORY;
                case 2 -> PRICE;
                case 3 -> CREATED;
                default -> null;
            };
        }

        @Override
        public String snippet(String name) {
            return switch (name) {
                case "cheap" -> "PRICE < 20";
                case "cheap gizmos" -> "{{snippet: cheap}} AND CATEGORY = 'Gizmo'";
                case "loop" -> "{{snippet: loop}}";
                default -> null;
            };
        }

        @Override
        public Substitution.Bound card(long cardId) {
            return cardId == 7 ? new Substitution.Bound("SELECT ID FROM P WHERE PRICE > ?", List.of(new BigDecimal("30"))) : null;
        }
    };

    private static Map<String, TemplateTag> tags(TemplateTag... tags) {
        Map<String, TemplateTag> map = new HashMap<>();
        for (TemplateTag t : tags) {
            map.put(t.name(), t);
        }
        return map;
    }

    private static TemplateTag variable(String name, String type) {
        return new TemplateTag(name, type, false, null, null, null, null, null, Map.of());
    }

    private static TemplateTag filter(String name, long fieldId, String widget) {
        return new TemplateTag(name, "dimension", false, null, fieldId, widget, null, null, Map.of());
    }

    private static Substitution.Bound fill(String sql, Map<String, TemplateTag> tags, Map<String, Object> values) {
        return new TagResolver(tags, values, SOURCES, NOW, DayOfWeek.SUNDAY).fill(sql);
    }

    @Test
    void variablesBecomeTypedBinds() {
        Map<String, TemplateTag> tags = tags(variable("n", "number"), variable("d", "date"), variable("t", "text"),
                variable("b", "boolean"));
        Substitution.Bound bound = fill("{{n}} {{d}} {{t}} {{b}}", tags, Map.of("n", "12.5", "d", "2024-03-01", "t", "x", "b", "true"));
        assertEquals("? ? ? ?", bound.sql());
        assertEquals(List.of(new BigDecimal("12.5"), LocalDate.of(2024, 3, 1), "x", true), bound.params());
        assertEquals("IN (?, ?)", fill("IN ({{t}})", tags, Map.of("t", List.of("a", "b"))).sql());
    }

    @Test
    void defaultsRequiredAndBadValues() {
        TemplateTag withDefault = new TemplateTag("n", "number", false, 5, null, null, null, null, Map.of());
        assertEquals(List.of(new BigDecimal("5")), fill("{{n}}", tags(withDefault), Map.of()).params());
        TemplateTag required = new TemplateTag("n", "number", true, null, null, null, null, null, Map.of());
        assertThrows(TemplateException.class, () -> fill("x [[ AND {{n}} ]]", tags(required), Map.of()));
        assertEquals("x ", fill("x [[ AND {{n}} ]]", tags(variable("n", "number")), Map.of()).sql());
        assertEquals("'n' needs a number, not \"ten\".",
                assertThrows(TemplateException.class, () -> fill("{{n}}", tags(variable("n", "number")), Map.of("n", "ten"))).getMessage());
        assertThrows(TemplateException.class, () -> fill("{{nope}}", tags(), Map.of()));
    }

    @Test
    void fieldFiltersBecomePredicates() {
        Map<String, TemplateTag> tags = tags(filter("cat", 1, "string/="), filter("price", 2, "number/between"),
                filter("when", 3, "date/relative"), filter("like", 1, "string/contains"), filter("not", 1, "string/!="));
        assertEquals("WHERE 1 = 1", fill("WHERE {{cat}}", tags, Map.of()).sql());
        Substitution.Bound eq = fill("WHERE {{cat}}", tags, Map.of("cat", List.of("Gizmo", "Widget")));
        assertEquals("WHERE \"P\".\"CATEGORY\" IN (?, ?)", eq.sql());
        assertEquals("\"P\".\"PRICE\" BETWEEN ? AND ?", fill("{{price}}", tags, Map.of("price", List.of(10, 20))).sql());
        Substitution.Bound when = fill("{{when}}", tags, Map.of("when", "past30days"));
        assertEquals("\"P\".\"CREATED_AT\" >= ? AND \"P\".\"CREATED_AT\" < ?", when.sql());
        assertEquals(List.of(LocalDateTime.of(2026, 10, 19, 0, 0), LocalDateTime.of(2026, 11, 18, 0, 0)), when.params());
        Substitution.Bound like = fill("{{like}}", tags, Map.of("like", "GiZ"));
        assertEquals("LOWER(\"P\".\"CATEGORY\") LIKE ?", like.sql());
        assertEquals(List.of("%giz%"), like.params());
        assertEquals("(\"P\".\"CATEGORY\" NOT IN (?) OR \"P\".\"CATEGORY\" IS NULL)", fill("{{not}}", tags, Map.of("not", "x")).sql());
        assertThrows(TemplateException.class, () -> fill("{{f}}", tags(filter("f", 99, "string/=")), Map.of("f", "x")));
    }

    @Test
    void snippetsAndCardsExpandRecursivelyAndSafely() {
        assertEquals("WHERE PRICE < 20 AND CATEGORY = 'Gizmo'", fill("WHERE {{snippet: cheap gizmos}}", tags(), Map.of()).sql());
        Substitution.Bound card = fill("SELECT * FROM {{#7-expensive}} AS x", tags(), Map.of());
        assertEquals("SELECT * FROM (SELECT ID FROM P WHERE PRICE > ?) AS x", card.sql());
        assertEquals(List.of(new BigDecimal("30")), card.params());
        assertThrows(TemplateException.class, () -> fill("{{snippet: loop}}", tags(), Map.of()));
        assertThrows(TemplateException.class, () -> fill("{{snippet: missing}}", tags(), Map.of()));
        assertThrows(TemplateException.class, () -> fill("{{#8}}", tags(), Map.of()));
    }

    /** Hostile values in every kind of tag, run for real: data intact, the right (no) rows. */
    @Test
    void hostileValuesAgainstARealDatabase() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:hostile;DB_CLOSE_DELAY=-1");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE P (ID INT PRIMARY KEY, CATEGORY VARCHAR(20), PRICE DOUBLE PRECISION, CREATED_AT TIMESTAMP)");
            s.execute("INSERT INTO P VALUES (1, 'Gizmo', 10, TIMESTAMP '2026-11-01 10:00:00'), (2, 'Widget', 40, TIMESTAMP '2025-01-01 10:00:00')");
            Map<String, TemplateTag> tags = tags(variable("t", "text"), filter("cat", 1, "string/="), filter("like", 1, "string/contains"),
                    filter("when", 3, "date/single"));
            String hostile = "x' OR '1'='1'; DROP TABLE P; --";
            for (Map<String, Object> values : List.<Map<String, Object>>of(Map.of("t", hostile), Map.of("cat", hostile),
                    Map.of("like", hostile))) {
                Substitution.Bound bound = fill("SELECT ID FROM P WHERE 1=1 [[AND CATEGORY = {{t}}]] AND {{cat}} AND {{like}}", tags, values);
                assertEquals(List.of(), run(c, bound));
            }
            assertThrows(TemplateException.class, () -> fill("{{when}}", tags, Map.of("when", hostile)));
            assertEquals(List.of(1), run(c, fill("SELECT ID FROM P WHERE {{cat}}", tags, Map.of("cat", "Gizmo"))));
            assertEquals(List.of(1), run(c, fill("SELECT ID FROM P WHERE {{when}}", tags, Map.of("when", "2026-11-01"))));
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM P")) {
                rs.next();
                assertEquals(2, rs.getInt(1), "data intact");
            }
        }
    }

    private static List<Integer> run(Connection c, Substitution.Bound bound) throws Exception {
        try (PreparedStatement ps = c.prepareStatement(bound.sql())) {
            for (int i = 0; i < bound.params().size(); i++) {
                ps.setObject(i + 1, bound.params().get(i));
            }
            List<Integer> ids = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getInt(1));
                }
            }
            return ids;
        }
    }
}
