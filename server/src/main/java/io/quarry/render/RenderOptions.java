package io.quarry.render;

/**
 * How a card is rendered.
 *
 * @param width        the chart's width in pixels
 * @param maxTableRows how many rows a table shows before its "N more rows" line
 * @param cardUrl      the link under the card's title; null for no link
 */
public record RenderOptions(int width, int maxTableRows, String cardUrl) {
    /** Metabase's e-mail width for a card (its static charts are drawn for a column of about this size). */
    public static final int EMAIL_WIDTH = 600;
    /** Metabase shows the first rows of a table in an e-mail and counts the rest. */
    public static final int EMAIL_TABLE_ROWS = 10;

    public RenderOptions {
        if (width < 100 || width > 4000) {
            throw new IllegalArgumentException("width must be between 100 and 4000 pixels, not " + width);
        }
        if (maxTableRows < 1) {
            throw new IllegalArgumentException("maxTableRows must be positive");
        }
    }

    /** An e-mail's rendering: 600 px wide, the first 10 rows of a table, the title linking to {@code cardUrl}. */
    public static RenderOptions email(String cardUrl) {
        return new RenderOptions(EMAIL_WIDTH, EMAIL_TABLE_ROWS, cardUrl);
    }
}
