package io.quarry.render;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A chart's data as Metabase's static visualisations see it: the dimension (x axis), the series and their values per
 * category, read from the card's {@code visualization_settings} where set and from the result's columns otherwise (the
 * first temporal or category column as dimension, the numeric columns as metrics). With two dimensions the second one's
 * values become the series of the first metric, as Metabase's breakouts do.
 */
record ChartModel(int dimension, Tabular.Column dimensionColumn, Formats.Granularity granularity, List<Object> categories,
                  List<Series> series, String xTitle, String yTitle, Double goal, String goalLabel, StackType stack) {

    enum StackType { NONE, STACKED, NORMALIZED }

    /** One series: its settings key, legend title, colour, display (for combo charts) and a value per category. */
    record Series(String key, String title, Color color, String display, List<Double> values) {
    }

    static ChartModel of(JsonNode settings, Tabular data, String display) {
        List<Integer> dims = columns(settings.path("graph.dimensions"), data);
        if (dims.isEmpty()) {
            dims = defaultDimensions(data);
        }
        List<Integer> metrics = columns(settings.path("graph.metrics"), data);
        if (metrics.isEmpty()) {
            metrics = defaultMetrics(data, dims);
        }
        int dimension = dims.isEmpty() ? -1 : dims.get(0);
        Tabular.Column dimensionColumn = dimension < 0 ? null : data.cols().get(dimension);

        Map<Object, Integer> categoryIndex = new LinkedHashMap<>();
        for (List<Object> row : data.rows()) {
            Object x = dimension < 0 ? "" : row.get(dimension);
            categoryIndex.putIfAbsent(x, categoryIndex.size());
        }
        List<Object> categories = new ArrayList<>(categoryIndex.keySet());
        Formats.Granularity granularity = dimensionColumn != null && dimensionColumn.temporal()
                ? Formats.Granularity.of(categories) : null;

        Map<String, Double[]> values = new LinkedHashMap<>();
        Map<String, String> titles = dims.size() >= 2 && !metrics.isEmpty()
                ? breakoutValues(data, dimension, dims.get(1), metrics.get(0), categoryIndex, values)
                : metricValues(data, dimension, metrics, categoryIndex, values);
        List<Series> series = styled(settings, display, titles, values);

        String xTitle = settings.path("graph.x_axis.labels_enabled").asBoolean(true)
                ? orDefault(text(settings.path("graph.x_axis.title_text")), dimensionColumn == null ? null : dimensionColumn.label())
                : null;
        String yTitle = settings.path("graph.y_axis.labels_enabled").asBoolean(true)
                ? orDefault(text(settings.path("graph.y_axis.title_text")),
                        series.size() == 1 && dims.size() < 2 ? series.get(0).title()
                                : metrics.size() == 1 ? data.cols().get(metrics.get(0)).label() : null)
                : null;
        Double goal = settings.path("graph.show_goal").asBoolean(false) && settings.path("graph.goal_value").isNumber()
                ? settings.path("graph.goal_value").asDouble() : null;
        String goalLabel = orDefault(text(settings.path("graph.goal_label")), "Goal");
        StackType stack = switch (String.valueOf(text(settings.path("stackable.stack_type")))) {
            case "stacked" -> StackType.STACKED;
            case "normalized" -> StackType.NORMALIZED;
            default -> StackType.NONE;
        };
        return new ChartModel(dimension, dimensionColumn, granularity, categories, series, xTitle, yTitle, goal, goalLabel, stack);
    }

    /**
     * Two dimensions: one series per value of the second (keyed by the value), of the first metric. Fills
     * {@code values} (series key → a value per category) and answers the series' titles.
     */
    private static Map<String, String> breakoutValues(Tabular data, int dimension, int breakout, int metric,
                                                      Map<Object, Integer> categoryIndex, Map<String, Double[]> values) {
        Map<String, String> titles = new LinkedHashMap<>();
        Tabular.Column breakoutColumn = data.cols().get(breakout);
        Formats.Granularity breakoutGranularity = breakoutColumn.temporal()
                ? Formats.Granularity.of(data.rows().stream().map(r -> r.get(breakout)).toList()) : null;
        for (List<Object> row : data.rows()) {
            Object b = row.get(breakout);
            String key = b == null ? "(empty)" : String.valueOf(b);
            titles.computeIfAbsent(key, k -> b == null ? "(empty)" : Formats.value(b, breakoutColumn, breakoutGranularity));
            values.computeIfAbsent(key, k -> new Double[categoryIndex.size()])[categoryIndex.get(row.get(dimension))] =
                    number(row.get(metric));
        }
        return titles;
    }

    /** One series per metric (keyed by its column name); fills {@code values} and answers the titles. */
    private static Map<String, String> metricValues(Tabular data, int dimension, List<Integer> metrics,
                                                    Map<Object, Integer> categoryIndex, Map<String, Double[]> values) {
        Map<String, String> titles = new LinkedHashMap<>();
        for (int metric : metrics) {
            Tabular.Column col = data.cols().get(metric);
            titles.put(col.name(), col.label());
            Double[] v = new Double[categoryIndex.size()];
            for (List<Object> row : data.rows()) {
                Object x = dimension < 0 ? "" : row.get(dimension);
                Double n = number(row.get(metric));
                int at = categoryIndex.get(x);
                // repeated categories add up, as a chart of one dimension shows the total per category
                if (n != null) {
                    v[at] = v[at] == null ? n : Double.valueOf(v[at] + n);
                }
            }
            values.put(col.name(), v);
        }
        return titles;
    }

    /**
     * The series with their colours ({@code series_settings.<key>.color}, else {@code graph.colors} by position, else
     * the palette), titles and displays ({@code series_settings.<key>.title} and {@code .display}).
     */
    private static List<Series> styled(JsonNode settings, String display, Map<String, String> titles, Map<String, Double[]> values) {
        JsonNode seriesSettings = settings.path("series_settings");
        JsonNode legacyColors = settings.path("graph.colors");
        List<Series> series = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, Double[]> entry : values.entrySet()) {
            JsonNode own = seriesSettings.path(entry.getKey());
            Color color = Palette.parse(text(own.path("color")));
            if (color == null && legacyColors.isArray() && i < legacyColors.size()) {
                color = Palette.parse(text(legacyColors.get(i)));
            }
            if (color == null) {
                color = Palette.series(i);
            }
            String title = text(own.path("title"));
            String seriesDisplay = text(own.path("display"));
            if (seriesDisplay == null) {
                // Metabase's combo chart draws its first series as bars and the rest as lines unless told otherwise
                seriesDisplay = display.equals("combo") ? (i == 0 ? "bar" : "line") : display;
            }
            series.add(new Series(entry.getKey(), title != null ? title : titles.get(entry.getKey()), color, seriesDisplay,
                    java.util.Arrays.asList(entry.getValue())));
            i++;
        }
        return series;
    }

    /** A category as the axis shows it. */
    String categoryLabel(Object category) {
        if (category == null) {
            return "(empty)";
        }
        if (granularity != null) {
            return Formats.temporal(category, granularity, true);
        }
        if (category instanceof Number n) {
            return Formats.number(n, false);
        }
        return String.valueOf(category);
    }

    /**
     * The first temporal column, then the first category (text, boolean) columns, at most two in all (the second a
     * breakout); the first column when nothing else qualifies.
     */
    static List<Integer> defaultDimensions(Tabular data) {
        List<Integer> dims = new ArrayList<>();
        for (int i = 0; i < data.cols().size(); i++) {
            if (data.cols().get(i).temporal()) {
                dims.add(i);
                break;
            }
        }
        for (int i = 0; i < data.cols().size() && dims.size() < 2; i++) {
            Tabular.Column col = data.cols().get(i);
            // a key or other number is no category to group by (an id column next to a date stays out)
            if (!dims.contains(i) && !col.numeric() && !col.temporal()) {
                dims.add(i);
            }
        }
        if (dims.isEmpty() && data.cols().size() > 1) {
            dims.add(0);
        }
        return dims;
    }

    /** The numeric columns that are not a dimension. */
    static List<Integer> defaultMetrics(Tabular data, List<Integer> dims) {
        List<Integer> metrics = new ArrayList<>();
        for (int i = 0; i < data.cols().size(); i++) {
            if (!dims.contains(i) && ColumnTypes.metric(data.cols().get(i))) {
                metrics.add(i);
            }
        }
        if (dims.size() >= 2 && metrics.size() > 1) {
            return metrics.subList(0, 1);
        }
        return metrics;
    }

    /** The columns a setting names (an array of column names, or one name), those that exist. */
    private static List<Integer> columns(JsonNode names, Tabular data) {
        List<Integer> out = new ArrayList<>();
        if (names.isTextual()) {
            int at = data.indexOf(names.asText());
            if (at >= 0) {
                out.add(at);
            }
        }
        for (JsonNode name : names) {
            int at = name.isTextual() ? data.indexOf(name.asText()) : -1;
            if (at >= 0 && !out.contains(at)) {
                out.add(at);
            }
        }
        return out;
    }

    static Double number(Object value) {
        if (value instanceof Number n) {
            double d = n.doubleValue();
            return Double.isFinite(d) ? d : null;
        }
        if (value instanceof String s) {
            try {
                return Double.parseDouble(s);
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    static String text(JsonNode node) {
        return node != null && node.isTextual() && !node.asText().isBlank() ? node.asText() : null;
    }

    private static String orDefault(String value, String fallback) {
        return value != null ? value : fallback;
    }
}
