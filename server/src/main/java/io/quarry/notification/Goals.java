package io.quarry.notification;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.render.Tabular;
import java.util.List;

/**
 * Whether a goal alert fires: some row's value of the card's metric is at or above its goal line (or below it), as
 * Metabase's {@code goal-met?}. The goal is {@code visualization_settings["graph.goal_value"]}; the metric is the first
 * of {@code graph.metrics}, else the last numeric column.
 */
final class Goals {
    private Goals() {
    }

    static boolean met(JsonNode card, Tabular data, boolean above) {
        JsonNode settings = card.path("visualization_settings");
        JsonNode goal = settings.path("graph.goal_value");
        if (!goal.isNumber() || data == null) {
            return false;
        }
        int column = metricColumn(settings, data);
        if (column < 0) {
            return false;
        }
        double target = goal.asDouble();
        for (List<Object> row : data.rows()) {
            if (column < row.size() && row.get(column) instanceof Number n) {
                double value = n.doubleValue();
                if (above ? value >= target : value < target) {
                    return true;
                }
            }
        }
        return false;
    }

    private static int metricColumn(JsonNode settings, Tabular data) {
        JsonNode metrics = settings.path("graph.metrics");
        if (metrics.isArray() && !metrics.isEmpty()) {
            String name = metrics.get(0).asText();
            for (int i = 0; i < data.cols().size(); i++) {
                if (data.cols().get(i).name().equals(name)) {
                    return i;
                }
            }
        }
        for (int i = data.cols().size() - 1; i >= 0; i--) {
            if (data.cols().get(i).numeric()) {
                return i;
            }
        }
        return -1;
    }
}
