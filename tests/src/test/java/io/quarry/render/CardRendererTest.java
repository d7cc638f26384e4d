package io.quarry.render;

import static io.quarry.render.RenderFixtures.byCategory;
import static io.quarry.render.RenderFixtures.card;
import static io.quarry.render.RenderFixtures.col;
import static io.quarry.render.RenderFixtures.monthByCategory;
import static io.quarry.render.RenderFixtures.monthly;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** The PNGs decoded: their size, that they show something, the series' colours, the goal line; the e-mail HTML. */
class CardRendererTest {
    private static final Color BRAND = new Color(0x509EE3);
    private static final Color ACCENT1 = new Color(0x88BF4D);
    private static final Color ACCENT2 = new Color(0xA989C5);
    private final CardRenderer renderer = new CardRenderer();

    static BufferedImage decode(byte[] png) {
        try {
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
            assertNotNull(image, "not a PNG");
            return image;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static int pixels(BufferedImage image, Color color) {
        int rgb = color.getRGB() & 0xFFFFFF;
        int count = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) == rgb) {
                    count++;
                }
            }
        }
        return count;
    }

    static int nonWhite(BufferedImage image) {
        return image.getWidth() * image.getHeight() - pixels(image, Color.WHITE);
    }

    private BufferedImage png(JsonNode card, Tabular data) {
        return decode(renderer.png(card, data, 600));
    }

    @Test
    void barChartIsSixHundredWideNotBlankInTheBrandColour() {
        BufferedImage image = png(card("bar", "By category"), byCategory());
        assertEquals(600, image.getWidth());
        assertEquals(360, image.getHeight());
        assertTrue(nonWhite(image) > 20_000, "bars, axes and labels are drawn");
        assertTrue(pixels(image, BRAND) > 10_000, "one series: Metabase's first colour");
        assertEquals(0, pixels(image, Palette.GOAL), "no goal line unless set");
    }

    @Test
    void seriesSettingsColoursWinOverThePalette() {
        BufferedImage image = png(card("bar", "By category", "{\"series_settings\":{\"COUNT\":{\"color\":\"#E03A3A\"}}}"), byCategory());
        assertTrue(pixels(image, new Color(0xE03A3A)) > 10_000);
        assertEquals(0, pixels(image, BRAND));
        BufferedImage legacy = png(card("line", "Monthly", "{\"graph.colors\":[\"#123456\",\"#ABCDEF\"]}"), monthly(12));
        assertTrue(pixels(legacy, new Color(0x123456)) > 500, "graph.colors, as older Metabase stored them");
        assertTrue(pixels(legacy, new Color(0xABCDEF)) > 500);
    }

    @Test
    void everyChartShowsEachSeriesColour() {
        Map<String, Tabular> charts = Map.of("line", monthly(12), "area", monthly(12), "combo", monthly(12), "row", monthly(6));
        for (Map.Entry<String, Tabular> chart : charts.entrySet()) {
            BufferedImage image = png(card(chart.getKey(), chart.getKey()), chart.getValue());
            assertTrue(pixels(image, BRAND) > 300, chart.getKey() + ": first series");
            assertTrue(pixels(image, ACCENT1) > 300, chart.getKey() + ": second series");
        }
        BufferedImage stacked = png(card("bar", "Stacked", "{\"stackable.stack_type\":\"stacked\"}"), monthByCategory());
        for (Color color : List.of(BRAND, ACCENT1, ACCENT2)) {
            assertTrue(pixels(stacked, color) > 1_000, "each breakout value is a series: " + color);
        }
        BufferedImage pie = png(card("pie", "Share"), byCategory());
        assertEquals(300, pie.getHeight());
        for (Color color : List.of(BRAND, ACCENT1, ACCENT2, new Color(0xEF8C8C))) {
            assertTrue(pixels(pie, color) > 1_000, "each slice: " + color);
        }
        BufferedImage coloured = png(card("pie", "Share", "{\"pie.colors\":{\"Gizmo\":\"#111111\"}}"), byCategory());
        assertTrue(pixels(coloured, new Color(0x111111)) > 1_000, "pie.colors by dimension value");
    }

    @Test
    void goalLineIsDrawnWhenShownEvenAboveTheData() {
        BufferedImage image = png(card("line", "Monthly", "{\"graph.show_goal\":true,\"graph.goal_value\":5000,"
                + "\"graph.metrics\":[\"COUNT\"]}"), monthly(12));
        assertTrue(pixels(image, Palette.GOAL) > 300, "the goal line, though the data stay under 200");
        BufferedImage hidden = png(card("line", "Monthly", "{\"graph.show_goal\":false,\"graph.goal_value\":150}"), monthly(12));
        assertEquals(0, pixels(hidden, Palette.GOAL));
    }

    @Test
    void defaultsComeFromTheColumns() {
        // the temporal column is the dimension though it is not first; the key is no metric
        Tabular data = new Tabular(List.of(new Tabular.Column("ID", "ID", "type/Integer", "type/PK"), col("AMOUNT", "type/Float"),
                col("DAY", "type/Date")), List.of(List.of(1L, 2.5, "2024-03-01"), List.of(2L, 4.0, "2024-03-02")), 2);
        ChartModel model = ChartModel.of(RenderFixtures.json("{}"), data, "line");
        assertEquals(2, model.dimension());
        assertEquals(1, model.series().size());
        assertEquals("AMOUNT", model.series().get(0).key());
        assertEquals("Mar 1, 2024", model.categoryLabel(model.categories().get(0)));
        assertEquals("Day", model.xTitle());
        assertEquals("Amount", model.yTitle());

        ChartModel chosen = ChartModel.of(RenderFixtures.json("{\"graph.dimensions\":[\"ID\"],\"graph.metrics\":[\"ID\",\"AMOUNT\"],"
                + "\"graph.x_axis.title_text\":\"Order\",\"graph.y_axis.title_text\":\"Money\"}"), data, "bar");
        assertEquals(0, chosen.dimension());
        assertEquals(List.of("ID", "AMOUNT"), chosen.series().stream().map(ChartModel.Series::key).toList());
        assertEquals("Order", chosen.xTitle());
        assertEquals("Money", chosen.yTitle());

        ChartModel breakout = ChartModel.of(RenderFixtures.json("{}"), monthByCategory(), "bar");
        assertEquals(List.of("Doohickey", "Gadget", "Gizmo"), breakout.series().stream().map(ChartModel.Series::title).toList());
        assertEquals("Jan 2024", breakout.categoryLabel(breakout.categories().get(0)), "first-of-month dates are months");
    }

    @Test
    void kindsFallBackSensibly() {
        assertEquals(CardRenderer.Kind.TABLE, renderer.kind(card("map", "Map"), byCategory()), "unknown display → table");
        Tabular one = new Tabular(List.of(col("COUNT", "type/Integer")), List.of(List.of(42L)), 1);
        assertEquals(CardRenderer.Kind.SCALAR, renderer.kind(card("bar", "One"), one), "one value is a scalar");
        Tabular empty = new Tabular(byCategory().cols(), List.of(), 0);
        assertEquals(CardRenderer.Kind.EMPTY, renderer.kind(card("bar", "None"), empty));
        Tabular text = new Tabular(List.of(col("A", "type/Text"), col("B", "type/Text")), List.of(List.of("x", "y")), 1);
        assertEquals(CardRenderer.Kind.TABLE, renderer.kind(card("line", "Text"), text), "nothing to plot");
        assertEquals(CardRenderer.Kind.TABLE, renderer.kind(card("pie", "Text"), text));
        assertEquals("javascript_visualization", renderer.pulseCardType(card("bar", "x"), byCategory()));
        assertEquals("row", renderer.pulseCardType(card("row", "x"), byCategory()));
        assertEquals("scalar", renderer.pulseCardType(card("line", "x"), one));
        assertEquals("empty", renderer.pulseCardType(card("line", "x"), empty));
        assertEquals("table", renderer.pulseCardType(card("pivot", "x"), byCategory()));
        // every kind renders to a decodable PNG
        for (String display : List.of("table", "scalar", "smartscalar", "bar", "line", "area", "row", "pie", "combo", "waterfall",
                "funnel", "gauge", "progress", "scatter", "object")) {
            BufferedImage image = png(card(display, display), monthly(3));
            assertEquals(600, image.getWidth(), display);
            assertTrue(nonWhite(image) > 500, display + " shows something");
        }
        assertTrue(nonWhite(png(card("bar", "None"), empty)) > 100, "'No results' is drawn");
        assertThrows(IllegalArgumentException.class, () -> renderer.png(card("bar", "x"), byCategory(), 10));
    }

    @Test
    void emailHtmlReferencesTheChartByContentIdAndLinksTheTitle() {
        RenderedCard rendered = renderer.render(card("bar", "Sales"), byCategory(), RenderOptions.email("https://bi.example.com/question/42"));
        assertEquals(1, rendered.inlineImages().size());
        String cid = rendered.inlineImages().keySet().iterator().next();
        assertTrue(rendered.html().contains("<img src=\"cid:" + cid + "\""), rendered.html());
        assertEquals(600, decode(rendered.inlineImages().get(cid)).getWidth());
        assertTrue(rendered.html().contains("<a href=\"https://bi.example.com/question/42\""));
        assertFalse(rendered.html().contains("<style"), "e-mail clients drop style elements: styles are inline");
        assertTrue(rendered.htmlWithDataUris().contains("src=\"data:image/png;base64,"));
        RenderedCard again = renderer.render(card("bar", "Sales"), byCategory(), RenderOptions.email(null));
        assertFalse(again.inlineImages().containsKey(cid), "content ids are unique across cards of one e-mail");
        assertFalse(again.html().contains("<a "), "no link without a card URL");
        RenderedCard script = renderer.render(card("bar", "Sales"), byCategory(), RenderOptions.email("javascript:alert(1)"));
        assertFalse(script.html().contains("javascript:"), "only http(s) links");
    }

    @Test
    void everythingUserSuppliedIsEscaped() {
        Tabular data = new Tabular(List.of(new Tabular.Column("X", "<img src=x onerror=alert(1)>", "type/Text", null),
                col("N", "type/Integer")), List.of(List.of("<script>alert('x')</script>", 1L)), 1);
        String html = renderer.render(card("table", "A & <b>B</b>"), data, RenderOptions.email("https://x.test/?a=1&b=\"2\"")).html();
        assertFalse(html.contains("<script>"));
        assertFalse(html.contains("<img src=x"));
        assertFalse(html.contains("<b>B</b>"));
        assertTrue(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
        assertTrue(html.contains("A &amp; &lt;b&gt;B&lt;/b&gt;"));
        assertTrue(html.contains("href=\"https://x.test/?a=1&amp;b=&quot;2&quot;\""));
        String scalar = renderer.render(card("scalar", "S"), new Tabular(List.of(col("V", "type/Text")),
                List.of(List.of("<i>v</i>")), 1), RenderOptions.email(null)).html();
        assertTrue(scalar.contains("&lt;i&gt;v&lt;/i&gt;") && !scalar.contains("<i>"));
    }

    @Test
    void tablesShowTheFirstRowsFormattedAndCountTheRest() {
        String html = renderer.render(card("table", "Orders"), monthly(30), RenderOptions.email(null)).html();
        assertEquals(11, html.split("<tr>", -1).length - 1 - 2, "header and ten rows (and the card frame's two rows)");
        assertTrue(html.contains("20 more rows"), html);
        assertTrue(html.contains(">January 2024</td>"), "dates at the column's granularity");
        assertTrue(html.contains(">1,000.5</td>"), "numbers grouped");
        List<List<Object>> rows = new ArrayList<>(monthly(3).rows());
        String counted = renderer.render(card("table", "Orders"), new Tabular(monthly(3).cols(), rows, 2_500),
                new RenderOptions(600, 2, null)).html();
        assertTrue(counted.contains("2,498 more rows"), "the result's row count, not only the rows at hand");
    }

    @Test
    void scalarsAreFormattedAndSmartScalarsCompare() {
        String html = renderer.render(card("scalar", "Revenue"), new Tabular(List.of(col("SUM", "type/Float")),
                List.of(List.of(1234567.891)), 1), RenderOptions.email(null)).html();
        assertTrue(html.contains(">1,234,567.89</div>"), html);
        Scalars.Scalar smart = Scalars.of(RenderFixtures.json("{\"scalar.field\":\"TOTAL\"}"), monthly(5), true);
        assertEquals("1,200.5", smart.value());
        assertEquals("↑ 4.35% vs. previous month: 1,150.5", smart.comparison());
    }

    @Test
    void columnSettingsFormatTablesAndScalars() {
        Tabular data = new Tabular(List.of(col("TOTAL", "type/Float"), col("SHARE", "type/Float"), col("N", "type/Integer")),
                List.of(List.of(1234.5, 0.125, 7L), List.of(-20L, 0.5, 12L)), 2);
        String settings = "{\"column_settings\":{"
                + "\"[\\\"name\\\",\\\"TOTAL\\\"]\":{\"number_style\":\"currency\",\"currency\":\"EUR\",\"column_title\":\"Revenue\"},"
                + "\"[\\\"name\\\",\\\"SHARE\\\"]\":{\"number_style\":\"percent\",\"decimals\":1},"
                + "\"[\\\"name\\\",\\\"N\\\"]\":{\"prefix\":\"~\",\"suffix\":\" items\",\"scale\":10}}}";
        String html = renderer.render(card("table", "Money", settings), data, RenderOptions.email(null)).html();
        assertTrue(html.contains(">Revenue (€)</th>"), "currency in the header, as Metabase's tables: " + html);
        assertTrue(html.contains(">1,234.50</td>") && html.contains(">-20.00</td>"), html);
        assertTrue(html.contains(">12.5%</td>") && html.contains(">50.0%</td>"), html);
        assertTrue(html.contains(">~70 items</td>") && html.contains(">~120 items</td>"), html);
        String scalar = renderer.render(card("scalar", "Money", settings.replace("}}}", "}},\"scalar.field\":\"TOTAL\"}")), data,
                RenderOptions.email(null)).html();
        assertTrue(scalar.contains(">€1,234.50</div>"), "a scalar writes its currency with the value: " + scalar);
    }

    @Test
    void resultDataIsReadAsTheApiSendsIt() {
        Tabular data = Tabular.fromResultData(RenderFixtures.json("{\"cols\":[{\"name\":\"A\",\"display_name\":\"Ay\","
                + "\"base_type\":\"type/Integer\",\"semantic_type\":\"type/PK\"},{\"name\":\"B\",\"base_type\":\"type/Text\"}],"
                + "\"rows\":[[1,\"x\"],[2.5,null],[true,{\"k\":1}]]}"));
        assertEquals(new Tabular.Column("A", "Ay", "type/Integer", "type/PK"), data.cols().get(0));
        assertEquals("B", data.cols().get(1).label());
        assertEquals(3, data.rowCount());
        assertEquals(1L, data.rows().get(0).get(0));
        assertEquals(new java.math.BigDecimal("2.5"), data.rows().get(1).get(0));
        assertEquals(null, data.rows().get(1).get(1));
        assertEquals("{\"k\":1}", data.rows().get(2).get(1));
    }
}
