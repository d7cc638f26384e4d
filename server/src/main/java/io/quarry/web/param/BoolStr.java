package io.quarry.web.param;

/** The string {@code true} or {@code false} (any case), from a query parameter. */
public record BoolStr(boolean value) {
    public static boolean orDefault(BoolStr b, boolean fallback) {
        return b == null ? fallback : b.value;
    }
}
