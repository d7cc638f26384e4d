package io.quarry.qp.nativeq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TemplateTest {
    /** Resolves from a map; a missing key means "no value". Values always go out as one bind. */
    private static Substitution.Resolver values(Map<String, Object> values) {
        return (name, optional) -> values.containsKey(name) ? new Substitution.Bound("?", List.of(values.get(name))) : null;
    }

    @Test
    void splitsTextTagsAndOptionalClauses() {
        List<Template.Part> parts = Template.parse("SELECT * FROM t WHERE {{ cat }} [[AND x > {{min}}]]");
        assertEquals(List.of(new Template.Text("SELECT * FROM t WHERE "), new Template.Tag("cat"), new Template.Text(" "),
                new Template.Optional(List.of(new Template.Text("AND x > "), new Template.Tag("min")))), parts);
        assertEquals(List.of("cat", "min"), Template.tagNames(parts));
        assertEquals(List.of("snippet: active", "#12-orders"), Template.tagNames(Template.parse("{{snippet: active}} {{#12-orders}}")));
    }

    @Test
    void keepsAnOptionalClauseOnlyWhenEveryTagInsideHasAValue() {
        List<Template.Part> parts = Template.parse("SELECT 1 WHERE a = {{a}} [[AND b = {{b}} AND c = {{c}}]] [[AND d = {{d}}]]");
        Substitution.Bound all = Substitution.apply(parts, values(Map.of("a", 1, "b", 2, "c", 3, "d", 4)));
        assertEquals("SELECT 1 WHERE a = ? AND b = ? AND c = ? AND d = ?", all.sql());
        assertEquals(List.of(1, 2, 3, 4), all.params());
        Substitution.Bound partial = Substitution.apply(parts, values(Map.of("a", 1, "b", 2, "d", 4)));
        assertEquals("SELECT 1 WHERE a = ?  AND d = ?", partial.sql());
        assertEquals(List.of(1, 4), partial.params());
    }

    @Test
    void nestedOptionalClausesDropIndependently() {
        List<Template.Part> parts = Template.parse("x [[a={{a}} [[b={{b}}]]]]");
        assertEquals("x a=? b=?", Substitution.apply(parts, values(Map.of("a", 1, "b", 2))).sql());
        assertEquals("x a=? ", Substitution.apply(parts, values(Map.of("a", 1))).sql());
        assertEquals("x ", Substitution.apply(parts, values(Map.of("b", 2))).sql());
    }

    @Test
    void tagsWithoutAValueOutsideOptionalClausesAreAllNamedAsMissing() {
        TemplateException e = assertThrows(TemplateException.class,
                () -> Substitution.apply(Template.parse("SELECT {{x}}, {{y}} [[AND {{z}}]]"), values(Map.of())));
        assertEquals("Cannot run the query: missing required parameters: #{\"x\" \"y\"}", e.getMessage());
        assertTrue(e.missingParameter());
    }

    @Test
    void hostileValuesNeverBecomeSql() {
        String hostile = "1; DROP TABLE users; --";
        Substitution.Bound bound = Substitution.apply(Template.parse("SELECT * FROM t WHERE id = {{id}}"),
                values(Map.of("id", hostile)));
        assertEquals("SELECT * FROM t WHERE id = ?", bound.sql());
        assertEquals(List.of(hostile), bound.params());
    }

    @Test
    void unbalancedMarkersAreClearErrors() {
        assertTrue(assertThrows(TemplateException.class, () -> Template.parse("SELECT {{x")).getMessage().contains("'{{'"));
        assertTrue(assertThrows(TemplateException.class, () -> Template.parse("SELECT [[x")).getMessage().contains("'[['"));
        assertTrue(assertThrows(TemplateException.class, () -> Template.parse("SELECT x]]")).getMessage().contains("']]'"));
        assertThrows(TemplateException.class, () -> Template.parse("SELECT {{ }}"));
    }

    @Test
    void textWithoutMarkersIsUnchanged() {
        String sql = "SELECT '{' || '}' AS braces, a[1] FROM t";
        assertEquals(sql, Substitution.apply(Template.parse(sql), values(Map.of())).sql());
    }
}
