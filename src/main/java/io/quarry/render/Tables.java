package io.quarry.render;

import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;

/**
 * A table card: the first rows as an inline-styled HTML table (numbers right-aligned, values formatted), and a line
 * counting the rows left out; or the same drawn as a PNG for webhooks.
 */
final class Tables {
    private static final String CELL = "padding: 6px 8px; border-bottom: 1px solid #EEECEC; font-size: 12px; color: #4C5773;";
    private static final String HEAD = "padding: 6px 8px; border-bottom: 2px solid #EEECEC; font-size: 12px; font-weight: 700; "
            + "color: #696E7B; text-align: left;";

    private Tables() {
    }

    static String html(Tabular data, int maxRows) {
        List<Formats.Granularity> granularities = granularities(data);
        StringBuilder out = new StringBuilder();
        out.append("<table style=\"width: 100%; border-collapse: collapse; ").append(Html.FONT).append("\">");
        out.append("<thead><tr>");
        for (Tabular.Column col : data.cols()) {
            out.append("<th style=\"").append(HEAD).append(col.numeric() ? " text-align: right;" : "").append("\">")
                    .append(Html.escape(col.label())).append("</th>");
        }
        out.append("</tr></thead><tbody>");
        int shown = Math.min(maxRows, data.rows().size());
        for (int r = 0; r < shown; r++) {
            List<Object> row = data.rows().get(r);
            out.append("<tr>");
            for (int c = 0; c < data.cols().size(); c++) {
                Tabular.Column col = data.cols().get(c);
                Object value = c < row.size() ? row.get(c) : null;
                out.append("<td style=\"").append(CELL).append(value instanceof Number ? " text-align: right;" : "").append("\">")
                        .append(Html.escape(Formats.value(value, col, granularities.get(c)))).append("</td>");
            }
            out.append("</tr>");
        }
        out.append("</tbody></table>");
        long more = Math.max(0, data.rowCount() - shown);
        if (more > 0) {
            out.append("<div style=\"").append(Html.FONT).append(" padding: 8px; font-size: 12px; color: #696E7B;\">")
                    .append(moreRows(more)).append("</div>");
        }
        if (data.rows().isEmpty()) {
            out.append("<div style=\"").append(Html.FONT).append(" padding: 8px; font-size: 12px; color: #696E7B;\">No results</div>");
        }
        return out.toString();
    }

    static String moreRows(long more) {
        return String.format(java.util.Locale.US, "%,d more %s", more, more == 1 ? "row" : "rows");
    }

    static List<Formats.Granularity> granularities(Tabular data) {
        List<Formats.Granularity> out = new ArrayList<>();
        for (int c = 0; c < data.cols().size(); c++) {
            int column = c;
            out.add(data.cols().get(c).temporal()
                    ? Formats.Granularity.of(data.rows().stream().map(r -> column < r.size() ? r.get(column) : null).toList())
                    : null);
        }
        return out;
    }

    /** The first rows drawn as a PNG image (header, rows, the "N more rows" line), columns cut to fit the width. */
    static BufferedImage image(Tabular data, int maxRows, int width) {
        List<Formats.Granularity> granularities = granularities(data);
        int shown = Math.min(maxRows, data.rows().size());
        long more = Math.max(0, data.rowCount() - shown);
        int rowHeight = 28;
        int height = rowHeight * (shown + 1) + (more > 0 || shown == 0 ? rowHeight : 0) + 8;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            Font head = new Font(Font.SANS_SERIF, Font.BOLD, 12);
            Font body = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
            int columns = Math.max(1, data.cols().size());
            int columnWidth = Math.max(1, (width - 8) / columns);
            for (int c = 0; c < data.cols().size(); c++) {
                int x = 4 + c * columnWidth;
                Tabular.Column col = data.cols().get(c);
                g.setFont(head);
                g.setColor(Palette.TEXT_MEDIUM);
                cell(g, col.label(), x, rowHeight - 9, columnWidth, col.numeric());
                g.setFont(body);
                g.setColor(Palette.TEXT_DARK);
                for (int r = 0; r < shown; r++) {
                    List<Object> row = data.rows().get(r);
                    Object value = c < row.size() ? row.get(c) : null;
                    cell(g, Formats.value(value, col, granularities.get(c)), x, rowHeight * (r + 2) - 9, columnWidth,
                            value instanceof Number);
                }
            }
            g.setColor(Palette.BORDER);
            for (int r = 1; r <= shown; r++) {
                g.fillRect(4, rowHeight * r - 1, width - 8, r == 1 ? 2 : 1);
            }
            if (more > 0 || shown == 0) {
                g.setFont(body);
                g.setColor(Palette.TEXT_MEDIUM);
                g.drawString(shown == 0 ? "No results" : moreRows(more), 12, rowHeight * (shown + 2) - 9);
            }
        } finally {
            g.dispose();
        }
        return image;
    }

    private static void cell(Graphics2D g, String text, int x, int baseline, int width, boolean right) {
        FontMetrics metrics = g.getFontMetrics();
        String fitted = text;
        int room = width - 16;
        if (metrics.stringWidth(fitted) > room) {
            while (!fitted.isEmpty() && metrics.stringWidth(fitted + "…") > room) {
                fitted = fitted.substring(0, fitted.length() - 1);
            }
            fitted = fitted + "…";
        }
        int at = right ? x + width - 8 - metrics.stringWidth(fitted) : x + 8;
        g.drawString(fitted, at, baseline);
    }
}
