package io.quarry.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Json;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Token values in text cards, with the cases of Metabase's {@code substitute-tags-test} that its server runs. */
class TextCardTagsTest {
    private static String sub(String text, Map<String, TextCardTags.Tagged> tags) {
        return TextCardTags.substitute(text, tags);
    }

    private static TextCardTags.Tagged tag(String type, String json) throws Exception {
        return new TextCardTags.Tagged(type, json == null ? null : Json.read(json));
    }

    @Test
    void valuesAreFormattedByTypeAndEscaped() throws Exception {
        assertEquals("bar", sub("{{foo}}", Map.of("foo", tag("string/=", "\"bar\""))));
        assertEquals("bar", sub("{{ foo }}", Map.of("foo", tag("string/=", "[\"bar\"]"))));
        assertEquals("bar and baz", sub("{{foo}}", Map.of("foo", tag("string/=", "[\"bar\",\"baz\"]"))));
        assertEquals("a, b and c", sub("{{foo}}", Map.of("foo", tag("category", "[\"a\",\"b\",\"c\"]"))));
        assertEquals("A and B", sub("{{foo}} and {{bar}}", Map.of("foo", tag("string/=", "\"A\""), "bar", tag("string/=", "\"B\""))));
        assertEquals("A and A", sub("{{foo}} and {{foo}}", Map.of("foo", tag("string/=", "\"A\""))));
        assertEquals("1", sub("{{foo}}", Map.of("foo", tag("number/=", "1"))));
        assertEquals("Today", sub("{{foo}}", Map.of("foo", tag("date/relative", "\"today\""))));
        assertEquals("This Month", sub("{{foo}}", Map.of("foo", tag("date/relative", "\"thismonth\""))));
        assertEquals("2022\\-07\\-06 \\- 2022\\-07\\-09", sub("{{foo}}", Map.of("foo", tag("date/range", "\"2022-07-06~2022-07-09\""))));
        assertEquals("2022\\-07\\-09", sub("{{foo}}", Map.of("foo", tag("date/all-options", "\"~2022-07-09\""))));
        assertEquals("today", sub("{{foo}}", Map.of("foo", tag(null, "\"today\""))));
        assertEquals("\\*bar\\*", sub("{{foo}}", Map.of("foo", tag("string/=", "\"*bar*\""))));
        assertEquals("\\<script\\>alert\\(1\\)\\<\\/script\\>",
                sub("{{foo}}", Map.of("foo", tag("string/=", "\"<script>alert(1)</script>\""))));
        assertEquals("_*\\*bar\\**_", sub("_*{{foo}}*_", Map.of("foo", tag("string/=", "\"*bar*\""))), "the card's own text is not escaped");
        assertEquals("\\$1 \\\\", sub("{{foo}}", Map.of("foo", tag("string/=", "\"$1 \\\\\""))));
    }

    @Test
    void tagsWithoutAValueStay() throws Exception {
        assertEquals("{{foo}}", sub("{{foo}}", Map.of()));
        assertEquals("{{foo}}", sub("{{foo}}", Map.of("bar", tag("string/=", "\"x\""))));
        assertEquals("{{foo}}", sub("{{foo}}", Map.of("foo", tag("string/=", "null"))));
        assertEquals("{{foo}}", sub("{{foo}}", Map.of("foo", tag("string/=", null))));
        assertEquals("{{*foo*}} {}", sub("{{*foo*}} {}", Map.of("foo", tag("string/=", "\"x\""))));
    }

    @Test
    void onlyTextCardsMappedToAParameterTheTokenSetsAreFilled() throws Exception {
        JsonNode parameters = Json.read("[{\"id\":\"p1\",\"slug\":\"state\",\"type\":\"string/=\"},{\"id\":\"p2\",\"slug\":\"city\",\"type\":\"string/=\"}]");
        var dashcards = new java.util.ArrayList<Object>();
        dashcards.add(new java.util.HashMap<>(Map.of("visualization_settings", Json.read("{\"virtual_card\":{\"display\":\"text\"},\"text\":\"In {{s}} and {{c}}\"}"),
                "parameter_mappings", Json.read("[{\"parameter_id\":\"p1\",\"target\":[\"text-tag\",\"s\"]},{\"parameter_id\":\"p2\",\"target\":[\"text-tag\",\"c\"]}]"))));
        dashcards.add(new java.util.HashMap<>(Map.of("visualization_settings", Json.read("{\"text\":\"{{s}}\"}"),
                "parameter_mappings", Json.read("[{\"parameter_id\":\"p1\",\"target\":[\"text-tag\",\"s\"]}]"))));
        TextCardTags.fill(dashcards, parameters, Json.read("{\"state\":[\"NY\",\"CA\"]}"));
        assertEquals("In NY and CA and {{c}}", ((JsonNode) ((Map<?, ?>) dashcards.get(0)).get("visualization_settings")).get("text").asText());
        assertEquals("{{s}}", ((JsonNode) ((Map<?, ?>) dashcards.get(1)).get("visualization_settings")).get("text").asText(),
                "not a virtual (text) card");
    }
}
