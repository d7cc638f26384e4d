package io.quarry.render;

import com.fasterxml.jackson.databind.JsonNode;
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

    static String html(JsonNode settings, Tabular data, int maxRows) {
        List<ColumnFormat> formats = formats(settings, data);
        StringBuilder out = new StringBuilder();
        // a wide table scrolls sideways where the client can, as Metabase's e-mails wrap theirs
        out.append("<div style=\"overflow-x: auto;\">");
        out.append("<table style=\"width: 100%; border-collapse: collapse; ").append(Html.FONT).append("\">");
        out.append("<thead><tr>");
        for (int c = 0; c < data.cols().size(); c++) {
            out.append("<th style=\"").append(HEAD).append(data.cols().get(c).numeric() ? " text-align: right;" : "").append("\">")
                    .append(Html.escape(formats.get(c).title())).append("</th>");
        }
        out.append("</tr></thead><tbody>");
        int shown = Math.min(maxRows, data.rows().size());
        for (int r = 0; r < shown; r++) {
            List<Object> row = data.rows().get(r);
            out.append("<tr>");
            for (int c = 0; c < data.cols().size(); c++) {
                Object value = row.get(c);
                out.append("<td style=\"").append(CELL).append(value instanceof Number ? " text-align: right;" : "").append("\">")
                        .append(Html.escape(formats.get(c).cell(value))).append("</td>");
            }
            out.append("</tr>");
        }
        out.append("</tbody></table></div>");
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

    static List<ColumnFormat> formats(JsonNode settings, Tabular data) {
        List<ColumnFormat> out = new ArrayList<>();
        for (int c = 0; c < data.cols().size(); c++) {
            int column = c;
            out.add(ColumnFormat.of(settings, data.cols().get(c), data.rows().stream().map(r -> r.get(column)).toList()));
        }
        return out;
    }

    /** The first rows drawn as a PNG image (header, rows, the "N more rows" line), columns cut to fit the width. */
    static BufferedImage image(JsonNode settings, Tabular data, int maxRows, int width) {
        List<ColumnFormat> formats = formats(settings, data);
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
                cell(g, formats.get(c).title(), x, rowHeight - 9, columnWidth, col.numeric());
                g.setFont(body);
                g.setColor(Palette.TEXT_DARK);
                for (int r = 0; r < shown; r++) {
                    List<Object> row = data.rows().get(r);
                    Object value = row.get(c);
                    cell(g, formats.get(c).cell(value), x, rowHeight * (r + 2) - 9, columnWidth,
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
