package io.quarry.qp.mbql;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/** Unique names, compared without case, shortened to a length limit with a hash suffix. */
final class Names {
    private final int maxLength;
    private final Set<String> used = new HashSet<>();

    Names(int maxLength) {
        this.maxLength = maxLength;
    }

    String unique(String desired) {
        String base = shorten(desired == null || desired.isEmpty() ? "column" : desired);
        String candidate = base;
        for (int n = 2; !used.add(candidate.toLowerCase(Locale.ROOT)); n++) {
            candidate = shorten(base + "_" + n);
        }
        return candidate;
    }

    private String shorten(String name) {
        if (name.length() <= maxLength) {
            return name;
        }
        String hash = Integer.toHexString(name.hashCode());
        return name.substring(0, maxLength - hash.length() - 1) + "_" + hash;
    }
}
