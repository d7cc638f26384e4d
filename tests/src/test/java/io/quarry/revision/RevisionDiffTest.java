package io.quarry.revision;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Metabase's change descriptions of dashboard revisions. */
class RevisionDiffTest {
    private static Map<String, Object> card(long id, long cardId, int row, List<Map<String, Object>> series) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("id", id);
        c.put("card_id", cardId);
        c.put("row", row);
        c.put("col", 0);
        c.put("series", series);
        return c;
    }

    private static Map<String, Object> dashboard(String name, List<Map<String, Object>> cards, List<Map<String, Object>> tabs) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("name", name);
        d.put("cache_ttl", null);
        d.put("auto_apply_filters", true);
        d.put("tabs", tabs);
        d.put("cards", cards);
        return d;
    }

    private static String describe(Map<String, Object> before, Map<String, Object> after) {
        return RevisionDiff.sentence(RevisionDiff.describe(Revisions.DASHBOARD, before, after, id -> "C" + id));
    }

    @Test
    void describesCardsTabsAndSettings() {
        Map<String, Object> one = dashboard("A", List.of(card(1, 10, 0, List.of())), List.of());
        assertEquals("added a card.", describe(one, dashboard("A", List.of(card(1, 10, 0, List.of()), card(2, 11, 4, List.of())), List.of())));
        assertEquals("added 2 cards.", describe(dashboard("A", List.of(), List.of()),
                dashboard("A", List.of(card(1, 10, 0, List.of()), card(2, 11, 4, List.of())), List.of())));
        assertEquals("renamed this Dashboard from \"A\" to \"B\" and removed a card.", describe(one, dashboard("B", List.of(), List.of())));
        assertEquals("rearranged the cards.", describe(one, dashboard("A", List.of(card(1, 10, 6, List.of())), List.of())));
        assertEquals("modified the cards.", describe(one, dashboard("A", List.of(card(1, 12, 0, List.of())), List.of())));
        assertEquals("modified the cards and added some series to card 10.",
                describe(one, dashboard("A", List.of(card(1, 10, 0, List.of(Map.of("id", 12)))), List.of())));

        Map<String, Object> tabs = dashboard("A", List.of(), List.of(Map.of("id", 1, "name", "x"), Map.of("id", 2, "name", "y")));
        assertEquals("rearranged the tabs.", describe(tabs, dashboard("A", List.of(),
                List.of(Map.of("id", 2, "name", "y"), Map.of("id", 1, "name", "x")))));
        assertEquals("removed a tab.", describe(tabs, dashboard("A", List.of(), List.of(Map.of("id", 1, "name", "x")))));
        assertEquals("modified the tabs.", describe(tabs, dashboard("A", List.of(),
                List.of(Map.of("id", 1, "name", "x"), Map.of("id", 2, "name", "renamed")))));

        Map<String, Object> settings = dashboard("A", List.of(), List.of());
        settings.put("cache_ttl", 5);
        settings.put("auto_apply_filters", false);
        assertEquals("added a cache ttl and set auto apply filters to false.", describe(dashboard("A", List.of(), List.of()), settings));
        Map<String, Object> ttl = dashboard("A", List.of(), List.of());
        ttl.put("cache_ttl", 7);
        ttl.put("auto_apply_filters", false);
        assertEquals("changed the cache ttl from \"5\" to \"7\".", describe(settings, ttl));
    }

    @Test
    void cardsKeepTheGenericPhrases() {
        assertEquals("renamed this Card from \"A\" to \"B\".",
                RevisionDiff.sentence(RevisionDiff.describe(Revisions.CARD, Map.of("name", "A"), Map.of("name", "B"), id -> "")));
    }
}
