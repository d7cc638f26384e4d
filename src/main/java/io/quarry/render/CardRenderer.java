package io.quarry.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;

/**
 * Renders a card and its result for an e-mail, a webhook or a preview, on the server: tables and scalars as inline-styled
 * HTML, charts (bar, line, area, row, combo, pie) drawn with JFreeChart in a headless JVM as PNGs. A display this
 * renderer does not draw falls back to a table, as Metabase's static rendering does; a chart whose result has no
 * numeric column, or one value only, renders as the table or the scalar it really is.
 *
 * <p>Thread-safe: it keeps no state but a counter for content ids.
 */
public final class CardRenderer {
    static {
        // Java2D draws without a display; must be set before AWT starts (the servlet container does not set it)
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    /** How a card is drawn, from its {@code display} (Metabase's {@code detect-pulse-chart-type}). */
    public enum Kind {
        TABLE("table"), SCALAR("scalar"), SMARTSCALAR("smartscalar"), BAR("bar"), LINE("line"), AREA("area"), ROW("row"),
        PIE("pie"), COMBO("combo");

        /** The name Metabase uses ({@code pulse_card_type}). */
        public final String key;

        Kind(String key) {
            this.key = key;
        }

        boolean chart() {
            return this != TABLE && this != SCALAR && this != SMARTSCALAR;
        }
    }

    private final AtomicLong contentIds = new AtomicLong();

    /** What the card renders as for this result. */
    public Kind kind(JsonNode card, Tabular data) {
        String display = card.path("display").asText("table").toLowerCase(Locale.ROOT);
        Kind kind = switch (display) {
            case "scalar", "progress", "gauge" -> Kind.SCALAR;
            case "smartscalar" -> Kind.SMARTSCALAR;
            // a waterfall is bars of the changes; a funnel is a row chart of its steps
            case "bar", "waterfall" -> Kind.BAR;
            case "line" -> Kind.LINE;
            case "area" -> Kind.AREA;
            case "row", "funnel" -> Kind.ROW;
            case "pie" -> Kind.PIE;
            case "combo" -> Kind.COMBO;
            default -> Kind.TABLE;
        };
        if (!kind.chart()) {
            return kind;
        }
        // one value is a number, not a chart (Metabase renders a 1×1 result as a scalar whatever its display)
        if (data.cols().size() == 1 && data.rows().size() == 1) {
            return Kind.SCALAR;
        }
        JsonNode settings = settings(card);
        if (kind == Kind.PIE) {
            return Pies.possible(settings, data) && !data.rows().isEmpty() ? Kind.PIE : Kind.TABLE;
        }
        ChartModel model = ChartModel.of(settings, data, kind.key);
        return model.series().isEmpty() || data.rows().isEmpty() || model.dimension() < 0 ? Kind.TABLE : kind;
    }

    /** card: the card's JSON as the API returns it (name, display, visualization_settings, ...). */
    public RenderedCard render(JsonNode card, Tabular data, RenderOptions options) {
        Kind kind = kind(card, data);
        String name = card.path("name").asText("");
        StringBuilder html = new StringBuilder();
        html.append("<table role=\"presentation\" cellpadding=\"0\" cellspacing=\"0\" style=\"width: 100%; max-width: ")
                .append(options.width()).append("px; border-collapse: collapse; margin: 0 0 24px 0; ").append(Html.FONT).append("\">")
                .append("<tr><td style=\"padding: 0 0 8px 0;\">");
        String titleStyle = "font-size: 16px; font-weight: 700; color: #4C5773; text-decoration: none;";
        if (Html.safeUrl(options.cardUrl())) {
            html.append("<a href=\"").append(Html.escape(options.cardUrl())).append("\" target=\"_blank\" rel=\"noopener noreferrer\" style=\"")
                    .append(titleStyle).append("\">").append(Html.escape(name)).append("</a>");
        } else {
            html.append("<span style=\"").append(titleStyle).append("\">").append(Html.escape(name)).append("</span>");
        }
        html.append("</td></tr><tr><td>");
        Map<String, byte[]> images = new LinkedHashMap<>();
        switch (kind) {
            case TABLE -> html.append(Tables.html(data, options.maxTableRows()));
            case SCALAR, SMARTSCALAR -> html.append(Scalars.html(Scalars.of(settings(card), data, kind == Kind.SMARTSCALAR)));
            default -> {
                BufferedImage image = chartImage(card, data, kind, options.width());
                String cid = contentId(card);
                images.put(cid, encode(image));
                html.append("<img src=\"cid:").append(cid).append("\" width=\"").append(image.getWidth())
                        .append("\" alt=\"").append(Html.escape(name))
                        .append("\" style=\"display: block; width: 100%; max-width: ").append(image.getWidth())
                        .append("px; height: auto; border: 0;\">");
            }
        }
        html.append("</td></tr></table>");
        return new RenderedCard(html.toString(), images);
    }

    /** The chart as a PNG (for webhooks and preview_card_png); a table/scalar card renders as a PNG of its table/value. */
    public byte[] png(JsonNode card, Tabular data, int width) {
        if (width < 100 || width > 4000) {
            throw new IllegalArgumentException("width must be between 100 and 4000 pixels, not " + width);
        }
        Kind kind = kind(card, data);
        return encode(switch (kind) {
            case TABLE -> Tables.image(data, RenderOptions.EMAIL_TABLE_ROWS, width);
            case SCALAR, SMARTSCALAR -> Scalars.image(Scalars.of(settings(card), data, kind == Kind.SMARTSCALAR), width);
            default -> chartImage(card, data, kind, width);
        });
    }

    private BufferedImage chartImage(JsonNode card, Tabular data, Kind kind, int width) {
        JsonNode settings = settings(card);
        JFreeChart chart;
        int height;
        if (kind == Kind.PIE) {
            chart = Pies.chart(settings, data);
            height = Math.round(width * 0.5f);
        } else {
            ChartModel model = ChartModel.of(settings, data, kind.key);
            chart = Charts.category(model, kind.key, width);
            height = Charts.height(kind.key, model.categories().size(), width);
        }
        return Charts.image(chart, width, height);
    }

    private String contentId(JsonNode card) {
        String id = card.path("id").isIntegralNumber() ? card.path("id").asText() : "x";
        return "card-" + id + "-" + contentIds.incrementAndGet() + "@quarry";
    }

    private static JsonNode settings(JsonNode card) {
        JsonNode settings = card.path("visualization_settings");
        return settings.isObject() ? settings : MissingNode.getInstance();
    }

    static byte[] encode(BufferedImage image) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
        try {
            ImageIO.setUseCache(false);
            if (!ImageIO.write(image, "png", out)) {
                throw new IllegalStateException("No PNG writer in this JVM");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
