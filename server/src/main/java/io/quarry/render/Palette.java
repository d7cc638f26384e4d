package io.quarry.render;

import java.awt.Color;
import java.util.List;

/** Metabase's colours: the chart series palette (brand first, then its accents) and the greys of its static charts. */
final class Palette {
    /** Series colours in the order Metabase hands them out ({@code accent0}..{@code accent7}). */
    static final List<Color> SERIES = List.of(
            new Color(0x509EE3), new Color(0x88BF4D), new Color(0xA989C5), new Color(0xEF8C8C),
            new Color(0xF9D45C), new Color(0xF2A86F), new Color(0x98D9D9), new Color(0x7172AD));
    /** Axis labels and ticks ({@code text-medium}). */
    static final Color TEXT_MEDIUM = new Color(0x696E7B);
    /** Titles and values ({@code text-dark}). */
    static final Color TEXT_DARK = new Color(0x4C5773);
    /** The goal line and its label: a dark grey no series colour is close to. */
    static final Color GOAL = new Color(0x4C5773);
    /** Grid lines and table borders ({@code border}). */
    static final Color BORDER = new Color(0xEEECEC);

    private Palette() {
    }

    static Color series(int index) {
        return SERIES.get(index % SERIES.size());
    }

    /** A CSS colour as Metabase stores it ({@code #509EE3}, {@code #5ae}); null when it is none. */
    static Color parse(String css) {
        if (css == null) {
            return null;
        }
        String hex = css.trim();
        if (!hex.startsWith("#")) {
            return null;
        }
        hex = hex.substring(1);
        if (hex.length() == 3) {
            hex = "" + hex.charAt(0) + hex.charAt(0) + hex.charAt(1) + hex.charAt(1) + hex.charAt(2) + hex.charAt(2);
        }
        if (hex.length() == 8) {
            hex = hex.substring(0, 6);
        }
        if (hex.length() != 6) {
            return null;
        }
        try {
            return new Color(Integer.parseInt(hex, 16));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static String css(Color color) {
        return String.format("#%06X", color.getRGB() & 0xFFFFFF);
    }
}
