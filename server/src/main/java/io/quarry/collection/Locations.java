package io.quarry.collection;

import java.util.regex.Pattern;

/** Collection locations: materialized paths of ancestor ids, {@code ^/(\d+/)*$}. */
public final class Locations {
    private static final Pattern VALID = Pattern.compile("^/(\\d+/)*$");
    private static final long[] NONE = new long[0];

    private Locations() {
    }

    public static boolean valid(String location) {
        return location != null && VALID.matcher(location).matches();
    }

    public static long[] ids(String location) {
        if (location == null || location.length() <= 1) {
            return NONE;
        }
        String[] parts = location.substring(1, location.length() - 1).split("/");
        long[] ids = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            ids[i] = Long.parseLong(parts[i]);
        }
        return ids;
    }

    /** The location made of these ids, top first. */
    public static String of(long[] ids, int count) {
        StringBuilder sb = new StringBuilder("/");
        for (int i = 0; i < count; i++) {
            sb.append(ids[i]).append('/');
        }
        return sb.toString();
    }

    /** Metabase's slug: lower case, runs of anything but letters and digits become one underscore, at most 510. */
    public static String slug(String name) {
        String lower = java.text.Normalizer.normalize(name, java.text.Normalizer.Form.NFKD)
                .replaceAll("\\p{M}", "").toLowerCase(java.util.Locale.ROOT);
        String slug = lower.replaceAll("[^\\p{L}\\p{N}]+", "_");
        return slug.length() > 510 ? slug.substring(0, 510) : slug;
    }
}
