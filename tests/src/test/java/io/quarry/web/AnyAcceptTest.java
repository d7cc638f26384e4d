package io.quarry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The Accept header widened so that every method takes it (EveryResourceMethodIT calls every method with it). */
class AnyAcceptTest {
    @Test
    void addsAnythingAtTheLowestPreferenceAndReplacesWhatDoesNotParse() {
        assertEquals("application/json, */*;q=0.001", AnyAccept.widened("application/json"));
        assertEquals("text/html;q=0.9,image/png, */*;q=0.001", AnyAccept.widened("text/html;q=0.9,image/png"));
        assertEquals("*/*", AnyAccept.widened("*/*"), "already anything");
        assertEquals("*/*", AnyAccept.widened("not a media type"));
        assertEquals("*/*", AnyAccept.widened("application/json;q=abc"));
        assertEquals("*/*", AnyAccept.widened("  "));
    }
}
