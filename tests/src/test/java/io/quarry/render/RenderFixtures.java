package io.quarry.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.core.Json;
import java.util.ArrayList;
import java.util.List;

/** Results and cards for rendering tests, shaped as the API returns them. */
final class RenderFixtures {
    private RenderFixtures() {
    }

    static Tabular.Column col(String name, String baseType) {
        return new Tabular.Column(name, name.substring(0, 1).toUpperCase() + name.substring(1).toLowerCase().replace('_', ' '),
                baseType, null);
    }

    /** Orders per month: CREATED_AT (first of month), COUNT, TOTAL. */
    static Tabular monthly(int months) {
        List<List<Object>> rows = new ArrayList<>();
        for (int m = 0; m < months; m++) {
            rows.add(List.of(String.format("%d-%02d-01T00:00:00Z", 2024 + m / 12, m % 12 + 1), 100L + (m * 37 % 90),
                    1000.5 + m * 50));
        }
        return new Tabular(List.of(col("CREATED_AT", "type/DateTime"), col("COUNT", "type/BigInteger"),
                col("TOTAL", "type/Float")), rows, rows.size());
    }

    /** Count per category: CATEGORY, COUNT. */
    static Tabular byCategory() {
        List<List<Object>> rows = new ArrayList<>();
        String[] categories = {"Doohickey", "Gadget", "Gizmo", "Widget"};
        long[] counts = {42, 53, 51, 54};
        for (int i = 0; i < categories.length; i++) {
            rows.add(List.of(categories[i], counts[i]));
        }
        return new Tabular(List.of(col("CATEGORY", "type/Text"), col("COUNT", "type/BigInteger")), rows, rows.size());
    }

    /** Two dimensions: month × category → count. */
    static Tabular monthByCategory() {
        List<List<Object>> rows = new ArrayList<>();
        String[] categories = {"Doohickey", "Gadget", "Gizmo"};
        for (int m = 1; m <= 6; m++) {
            for (int c = 0; c < categories.length; c++) {
                rows.add(List.of(String.format("2024-%02d-01", m), categories[c], (long) (10 + m * 3 + c * 7)));
            }
        }
        return new Tabular(List.of(col("CREATED_AT", "type/Date"), col("CATEGORY", "type/Text"), col("COUNT", "type/Integer")),
                rows, rows.size());
    }

    static ObjectNode card(String display, String name) {
        ObjectNode card = Json.object();
        card.put("id", 42);
        card.put("name", name);
        card.put("display", display);
        card.putObject("visualization_settings");
        return card;
    }

    static ObjectNode card(String display, String name, String settingsJson) {
        ObjectNode card = card(display, name);
        try {
            card.set("visualization_settings", Json.read(settingsJson));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
        return card;
    }

    static JsonNode json(String text) {
        try {
            return Json.read(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
