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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
        /** No rows (or Metabase's {@code [[nil]]} of an aggregation over nothing): "No results". */
        EMPTY("empty"), TABLE("table"), SCALAR("scalar"), SMARTSCALAR("smartscalar"), BAR("bar"), LINE("line"), AREA("area"), ROW("row"),
        PIE("pie"), COMBO("combo");

        /** The name Metabase uses ({@code pulse_card_type}). */
        public final String key;

        Kind(String key) {
            this.key = key;
        }

        boolean chart() {
            return this != EMPTY && this != TABLE && this != SCALAR && this != SMARTSCALAR;
        }
    }

    private static final Logger log = LoggerFactory.getLogger(CardRenderer.class);
    private final AtomicLong contentIds = new AtomicLong();

    /** What the card renders as for this result. */
    public Kind kind(JsonNode card, Tabular data) {
        if (empty(data)) {
            return Kind.EMPTY;
        }
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

    /**
     * Metabase's {@code pulse_card_type} for the card and result ({@code detect-pulse-chart-type}): {@code empty},
     * {@code scalar} for one value, the display itself for {@code scalar}, {@code row}, {@code progress}, {@code gauge},
     * {@code table} and {@code funnel}, {@code javascript_visualization} for the charts Metabase draws with its static
     * visualisations, {@code table} otherwise.
     */
    public String pulseCardType(JsonNode card, Tabular data) {
        String display = card.path("display").asText("table");
        if (empty(data)) {
            return "empty";
        }
        if (!display.equals("progress") && !display.equals("gauge") && data.cols().size() == 1 && data.rows().size() == 1) {
            return "scalar";
        }
        return switch (display) {
            case "scalar", "row", "progress", "gauge", "table", "funnel" -> display;
            case "smartscalar", "pie", "scatter", "waterfall", "line", "area", "bar", "combo" -> "javascript_visualization";
            default -> "table";
        };
    }

    /** Whether a result shows nothing: no rows, or the one null of an aggregation over no rows. */
    static boolean empty(Tabular data) {
        return data.rows().isEmpty() || (data.rows().size() == 1 && data.rows().get(0).size() == 1 && data.rows().get(0).get(0) == null);
    }

    /**
     * The card when its query failed, as Metabase's e-mails show it: the title and "There was a problem with this
     * question." (the database's message is not sent to recipients).
     */
    public RenderedCard renderError(JsonNode card, RenderOptions options) {
        StringBuilder html = new StringBuilder();
        title(html, card, options);
        html.append(message("There was a problem with this question.")).append("</td></tr></table>");
        return new RenderedCard(html.toString(), Map.of());
    }

    /** The error card as a PNG (webhooks, previews). */
    public byte[] errorPng(int width) {
        return encode(Scalars.image(new Scalars.Scalar("There was a problem with this question.", null, null), width));
    }

    /** card: the card's JSON as the API returns it (name, display, visualization_settings, ...). */
    public RenderedCard render(JsonNode card, Tabular data, RenderOptions options) {
        Kind kind = kind(card, data);
        String name = card.path("name").asText("");
        StringBuilder html = new StringBuilder();
        title(html, card, options);
        Map<String, byte[]> images = new LinkedHashMap<>();
        switch (kind) {
            case EMPTY -> html.append(message("No results"));
            case TABLE -> html.append(Tables.html(settings(card), data, options.maxTableRows()));
            case SCALAR, SMARTSCALAR -> html.append(Scalars.html(Scalars.of(settings(card), data, kind == Kind.SMARTSCALAR)));
            default -> {
                BufferedImage image = chartOrNull(card, data, kind, options.width());
                if (image == null) {
                    html.append(Tables.html(settings(card), data, options.maxTableRows()));
                    break;
                }
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

    /** The card's frame (a one-cell-wide table, as e-mail clients lay out best) and its title, linked when it can be. */
    private static void title(StringBuilder html, JsonNode card, RenderOptions options) {
        String name = card.path("name").asText("");
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
    }

    private static String message(String text) {
        return "<div style=\"" + Html.FONT + " padding: 16px 0; font-size: 14px; color: #696E7B;\">" + Html.escape(text) + "</div>";
    }

    /** The chart as a PNG (for webhooks and preview_card_png); a table/scalar card renders as a PNG of its table/value. */
    public byte[] png(JsonNode card, Tabular data, int width) {
        if (width < 100 || width > 4000) {
            throw new IllegalArgumentException("width must be between 100 and 4000 pixels, not " + width);
        }
        Kind kind = kind(card, data);
        return encode(switch (kind) {
            case EMPTY -> Scalars.image(new Scalars.Scalar("No results", null, null), width);
            case TABLE -> Tables.image(settings(card), data, RenderOptions.EMAIL_TABLE_ROWS, width);
            case SCALAR, SMARTSCALAR -> Scalars.image(Scalars.of(settings(card), data, kind == Kind.SMARTSCALAR), width);
            default -> {
                BufferedImage chart = chartOrNull(card, data, kind, width);
                yield chart != null ? chart : Tables.image(settings(card), data, RenderOptions.EMAIL_TABLE_ROWS, width);
            }
        });
    }

    /**
     * The chart, or null when drawing it failed: one card's odd data must not cost a whole e-mail its other cards, so
     * the card falls back to its table (and the failure is logged).
     */
    private BufferedImage chartOrNull(JsonNode card, Tabular data, Kind kind, int width) {
        try {
            return chartImage(card, data, kind, width);
        } catch (RuntimeException e) {
            log.warn("Could not draw the {} chart of card {}; rendering its table instead", kind.key, card.path("id"), e);
            return null;
        }
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
