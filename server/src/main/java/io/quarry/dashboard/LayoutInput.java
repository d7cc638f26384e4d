package io.quarry.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.web.param.Body;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code dashcards} and {@code tabs} arrays of {@code PUT /api/dashboard/:id}, validated as Metabase's schema does:
 * ids unique (negative = new), sizes positive, positions not negative, mappings with a {@code parameter_id} and a
 * {@code target}. Every problem lands in the body's errors under the array's name.
 */
final class LayoutInput {
    /** The longest tab name its column holds, as the changelog declares it. */
    private static final int TAB_NAME_LENGTH = io.quarry.appdb.ColumnLengths.of("dashboard_tab").get("name");
    static final String UNIQUE = "nullable value must be seq of maps in which ids are unique";
    static final String REQUIRED_UNIQUE = "value must be seq of maps in which ids are unique";

    record DashcardIn(long id, Long cardId, Long tabId, Long actionId, int row, int col, int sizeX, int sizeY,
                      JsonNode parameterMappings, JsonNode visualizationSettings, List<Long> series) {
        /** The same dashcard on another tab. */
        DashcardIn onTab(Long tab) {
            return new DashcardIn(id, cardId, tab, actionId, row, col, sizeX, sizeY, parameterMappings, visualizationSettings, series);
        }
    }

    record TabIn(long id, String name) {
    }

    private LayoutInput() {
    }

    /** Null when absent or null; otherwise the parsed dashcards (possibly partial when errors were recorded). */
    static List<DashcardIn> dashcards(Body body) {
        return dashcards(body, "dashcards", false);
    }

    /**
     * The dashcards under {@code key}; a {@code required} list (the deprecated {@code PUT /api/dashboard/:id/cards}
     * takes {@code cards}) missing or null is an error with Metabase's non-nullable wording.
     */
    static List<DashcardIn> dashcards(Body body, String key, boolean required) {
        JsonNode value = body.get(key, Body.Kind.OBJECTS);
        String message = required ? REQUIRED_UNIQUE : UNIQUE;
        if (value.isNull()) {
            if (required) {
                body.addError(key, message, "missing required key, received: nil");
            }
            return null;
        }
        List<String> problems = new ArrayList<>();
        List<DashcardIn> result = new ArrayList<>();
        if (!value.isArray()) {
            problems.add("should be a sequence, received: " + BodyRules.render(value));
        } else {
            Set<Long> ids = new HashSet<>();
            int i = 0;
            for (JsonNode dc : value) {
                String at = "[" + i++ + "].";
                if (!dc.isObject()) {
                    problems.add(at.substring(0, at.length() - 1) + ": should be a map, received: " + BodyRules.render(dc));
                    continue;
                }
                Long id = integer(dc, "id", at, problems, Long.MIN_VALUE, false);
                if (id != null && !ids.add(id)) {
                    problems.add(at + "id: ids must be unique, received: " + id);
                }
                Long sizeX = integer(dc, "size_x", at, problems, 1, false);
                Long sizeY = integer(dc, "size_y", at, problems, 1, false);
                Long row = integer(dc, "row", at, problems, 0, false);
                Long col = integer(dc, "col", at, problems, 0, false);
                Long cardId = integer(dc, "card_id", at, problems, 1, true);
                Long tabId = integer(dc, "dashboard_tab_id", at, problems, Long.MIN_VALUE, true);
                Long actionId = integer(dc, "action_id", at, problems, 1, true);
                JsonNode mappings = dc.get("parameter_mappings");
                if (mappings != null && !mappings.isNull()) {
                    boolean ok = mappings.isArray();
                    if (ok) {
                        for (JsonNode m : mappings) {
                            if (!m.isObject() || !m.path("parameter_id").isTextual() || m.path("parameter_id").asText().isBlank()
                                    || !m.has("target")) {
                                ok = false;
                            }
                        }
                    }
                    if (!ok) {
                        problems.add(at + "parameter_mappings: each mapping must be a map with a non-blank :parameter_id and a :target,"
                                + " received: " + mappings);
                    }
                }
                JsonNode viz = dc.get("visualization_settings");
                if (viz != null && !viz.isNull() && !viz.isObject()) {
                    problems.add(at + "visualization_settings: should be a map, received: " + BodyRules.render(viz));
                }
                List<Long> series = null;
                JsonNode s = dc.get("series");
                if (s != null && !s.isNull()) {
                    series = new ArrayList<>();
                    if (!s.isArray()) {
                        problems.add(at + "series: should be a sequence of maps, received: " + BodyRules.render(s));
                    } else {
                        for (JsonNode card : s) {
                            if (!card.isObject() || !card.path("id").canConvertToExactIntegral() || card.path("id").asLong() <= 0) {
                                problems.add(at + "series: each entry must be a map with a card :id, received: " + card);
                            } else {
                                series.add(card.path("id").asLong());
                            }
                        }
                    }
                }
                if (id != null && sizeX != null && sizeY != null && row != null && col != null) {
                    result.add(new DashcardIn(id, cardId, tabId, actionId, Math.toIntExact(row), Math.toIntExact(col),
                            Math.toIntExact(sizeX), Math.toIntExact(sizeY),
                            mappings == null || mappings.isNull() ? null : mappings,
                            viz == null || viz.isNull() ? null : viz, series));
                }
            }
        }
        for (String problem : problems) {
            body.addError(key, message, problem);
        }
        return result;
    }

    static List<TabIn> tabs(Body body) {
        JsonNode value = body.get("tabs", Body.Kind.OBJECTS);
        if (value.isNull()) {
            return null;
        }
        List<String> problems = new ArrayList<>();
        List<TabIn> result = new ArrayList<>();
        if (!value.isArray()) {
            problems.add("should be a sequence, received: " + BodyRules.render(value));
        } else {
            Set<Long> ids = new HashSet<>();
            int i = 0;
            for (JsonNode tab : value) {
                String at = "[" + i++ + "].";
                if (!tab.isObject()) {
                    problems.add(at.substring(0, at.length() - 1) + ": should be a map, received: " + BodyRules.render(tab));
                    continue;
                }
                Long id = integer(tab, "id", at, problems, Long.MIN_VALUE, false);
                if (id != null && !ids.add(id)) {
                    problems.add(at + "id: ids must be unique, received: " + id);
                }
                JsonNode name = tab.get("name");
                if (name == null || !name.isTextual() || name.asText().isBlank()) {
                    problems.add(at + "name: non-blank string, received: " + (name == null ? "nil" : BodyRules.render(name)));
                } else if (name.asText().length() > TAB_NAME_LENGTH) { // UTF-16 units, as H2 counts them
                    problems.add(at + "name: should be at most " + TAB_NAME_LENGTH + " characters, received: "
                            + name.asText().length() + " characters");
                } else if (id != null) {
                    result.add(new TabIn(id, name.asText()));
                }
            }
        }
        for (String problem : problems) {
            body.addError("tabs", UNIQUE, problem);
        }
        return result;
    }

    private static Long integer(JsonNode object, String key, String at, List<String> problems, long min, boolean nullable) {
        JsonNode v = object.get(key);
        if (v == null || v.isNull()) {
            if (!nullable) {
                problems.add(at + key + ": missing required key, received: nil");
            }
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToExactIntegral() || v.asLong() < min) {
            String rule = min == 1 ? "should be a positive int" : min == 0 ? "should be an integer greater than or equal to zero"
                    : "should be an integer";
            problems.add(at + key + ": " + rule + ", received: " + BodyRules.render(v));
            return null;
        }
        return v.asLong();
    }
}
