package io.quarry.embed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.core.Json;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The token's parameter values written into an embedded dashboard's text cards, as Metabase's server does it
 * ({@code substitute_tags}): a card's {@code {{tag}}} (mapped to a dashboard parameter by a {@code ["text-tag", tag]}
 * target) becomes the value the token gives that parameter's slug, formatted by the parameter's type and with
 * Markdown's special characters escaped; a tag without a value stays as it is. Dates keep their text, as on
 * Metabase's server (its browser code formats them).
 */
final class TextCardTags {
    private static final Pattern TAG = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_.]+?)\\s*}}");
    private static final Pattern ESCAPED = Pattern.compile("[\\\\/*_`'\\[\\](){}<>#+\\-.!$@%^&=|?~]");
    private static final Pattern SINGLE_DATE = Pattern.compile("^~?([0-9T:-]+)~?$");
    private static final Pattern DATE_RANGE = Pattern.compile("^([0-9T:-]+~[0-9T:-]+)$");
    private static final Map<String, String> RELATIVE = Map.ofEntries(Map.entry("today", "Today"),
            Map.entry("yesterday", "Yesterday"), Map.entry("past7days", "Past 7 Days"), Map.entry("past30days", "Past 30 Days"),
            Map.entry("lastweek", "Last Week"), Map.entry("lastmonth", "Last Month"), Map.entry("lastyear", "Last Year"),
            Map.entry("thisday", "Today"), Map.entry("thisweek", "This Week"), Map.entry("thismonth", "This Month"),
            Map.entry("thisyear", "This Year"));

    private TextCardTags() {
    }

    /**
     * Fills the text cards among {@code dashcards} (each a map with {@code visualization_settings} and
     * {@code parameter_mappings}) from {@code tokenParams} (slug → value) and the dashboard's {@code parameters}.
     */
    @SuppressWarnings("unchecked")
    static void fill(List<Object> dashcards, JsonNode parameters, JsonNode tokenParams) {
        if (tokenParams == null || !tokenParams.isObject() || tokenParams.isEmpty()) {
            return;
        }
        Map<String, JsonNode> byId = new HashMap<>();
        for (JsonNode p : parameters) {
            byId.put(p.path("id").asText(), p);
        }
        for (Object o : dashcards) {
            Map<String, Object> dc = (Map<String, Object>) o;
            JsonNode settings = Json.MAPPER.valueToTree(dc.get("visualization_settings"));
            if (settings == null || !settings.isObject() || !settings.has("virtual_card") || !settings.path("text").isTextual()) {
                continue;
            }
            Map<String, Tagged> tags = new HashMap<>();
            for (JsonNode m : (JsonNode) Json.MAPPER.valueToTree(dc.get("parameter_mappings"))) {
                JsonNode target = m.path("target");
                JsonNode parameter = byId.get(m.path("parameter_id").asText());
                if ("text-tag".equals(target.path(0).asText()) && parameter != null) {
                    tags.put(target.path(1).asText(), new Tagged(parameter.path("type").asText(null),
                            tokenParams.get(parameter.path("slug").asText())));
                }
            }
            ((ObjectNode) settings).put("text", substitute(settings.get("text").asText(), tags));
            dc.put("visualization_settings", settings);
        }
    }

    record Tagged(String type, JsonNode value) {
    }

    static String substitute(String text, Map<String, Tagged> tags) {
        Matcher m = TAG.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            Tagged tagged = tags.get(m.group(1));
            String replacement = tagged == null || absent(tagged.value()) ? m.group() : escape(format(tagged.type(), tagged.value()));
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static boolean absent(JsonNode value) {
        return value == null || value.isNull() || (value.isBoolean() && !value.asBoolean());
    }

    static String format(String type, JsonNode value) {
        String text = value.isValueNode() ? value.asText() : null;
        if (type != null && text != null) {
            switch (type) {
                case "date/relative" -> {
                    return RELATIVE.getOrDefault(text, text);
                }
                case "date/range" -> {
                    return range(text);
                }
                case "date/all-options" -> {
                    Matcher single = SINGLE_DATE.matcher(text);
                    if (single.find()) {
                        return single.group(1);
                    }
                    return DATE_RANGE.matcher(text).find() ? range(text) : text;
                }
                default -> {
                }
            }
        }
        if (value.isArray()) {
            if (value.size() > 1) {
                StringBuilder list = new StringBuilder();
                for (int i = 0; i < value.size() - 1; i++) {
                    list.append(i == 0 ? "" : ", ").append(plain(value.get(i)));
                }
                return list.append(" and ").append(plain(value.get(value.size() - 1))).toString();
            }
            return value.isEmpty() ? "" : plain(value.get(0));
        }
        return plain(value);
    }

    private static String range(String text) {
        String[] parts = text.split("~", -1);
        return parts.length == 2 && !parts[0].isEmpty() && !parts[1].isEmpty() ? parts[0] + " - " + parts[1] : "";
    }

    private static String plain(JsonNode value) {
        return value.isValueNode() ? value.asText() : value.toString();
    }

    private static String escape(String text) {
        return ESCAPED.matcher(text).replaceAll(r -> Matcher.quoteReplacement("\\" + r.group()));
    }
}
