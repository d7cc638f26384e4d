package io.quarry.web.param;

/** An integer greater than zero, from a path or query parameter. */
public record PosInt(long value) {
    public int intValue() {
        return Math.toIntExact(value);
    }
}
