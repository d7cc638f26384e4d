package io.quarry.render;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;

/**
 * Scalar and smart-scalar cards: one value, formatted; a smart scalar also compares the last period with the one before
 * (as Metabase's "↑ 12.5% vs. previous month: 1,100").
 */
final class Scalars {
    private static final Color UP = new Color(0x84BB4C);
    private static final Color DOWN = new Color(0xED6E6E);

    private Scalars() {
    }

    /** The value shown and, for a smart scalar, the comparison line (null when there is none). */
    record Scalar(String value, String comparison, Color comparisonColor) {
    }

    static Scalar of(JsonNode settings, Tabular data, boolean smart) {
        if (data.rows().isEmpty() || data.cols().isEmpty()) {
            return new Scalar("No results", null, null);
        }
        int field = data.indexOf(String.valueOf(ChartModel.text(settings.path("scalar.field"))));
        if (field < 0) {
            field = firstMetric(data);
        }
        Tabular.Column col = data.cols().get(field);
        ColumnFormat format = ColumnFormat.of(settings, col, java.util.List.of());
        if (!smart) {
            return new Scalar(format.single(data.rows().get(0).get(field)), null, null);
        }
        java.util.List<Object> last = data.rows().get(data.rows().size() - 1);
        String value = format.single(last.get(field));
        if (data.rows().size() < 2) {
            return new Scalar(value, null, null);
        }
        Double now = ChartModel.number(last.get(field));
        Double before = ChartModel.number(data.rows().get(data.rows().size() - 2).get(field));
        String period = "previous period";
        for (int c = 0; c < data.cols().size(); c++) {
            if (data.cols().get(c).temporal()) {
                int column = c;
                Formats.Granularity g = Formats.Granularity.of(data.rows().stream().map(r -> r.get(column)).toList());
                period = switch (g) {
                    case YEAR -> "previous year";
                    case MONTH -> "previous month";
                    case DAY -> "previous day";
                    default -> "previous period";
                };
                break;
            }
        }
        if (now == null || before == null) {
            return new Scalar(value, "N/A vs. " + period, Palette.TEXT_MEDIUM);
        }
        String previous = format.single(data.rows().get(data.rows().size() - 2).get(field));
        if (before == 0) {
            return new Scalar(value, (now == 0 ? "No change" : "N/A") + " vs. " + period + ": " + previous, Palette.TEXT_MEDIUM);
        }
        double change = (now - before) / Math.abs(before);
        if (change == 0) {
            return new Scalar(value, "No change vs. " + period + ": " + previous, Palette.TEXT_MEDIUM);
        }
        String arrow = change > 0 ? "↑" : "↓";
        return new Scalar(value, arrow + " " + Formats.number(Math.abs(change), true) + " vs. " + period + ": " + previous,
                change > 0 ? UP : DOWN);
    }

    private static int firstMetric(Tabular data) {
        for (int c = 0; c < data.cols().size(); c++) {
            if (ColumnTypes.metric(data.cols().get(c))) {
                return c;
            }
        }
        return 0;
    }

    static String html(Scalar scalar) {
        StringBuilder out = new StringBuilder();
        out.append("<div style=\"").append(Html.FONT).append(" font-size: 32px; font-weight: 700; color: #4C5773; padding: 8px 0;\">")
                .append(Html.escape(scalar.value())).append("</div>");
        if (scalar.comparison() != null) {
            out.append("<div style=\"").append(Html.FONT).append(" font-size: 14px; font-weight: 700; color: ")
                    .append(Palette.css(scalar.comparisonColor())).append(";\">").append(Html.escape(scalar.comparison())).append("</div>");
        }
        return out.toString();
    }

    static BufferedImage image(Scalar scalar, int width) {
        int height = Math.max(120, width / 4);
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            Font big = fit(g, scalar.value(), width - 32, 48);
            g.setFont(big);
            g.setColor(Palette.TEXT_DARK);
            FontMetrics m = g.getFontMetrics();
            int y = scalar.comparison() == null ? (height + m.getAscent() - m.getDescent()) / 2 : height / 2;
            g.drawString(scalar.value(), (width - m.stringWidth(scalar.value())) / 2, y);
            if (scalar.comparison() != null) {
                Font small = fit(g, scalar.comparison(), width - 32, 16);
                g.setFont(small);
                g.setColor(scalar.comparisonColor());
                FontMetrics s = g.getFontMetrics();
                g.drawString(scalar.comparison(), (width - s.stringWidth(scalar.comparison())) / 2, y + s.getHeight() + 8);
            }
        } finally {
            g.dispose();
        }
        return image;
    }

    private static Font fit(Graphics2D g, String text, int width, int size) {
        Font font = new Font(Font.SANS_SERIF, Font.BOLD, size);
        while (size > 10 && g.getFontMetrics(font).stringWidth(text) > width) {
            size -= 2;
            font = new Font(Font.SANS_SERIF, Font.BOLD, size);
        }
        return font;
    }
}
