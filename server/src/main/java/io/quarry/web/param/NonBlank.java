package io.quarry.web.param;

/** A string with at least one non-whitespace character, from a path or query parameter. */
public record NonBlank(String value) {
}
