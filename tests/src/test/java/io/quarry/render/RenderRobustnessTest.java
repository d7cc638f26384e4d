package io.quarry.render;

import static io.quarry.render.RenderFixtures.card;
import static io.quarry.render.RenderFixtures.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Odd results never break a rendering (an e-mail of ten cards must not fail for one): nulls, negative and huge numbers,
 * numbers sent as text, dates that are no dates, short rows, one row, settings naming missing columns or of the wrong
 * type. Every display renders HTML and a PNG that decodes.
 */
class RenderRobustnessTest {
    private static final List<String> DISPLAYS = List.of("table", "scalar", "smartscalar", "bar", "line", "area", "row", "pie",
            "combo", "waterfall", "funnel", "progress", "gauge", "scatter", "map", "pivot", "object", "");
    private static final List<String> SETTINGS = List.of("{}",
            "{\"graph.dimensions\":[\"NOPE\"],\"graph.metrics\":\"NOPE\"}",
            "{\"graph.dimensions\":\"D\",\"graph.metrics\":[\"N\",\"M\"],\"graph.show_goal\":true,\"graph.goal_value\":-5}",
            "{\"graph.dimensions\":[\"D\",\"T\"],\"graph.metrics\":[\"N\"],\"stackable.stack_type\":\"normalized\"}",
            "{\"graph.dimensions\":[\"T\",\"D\"],\"stackable.stack_type\":\"stacked\",\"series_settings\":{\"N\":{\"color\":\"red\"}}}",
            "{\"graph.colors\":[\"#12\",42,null],\"pie.dimension\":[\"D\"],\"pie.metric\":\"N\",\"pie.slice_threshold\":50}",
            "{\"scalar.field\":\"T\",\"graph.goal_value\":\"x\",\"graph.show_goal\":\"yes\",\"series_settings\":[1,2]}",
            "{\"graph.x_axis.title_text\":\"<b>x</b>\",\"graph.y_axis.labels_enabled\":false,\"graph.x_axis.labels_enabled\":false}");

    private static Object value(Random random, int kind) {
        if (random.nextInt(6) == 0) {
            return null;
        }
        return switch (kind) {
            case 0 -> List.of("2024-01-01", "2024-02-01T00:00:00Z", "not a date", "2024-13-45", "12:30:00",
                    "2024-03-05T10:11:12.123+02:00").get(random.nextInt(6));
            case 1 -> List.of("Gizmo", "", "<script>", "Widget", "Ünïcode ✓", "a very long category name that goes on and on")
                    .get(random.nextInt(6));
            case 2 -> List.of(0L, -42L, Long.MAX_VALUE, 7L, (Object) new java.math.BigDecimal("1e30"), 3.25, Double.NaN, "12.5",
                    "abc", true).get(random.nextInt(10));
            default -> random.nextDouble() * 1000 - 500;
        };
    }

    @Test
    void oddResultsRenderForEveryDisplay() {
        Random random = new Random(11);
        CardRenderer renderer = new CardRenderer();
        List<Tabular.Column> cols = List.of(col("T", "type/DateTime"), col("D", "type/Text"), col("N", "type/Integer"),
                col("M", "type/Float"));
        int rendered = 0;
        for (int round = 0; round < 12; round++) {
            int rows = List.of(0, 1, 2, 3, 7, 40, 150).get(round % 7);
            List<List<Object>> data = new ArrayList<>();
            for (int r = 0; r < rows; r++) {
                List<Object> row = new ArrayList<>(Arrays.asList(value(random, 0), value(random, 1), value(random, 2), value(random, 3)));
                if (random.nextInt(10) == 0) {
                    row = row.subList(0, random.nextInt(4)); // a short row
                }
                data.add(row);
            }
            Tabular tabular = new Tabular(cols, data, rows + random.nextInt(3));
            for (String display : DISPLAYS) {
                String settings = SETTINGS.get((round + display.length()) % SETTINGS.size());
                var card = card(display, "Odd " + display, settings);
                RenderedCard html = renderer.render(card, tabular, RenderOptions.email("https://q.example/question/1"));
                assertFalse(html.html().contains("<script>"), display);
                for (byte[] png : html.inlineImages().values()) {
                    CardRendererTest.decode(png);
                }
                assertEquals(300, CardRendererTest.decode(renderer.png(card, tabular, 300)).getWidth(), display + " " + settings);
                rendered++;
            }
        }
        assertTrue(rendered > 200);
    }

    @Test
    void oneColumnOneRowAndOneCategory() {
        CardRenderer renderer = new CardRenderer();
        Tabular single = new Tabular(List.of(col("D", "type/Text"), col("N", "type/Integer")), List.of(List.of("Only", 5L)), 1);
        for (String display : List.of("bar", "line", "area", "row", "pie", "combo")) {
            assertTrue(CardRendererTest.nonWhite(CardRendererTest.decode(renderer.png(card(display, "One"), single, 600))) > 500);
        }
        Tabular nulls = new Tabular(List.of(col("D", "type/Text"), col("N", "type/Integer")),
                List.of(Arrays.asList("a", null), Arrays.asList("b", null)), 2);
        for (String display : List.of("bar", "line", "area", "row", "pie", "combo", "smartscalar")) {
            CardRendererTest.decode(renderer.png(card(display, "Nulls"), nulls, 600));
        }
    }
}
