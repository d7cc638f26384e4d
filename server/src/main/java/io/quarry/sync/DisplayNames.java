package io.quarry.sync;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** Metabase-style display names: {@code ORDERS} → {@code Orders}, {@code USER_ID} → {@code User ID}. */
public final class DisplayNames {
    private static final Set<String> UPPER = Set.of("id", "url", "uuid", "ip", "ean", "api", "sku", "html", "json", "csv");
    private static final Pattern CAMEL = Pattern.compile("([a-z0-9])([A-Z])");
    private static final Pattern SEPARATORS = Pattern.compile("[_\\-\\s]+");

    private DisplayNames() {
    }

    public static String of(String name) {
        if (name == null || name.isBlank()) {
            return name;
        }
        String spaced = SEPARATORS.matcher(CAMEL.matcher(name).replaceAll("$1 $2")).replaceAll(" ").trim();
        StringBuilder out = new StringBuilder();
        for (String word : spaced.split(" ")) {
            if (word.isEmpty()) {
                continue;
            }
            String lower = word.toLowerCase(Locale.ROOT);
            if (out.length() > 0) {
                out.append(' ');
            }
            if (UPPER.contains(lower)) {
                out.append(lower.toUpperCase(Locale.ROOT));
            } else {
                out.append(Character.toUpperCase(lower.charAt(0))).append(lower.substring(1));
            }
        }
        return out.length() == 0 ? name : out.toString();
    }
}
