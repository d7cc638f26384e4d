package io.quarry.card;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The saved questions a query refers to: {@code "card__N"} source tables and {@code {{#N-...}}} native references. */
final class CardReferences {
    private static final Pattern SOURCE = Pattern.compile("^card__(\\d+)$");
    private static final Pattern NATIVE = Pattern.compile("\\{\\{\\s*#(\\d+)");

    private CardReferences() {
    }

    static Set<Long> cardIds(JsonNode query) {
        Set<Long> ids = new LinkedHashSet<>();
        collect(query, ids);
        return ids;
    }

    private static void collect(JsonNode node, Set<Long> ids) {
        if (node == null) {
            return;
        }
        if (node.isTextual()) {
            Matcher source = SOURCE.matcher(node.asText());
            if (source.matches()) {
                ids.add(Long.parseLong(source.group(1)));
            }
            Matcher nativeRef = NATIVE.matcher(node.asText());
            while (nativeRef.find()) {
                ids.add(Long.parseLong(nativeRef.group(1)));
            }
            return;
        }
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (field.getKey().equals("card-id") && field.getValue().canConvertToLong()) {
                    ids.add(field.getValue().asLong());
                }
                if (field.getKey().equals("source-card") && field.getValue().canConvertToLong()) {
                    ids.add(field.getValue().asLong());
                }
                collect(field.getValue(), ids);
            }
        } else if (node.isArray()) {
            node.forEach(child -> collect(child, ids));
        }
    }
}
