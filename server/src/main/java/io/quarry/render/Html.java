package io.quarry.render;

/** HTML escaping for text and attribute values (everything user-supplied passes through here). */
final class Html {
    static final String FONT = "font-family: Lato, 'Helvetica Neue', Helvetica, Arial, sans-serif;";

    private Html() {
    }

    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** A link only for http(s) addresses: anything else (javascript:, data:) is shown as text. */
    static boolean safeUrl(String url) {
        if (url == null) {
            return false;
        }
        String lower = url.trim().toLowerCase(java.util.Locale.ROOT);
        return lower.startsWith("http://") || lower.startsWith("https://");
    }
}
