package io.quarry.setting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.quarry.core.Json;
import io.quarry.web.error.ApiException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pure parts of the settings store: type coercion, environment names, obfuscation. */
class SettingsTest {
    private static JsonNode json(String text) {
        try {
            return Json.read(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static Setting of(String key, Setting.Type type) {
        return Setting.of(key, type).build();
    }

    /** The single {@code errors} message a bad value gets, asserting it names the setting. */
    @SuppressWarnings("unchecked")
    private static String rejection(Setting setting, String value) {
        ApiException e = assertThrows(ApiException.class, () -> Settings.canonical(setting, json(value)));
        assertEquals(400, e.status());
        Map<String, Object> errors = (Map<String, Object>) e.body().get("errors");
        assertEquals(List.of(setting.key), List.copyOf(errors.keySet()));
        return (String) errors.get(setting.key);
    }

    @Test
    void environmentNamesFollowMetabase() {
        assertEquals("MB_SITE_URL", of("site-url", Setting.Type.STRING).envName());
        assertEquals("MB_EMAIL_CONFIGURED", of("email-configured?", Setting.Type.BOOLEAN).envName());
        assertEquals("MB_IS_HOSTED", of("is-hosted?", Setting.Type.BOOLEAN).envName());
        assertEquals("MB_SNAKE_CASE_KEY", of("snake_case-key", Setting.Type.STRING).envName());
    }

    @Test
    void obfuscationKeepsTheLastTwoCharacters() {
        assertEquals("**********23", Settings.obfuscate("secret123"));
        assertEquals("**********", Settings.obfuscate("ab"), "a value this short is not revealed at all");
        assertNull(Settings.obfuscate(null));
    }

    @Test
    void nullDeletes() {
        assertNull(Settings.canonical(of("x", Setting.Type.STRING), NullNode.instance));
        assertNull(Settings.canonical(of("x", Setting.Type.INTEGER), null));
    }

    @Test
    void booleansAcceptJsonBooleansAndTrueFalseStrings() {
        Setting flag = of("flag", Setting.Type.BOOLEAN);
        assertEquals("true", Settings.canonical(flag, json("true")));
        assertEquals("false", Settings.canonical(flag, json("\"FALSE\"")));
        assertEquals("value must be a boolean.", rejection(flag, "\"yes\""));
        assertEquals("value must be a boolean.", rejection(flag, "1"));
        assertEquals(Boolean.TRUE, Settings.parse(flag, "TRUE"));
    }

    @Test
    void integers() {
        Setting n = of("n", Setting.Type.INTEGER);
        assertEquals("-3", Settings.canonical(n, json("-3")));
        assertEquals("42", Settings.canonical(n, json("\" 42 \"")));
        assertEquals("7", Settings.canonical(n, json("7.0")));
        assertEquals("value must be an integer.", rejection(n, "7.5"));
        assertEquals("value must be an integer.", rejection(n, "\"seven\""));
        assertEquals("value must be an integer.", rejection(n, "true"));
        assertEquals("value must be an integer.", rejection(n, "99999999999999999999999"), "no silent overflow");

        Setting positive = of("p", Setting.Type.POSITIVE_INTEGER);
        assertEquals("1", Settings.canonical(positive, json("1")));
        assertEquals("value must be an integer greater than zero.", rejection(positive, "0"));
        assertEquals("value must be an integer greater than zero.", rejection(positive, "-5"));
        assertEquals(2000L, Settings.parse(positive, "2000"));
    }

    @Test
    void doublesMustBeFinite() {
        Setting d = of("d", Setting.Type.DOUBLE);
        assertEquals("3.14", Settings.canonical(d, json("3.14")));
        assertEquals("2.5", Settings.canonical(d, json("\"2.5\"")));
        assertEquals("value must be a number.", rejection(d, "\"NaN\""));
        assertEquals("value must be a number.", rejection(d, "\"Infinity\""));
        assertEquals("value must be a number.", rejection(d, "{}"));
    }

    @Test
    void stringsAndKeywords() {
        Setting s = of("s", Setting.Type.STRING);
        assertEquals("hello", Settings.canonical(s, json("\"hello\"")));
        assertEquals("12", Settings.canonical(s, json("12")));
        assertEquals("value must be a string.", rejection(s, "[1]"));

        Setting k = of("k", Setting.Type.KEYWORD);
        assertEquals("monday", Settings.canonical(k, json("\":monday\"")));
        assertEquals("value must be a keyword.", rejection(k, "\"  \""));
        assertEquals("value must be a keyword.", rejection(k, "3"));
    }

    @Test
    void jsonAndCsv() {
        Setting j = of("j", Setting.Type.JSON);
        assertEquals("{\"a\":[1,2]}", Settings.canonical(j, json("{\"a\": [1, 2]}")));
        assertEquals(Map.of("a", List.of(1, 2)), Settings.parse(j, "{\"a\":[1,2]}"));

        Setting c = of("c", Setting.Type.CSV);
        assertEquals("a@b.co,c@d.co", Settings.canonical(c, json("[\"a@b.co\", \" c@d.co \"]")));
        assertEquals("a,b", Settings.canonical(c, json("\"a, b,,\"")));
        assertNull(Settings.canonical(c, json("[]")), "an empty list is no value");
        assertNull(Settings.canonical(c, json("\" , \"")));
        assertEquals(List.of("a", "b"), Settings.parse(c, "a,b"));
        assertEquals(List.of(), Settings.parse(c, ""));
        assertEquals("value must be a comma-separated string or a list of strings.", rejection(c, "[\"x,y\"]"),
                "an element with a comma would not survive storage");
        assertEquals("value must be a comma-separated string or a list of strings.", rejection(c, "[{}]"));
    }

    @Test
    void timestampsMustParse() {
        Setting t = of("t", Setting.Type.TIMESTAMP);
        assertEquals("2026-01-02T03:04:05Z", Settings.canonical(t, json("\"2026-01-02T03:04:05Z\"")));
        assertEquals("2026-01-02", Settings.canonical(t, json("\"2026-01-02\"")));
        assertEquals("value must be a valid date string", rejection(t, "\"next tuesday\""));
    }

    @Test
    void normalizersRunAfterTyping() {
        Setting upper = Setting.of("u", Setting.Type.STRING).normalize(v -> v.toString().toUpperCase()).build();
        assertEquals("ABC", Settings.canonical(upper, json("\"abc\"")));
        Setting clearing = Setting.of("c", Setting.Type.STRING).normalize(v -> null).build();
        assertNull(Settings.canonical(clearing, json("\"anything\"")), "a normalizer may turn a value into a delete");
    }

    @Test
    void badStoredOrEnvironmentTextFallsBackToTheDefault() {
        Setting flag = Setting.of("flag", Setting.Type.BOOLEAN).defaultValue(true).build();
        assertEquals(Boolean.TRUE, Settings.parse(flag, "yes"), "not silently false");
        assertEquals(Boolean.FALSE, Settings.parse(flag, "false"));
        Setting n = Setting.of("n", Setting.Type.INTEGER).defaultValue(5L).build();
        assertEquals(5L, Settings.parse(n, "five"));
        Setting j = Setting.of("j", Setting.Type.JSON).defaultValue(Map.of()).build();
        assertEquals(Map.of(), Settings.parse(j, "{broken"));
    }
}
