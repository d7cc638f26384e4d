package io.quarry.render;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.DatasetRenderingOrder;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.AreaRenderer;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.CategoryItemRenderer;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.renderer.category.StackedAreaRenderer;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.text.TextBlock;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.Range;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The bar, line, area, row and combo charts, drawn with JFreeChart on one category plot as Metabase's static charts look:
 * white, no plot border, light horizontal grid lines, the series in Metabase's palette (or the card's colours), a legend
 * on top only when there is more than one series, axis titles, a dashed goal line with its label.
 */
final class Charts {
    static final Font TICK_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    static final Font AXIS_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 12);
    static final Font LEGEND_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    private static final float LINE_WIDTH = 3f;

    private Charts() {
    }

    /** A category's key on the axis: its position (keys must be unique) and its label. */
    record CategoryKey(int index, String label) implements Comparable<CategoryKey> {
        @Override
        public int compareTo(CategoryKey o) {
            return Integer.compare(index, o.index);
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /** A series' key in a dataset: its position (titles may repeat) and its legend title. */
    record SeriesKey(int index, String title) implements Comparable<SeriesKey> {
        @Override
        public int compareTo(SeriesKey o) {
            return Integer.compare(index, o.index);
        }

        @Override
        public String toString() {
            return title;
        }
    }

    /** The chart height Metabase's static charts use for a width: a 5:3 frame, taller for many rows of a row chart. */
    static int height(String display, int categories, int width) {
        int height = Math.round(width * 0.6f);
        if (display.equals("row")) {
            height = Math.max(height, Math.min(2000, 60 + categories * 24));
        }
        return height;
    }

    static JFreeChart category(ChartModel model, String display, int width) {
        if (display.equals("area")) {
            return area(model, width);
        }
        boolean row = display.equals("row");
        boolean stacked = model.stack() != ChartModel.StackType.NONE && model.series().size() > 1
                && (display.equals("bar") || display.equals("row") || display.equals("area"));
        boolean normalized = stacked && model.stack() == ChartModel.StackType.NORMALIZED;

        SparseCategoryAxis domain = new SparseCategoryAxis(model.xTitle());
        NumberAxis range = new NumberAxis(model.yTitle());
        CategoryPlot plot = new CategoryPlot();
        plot.setDomainAxis(domain);
        plot.setRangeAxis(range);
        plot.setOrientation(row ? PlotOrientation.HORIZONTAL : PlotOrientation.VERTICAL);
        // a row chart's values read along the bottom, its categories down the left
        plot.setRangeAxisLocation(org.jfree.chart.axis.AxisLocation.BOTTOM_OR_LEFT);

        // one dataset per kind of drawing: bars behind, then areas, then lines on top
        List<String> kinds = List.of("bar", "area", "line");
        int datasetIndex = 0;
        for (String kind : kinds) {
            DefaultCategoryDataset dataset = new DefaultCategoryDataset();
            CategoryItemRenderer renderer = renderer(kind, stacked, normalized, model.categories().size());
            int seriesInDataset = 0;
            for (int s = 0; s < model.series().size(); s++) {
                ChartModel.Series series = model.series().get(s);
                if (!kind.equals(kindOf(series.display()))) {
                    continue;
                }
                SeriesKey key = new SeriesKey(s, series.title());
                for (int c = 0; c < model.categories().size(); c++) {
                    dataset.addValue(series.values().get(c), key,
                            new CategoryKey(c, model.categoryLabel(model.categories().get(c))));
                }
                renderer.setSeriesPaint(seriesInDataset, series.color());
                renderer.setSeriesStroke(seriesInDataset, new BasicStroke(LINE_WIDTH, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
                seriesInDataset++;
            }
            if (seriesInDataset > 0) {
                plot.setDataset(datasetIndex, dataset);
                plot.setRenderer(datasetIndex, renderer);
                datasetIndex++;
            }
        }
        plot.setDatasetRenderingOrder(DatasetRenderingOrder.FORWARD);
        style(plot, domain, range, normalized);
        int n = model.categories().size();
        if (!row && n > levelLabels(width, model)) {
            // labels that do not fit level are slanted, and thinned out when even that is too many
            domain.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
            domain.every = Math.max(1, (int) Math.ceil(n / (double) slantedLabels(width)));
        }
        if (model.goal() != null && !normalized) {
            goal(plot, range, model.goal(), model.goalLabel());
        }
        JFreeChart chart = new JFreeChart(null, JFreeChart.DEFAULT_TITLE_FONT, plot, model.series().size() > 1);
        finish(chart);
        return chart;
    }

    /**
     * An area chart: on an XY plot (x = the category's position, labelled with the category), because the category
     * renderers draw an area as one polygon per item and leave seams between them. Each series is one see-through area
     * edged by its line in the full colour; stacked areas are drawn as their running totals, opaque, from the top down.
     */
    static JFreeChart area(ChartModel model, int width) {
        boolean stacked = model.stack() != ChartModel.StackType.NONE && model.series().size() > 1;
        boolean normalized = stacked && model.stack() == ChartModel.StackType.NORMALIZED;
        int n = model.categories().size();
        org.jfree.data.xy.XYSeriesCollection areas = areaSeries(model, stacked, normalized);
        // the edges get their own dataset: a plot finds a dataset's renderer by the dataset, so one shared dataset
        // would be drawn and listed in the legend twice by the first renderer
        org.jfree.data.xy.XYSeriesCollection edges;
        try {
            edges = (org.jfree.data.xy.XYSeriesCollection) areas.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
        org.jfree.chart.renderer.xy.XYAreaRenderer fill = new org.jfree.chart.renderer.xy.XYAreaRenderer(
                org.jfree.chart.renderer.xy.XYAreaRenderer.AREA);
        fill.setOutline(false);
        org.jfree.chart.renderer.xy.XYLineAndShapeRenderer edge = new org.jfree.chart.renderer.xy.XYLineAndShapeRenderer(true, false);
        edge.setAutoPopulateSeriesStroke(false);
        for (int s = 0; s < model.series().size(); s++) {
            Color c = model.series().get(s).color();
            fill.setSeriesPaint(s, stacked ? c : new Color(c.getRed(), c.getGreen(), c.getBlue(), 80));
            edge.setSeriesPaint(s, c);
            edge.setSeriesStroke(s, new BasicStroke(LINE_WIDTH, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
            // the legend shows the edges, in the full colour, rather than the faint fills
            fill.setSeriesVisibleInLegend(s, false);
        }
        NumberAxis domain = new NumberAxis(model.xTitle());
        // a label every so many categories, as many as fit: the axis would space them by the width of the numbers
        int every = Math.max(1, (int) Math.ceil(n / (double) levelLabels(width, model)));
        domain.setTickUnit(new org.jfree.chart.axis.NumberTickUnit(every, new LabelFormat(model)));
        domain.setRange(-0.5, Math.max(0.5, n - 0.5));
        NumberAxis range = new NumberAxis(model.yTitle());
        org.jfree.chart.plot.XYPlot plot = new org.jfree.chart.plot.XYPlot(areas, domain, range, fill);
        // the edges first in the list draw last (on top); stacked running totals draw the largest first
        plot.setDataset(1, edges);
        plot.setRenderer(1, edge);
        plot.setDatasetRenderingOrder(DatasetRenderingOrder.FORWARD);
        plot.setSeriesRenderingOrder(stacked ? org.jfree.chart.plot.SeriesRenderingOrder.REVERSE
                : org.jfree.chart.plot.SeriesRenderingOrder.FORWARD);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setOutlineVisible(false);
        plot.setRangeGridlinePaint(Palette.BORDER);
        plot.setRangeGridlineStroke(new BasicStroke(1f));
        plot.setDomainGridlinesVisible(false);
        plot.setAxisOffset(RectangleInsets.ZERO_INSETS);
        plot.setInsets(new RectangleInsets(8, 4, 4, 12));
        axes(domain, range);
        valueAxis(range, normalized);
        if (model.goal() != null && !normalized) {
            ValueMarker marker = goalMarker(model.goal(), model.goalLabel());
            plot.addRangeMarker(marker, Layer.FOREGROUND);
            stretch(range, model.goal());
        }
        JFreeChart chart = new JFreeChart(null, JFreeChart.DEFAULT_TITLE_FONT, plot, model.series().size() > 1);
        finish(chart);
        return chart;
    }

    /** Each series as x = category position, y = its value, or its running total (share of the total) when stacked. */
    private static org.jfree.data.xy.XYSeriesCollection areaSeries(ChartModel model, boolean stacked, boolean normalized) {
        int n = model.categories().size();
        double[] running = new double[n];
        double[] totals = new double[n];
        for (ChartModel.Series series : model.series()) {
            for (int c = 0; c < n; c++) {
                Double v = series.values().get(c);
                totals[c] += v == null ? 0 : v;
            }
        }
        org.jfree.data.xy.XYSeriesCollection areas = new org.jfree.data.xy.XYSeriesCollection();
        for (int s = 0; s < model.series().size(); s++) {
            ChartModel.Series series = model.series().get(s);
            org.jfree.data.xy.XYSeries xy = new org.jfree.data.xy.XYSeries(new SeriesKey(s, series.title()), false, true);
            for (int c = 0; c < n; c++) {
                Double v = series.values().get(c);
                double value = v == null ? 0 : v;
                if (stacked) {
                    running[c] += normalized ? (totals[c] == 0 ? 0 : value / totals[c]) : value;
                    value = running[c];
                }
                xy.add(c, value);
            }
            areas.addSeries(xy);
        }
        return areas;
    }

    /** Category positions on a number axis shown as their labels (positions between categories show nothing). */
    static final class LabelFormat extends NumberFormat {
        private final transient ChartModel model;

        LabelFormat(ChartModel model) {
            this.model = model;
        }

        @Override
        public StringBuffer format(double number, StringBuffer toAppendTo, FieldPosition pos) {
            long index = Math.round(number);
            if (Math.abs(number - index) < 1e-6 && index >= 0 && index < model.categories().size()) {
                toAppendTo.append(model.categoryLabel(model.categories().get((int) index)));
            }
            return toAppendTo;
        }

        @Override
        public StringBuffer format(long number, StringBuffer toAppendTo, FieldPosition pos) {
            return format((double) number, toAppendTo, pos);
        }

        @Override
        public Number parse(String source, ParsePosition parsePosition) {
            return null;
        }
    }

    private static String kindOf(String display) {
        return switch (display == null ? "bar" : display) {
            case "line" -> "line";
            case "area" -> "area";
            default -> "bar";
        };
    }

    private static CategoryItemRenderer renderer(String kind, boolean stacked, boolean normalized, int categories) {
        switch (kind) {
            case "line" -> {
                LineAndShapeRenderer line = new LineAndShapeRenderer(true, categories <= 40);
                line.setDefaultShapesFilled(true);
                line.setAutoPopulateSeriesStroke(false);
                line.setAutoPopulateSeriesShape(false);
                line.setDefaultShape(new java.awt.geom.Ellipse2D.Double(-3.5, -3.5, 7, 7));
                return line;
            }
            case "area" -> {
                if (stacked) {
                    StackedAreaRenderer area = new StackedAreaRenderer(normalized);
                    return area;
                }
                return new AreaRenderer();
            }
            default -> {
                BarRenderer bar = stacked ? new StackedBarRenderer(normalized) : new BarRenderer();
                bar.setBarPainter(new StandardBarPainter());
                bar.setShadowVisible(false);
                bar.setDrawBarOutline(false);
                bar.setItemMargin(0.04);
                bar.setMaximumBarWidth(0.12);
                return bar;
            }
        }
    }

    private static void style(CategoryPlot plot, CategoryAxis domain, NumberAxis range, boolean normalized) {
        plot.setBackgroundPaint(Color.WHITE);
        plot.setOutlineVisible(false);
        plot.setRangeGridlinesVisible(true);
        plot.setRangeGridlinePaint(Palette.BORDER);
        plot.setRangeGridlineStroke(new BasicStroke(1f));
        plot.setDomainGridlinesVisible(false);
        plot.setAxisOffset(RectangleInsets.ZERO_INSETS);
        plot.setInsets(new RectangleInsets(8, 4, 4, 12));
        axes(domain, range);
        domain.setCategoryMargin(0.15);
        domain.setLowerMargin(0.02);
        domain.setUpperMargin(0.02);
        domain.setMaximumCategoryLabelLines(2);
        valueAxis(range, normalized);
    }

    /** Both axes in Metabase's greys, without tick marks; only the category axis has its line. */
    private static void axes(org.jfree.chart.axis.Axis domain, org.jfree.chart.axis.Axis range) {
        for (var axis : List.of(domain, range)) {
            axis.setTickLabelFont(TICK_FONT);
            axis.setTickLabelPaint(Palette.TEXT_MEDIUM);
            axis.setLabelFont(AXIS_FONT);
            axis.setLabelPaint(Palette.TEXT_MEDIUM);
            axis.setAxisLineVisible(false);
            axis.setTickMarksVisible(false);
        }
        domain.setAxisLineVisible(true);
        domain.setAxisLinePaint(Palette.BORDER);
    }

    /** The value axis from zero, its numbers compact (or percentages for a normalized stack), room above the top. */
    private static void valueAxis(NumberAxis range, boolean normalized) {
        range.setNumberFormatOverride(normalized ? NumberFormat.getPercentInstance(java.util.Locale.US) : new CompactFormat());
        range.setAutoRangeIncludesZero(true);
        range.setUpperMargin(0.08);
    }

    /** A dashed line across the plot at the goal, labelled, with the axis stretched to show it. */
    private static void goal(CategoryPlot plot, NumberAxis range, double goal, String label) {
        plot.addRangeMarker(goalMarker(goal, label), Layer.FOREGROUND);
        stretch(range, goal);
    }

    private static ValueMarker goalMarker(double goal, String label) {
        ValueMarker marker = new ValueMarker(goal, Palette.GOAL,
                new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[]{6f, 4f}, 0f));
        marker.setLabel(label);
        marker.setLabelFont(TICK_FONT);
        marker.setLabelPaint(Palette.GOAL);
        marker.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
        marker.setLabelTextAnchor(TextAnchor.BOTTOM_RIGHT);
        marker.setLabelBackgroundColor(new Color(255, 255, 255, 0));
        return marker;
    }

    /** The value axis stretched to show the goal (a marker does not widen the axis by itself). */
    private static void stretch(NumberAxis range, double goal) {
        Range shown = range.getRange();
        if (goal > shown.getUpperBound() || goal < shown.getLowerBound()) {
            double lower = Math.min(shown.getLowerBound(), goal);
            double upper = Math.max(shown.getUpperBound(), goal);
            range.setRange(lower, upper + (upper - lower) * 0.08);
        }
    }

    static void finish(JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.setAntiAlias(true);
        chart.setTextAntiAlias(true);
        chart.setPadding(new RectangleInsets(4, 4, 4, 4));
        LegendTitle legend = chart.getLegend();
        if (legend != null) {
            legend.setItemFont(LEGEND_FONT);
            legend.setItemPaint(Palette.TEXT_MEDIUM);
            legend.setFrame(BlockBorder.NONE);
            legend.setBackgroundPaint(Color.WHITE);
            legend.setPosition(RectangleEdge.TOP);
        }
    }

    /** How many category labels fit side by side, level (about 7 px a character at 12 px, and a gap). */
    static int levelLabels(int width, ChartModel model) {
        return Math.max(2, (width - 80) / (Math.max(2, longestLabel(model)) * 7 + 16));
    }

    /** How many category labels fit side by side at 45 degrees (a line's height apart, and a gap). */
    static int slantedLabels(int width) {
        return Math.max(2, (width - 80) / 22);
    }

    private static int longestLabel(ChartModel model) {
        int longest = 0;
        for (Object category : model.categories()) {
            longest = Math.max(longest, model.categoryLabel(category).length());
        }
        return longest;
    }

    /** The chart as an RGB image. */
    static BufferedImage image(JFreeChart chart, int width, int height) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            chart.draw(g, new java.awt.geom.Rectangle2D.Double(0, 0, width, height));
        } finally {
            g.dispose();
        }
        return image;
    }

    /** A category axis that shows every n-th label, so that a long time series stays readable. */
    static final class SparseCategoryAxis extends CategoryAxis {
        int every = 1;

        SparseCategoryAxis(String label) {
            super(label);
        }

        @Override
        protected TextBlock createLabel(Comparable category, float width, RectangleEdge edge, Graphics2D g2) {
            if (every > 1 && category instanceof CategoryKey key && key.index() % every != 0) {
                return new TextBlock();
            }
            return super.createLabel(category, every > 1 ? width * every : width, edge, g2);
        }
    }

    /** Axis numbers as Metabase's compact ticks: 950, 1,500, 12.5k, 3M. */
    static final class CompactFormat extends NumberFormat {
        @Override
        public StringBuffer format(double number, StringBuffer toAppendTo, FieldPosition pos) {
            return toAppendTo.append(Formats.compact(number));
        }

        @Override
        public StringBuffer format(long number, StringBuffer toAppendTo, FieldPosition pos) {
            return toAppendTo.append(Formats.compact(number));
        }

        @Override
        public Number parse(String source, ParsePosition parsePosition) {
            return null;
        }
    }
}
