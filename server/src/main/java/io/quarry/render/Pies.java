package io.quarry.render;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.labels.StandardPieSectionLabelGenerator;
import org.jfree.chart.plot.RingPlot;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.data.general.DefaultPieDataset;

/**
 * Pie (donut) charts as Metabase draws them: one slice per dimension value, slices under its threshold (2.5% by default,
 * {@code pie.slice_threshold}) grouped into "Other", colours from {@code pie.colors} or the palette, a legend with each
 * slice's share.
 */
final class Pies {
    private static final Color OTHER = new Color(0x949AAB);

    private Pies() {
    }

    /** Whether the result has what a pie needs: a dimension and a numeric metric. */
    static boolean possible(JsonNode settings, Tabular data) {
        return metric(settings, data) >= 0 && dimension(settings, data) >= 0;
    }

    static JFreeChart chart(JsonNode settings, Tabular data) {
        int dimension = dimension(settings, data);
        int metric = metric(settings, data);
        Tabular.Column dimensionColumn = data.cols().get(dimension);
        Formats.Granularity granularity = dimensionColumn.temporal()
                ? Formats.Granularity.of(data.rows().stream().map(r -> r.get(dimension)).toList()) : null;
        Map<String, Double> slices = new LinkedHashMap<>();
        Map<String, String> keys = new LinkedHashMap<>();
        double total = 0;
        for (List<Object> row : data.rows()) {
            Double value = ChartModel.number(row.get(metric));
            if (value == null || value <= 0) {
                continue;
            }
            Object raw = row.get(dimension);
            String label = raw == null ? "(empty)" : Formats.value(raw, dimensionColumn, granularity);
            slices.merge(label, value, Double::sum);
            keys.putIfAbsent(label, raw == null ? "(empty)" : String.valueOf(raw));
            total += value;
        }
        double threshold = settings.path("pie.slice_threshold").isNumber() ? settings.path("pie.slice_threshold").asDouble() / 100
                : 0.025;
        DefaultPieDataset<String> dataset = new DefaultPieDataset<>();
        List<Color> colors = new ArrayList<>();
        double other = 0;
        JsonNode pieColors = settings.path("pie.colors");
        for (Map.Entry<String, Double> slice : slices.entrySet()) {
            if (total > 0 && slice.getValue() / total < threshold) {
                other += slice.getValue();
                continue;
            }
            Color color = Palette.parse(ChartModel.text(pieColors.path(keys.get(slice.getKey()))));
            colors.add(color != null ? color : Palette.series(colors.size()));
            dataset.setValue(slice.getKey(), slice.getValue());
        }
        if (other > 0) {
            dataset.setValue("Other", other);
            colors.add(OTHER);
        }
        RingPlot plot = new RingPlot(dataset);
        plot.setSectionDepth(0.35);
        plot.setSeparatorsVisible(false);
        plot.setShadowPaint(null);
        plot.setOutlineVisible(false);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setLabelGenerator(null);
        plot.setSectionOutlinesVisible(true);
        plot.setDefaultSectionOutlinePaint(Color.WHITE);
        plot.setDefaultSectionOutlineStroke(new BasicStroke(1.5f));
        plot.setInteriorGap(0.04);
        plot.setInsets(new RectangleInsets(8, 8, 8, 8));
        for (int i = 0; i < colors.size(); i++) {
            plot.setSectionPaint(dataset.getKey(i), colors.get(i));
        }
        plot.setLegendLabelGenerator(new StandardPieSectionLabelGenerator("{0}  {2}"));
        JFreeChart chart = new JFreeChart(null, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        Charts.finish(chart);
        chart.getLegend().setPosition(RectangleEdge.RIGHT);
        return chart;
    }

    private static int dimension(JsonNode settings, Tabular data) {
        JsonNode named = settings.path("pie.dimension");
        String name = named.isArray() && !named.isEmpty() ? named.get(0).asText() : ChartModel.text(named);
        int at = name == null ? -1 : data.indexOf(name);
        if (at >= 0) {
            return at;
        }
        List<Integer> dims = ChartModel.defaultDimensions(data);
        return dims.isEmpty() ? -1 : dims.get(0);
    }

    private static int metric(JsonNode settings, Tabular data) {
        String name = ChartModel.text(settings.path("pie.metric"));
        int at = name == null ? -1 : data.indexOf(name);
        if (at >= 0) {
            return at;
        }
        for (int c = 0; c < data.cols().size(); c++) {
            if (ColumnTypes.metric(data.cols().get(c))) {
                return c;
            }
        }
        return -1;
    }
}
