package io.quarry.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.core.Json;
import io.quarry.render.CardRenderer;
import io.quarry.render.Tabular;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Server-side chart rendering: 100 chart PNGs of mixed displays (bar, stacked bar, line with a goal, area, row, pie,
 * combo, table), 600 px wide as in an e-mail, rendered by {@link CardRenderer#png}, median of {@code [rounds=5]} rounds
 * after a warm-up. The floor, measured in the same run: encoding a blank white PNG of each chart's size (what any
 * server-side PNG costs before anything is drawn). Prints ms per chart, the floor and the ratio.
 */
public final class RenderBenchmark {
    private static final int WIDTH = 600;
    private static final int CHARTS = 100;

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        System.out.println("load average: " + java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim());
        List<Job> jobs = jobs();
        CardRenderer renderer = new CardRenderer();
        List<int[]> sizes = new ArrayList<>();
        for (Job job : jobs) {
            BufferedImage image = ImageIO.read(new java.io.ByteArrayInputStream(renderer.png(job.card, job.data, WIDTH)));
            sizes.add(new int[] {image.getWidth(), image.getHeight()});
        }
        // warm-up: JIT, fonts, ImageIO's writer
        for (int i = 0; i < 2; i++) {
            renderAll(renderer, jobs);
            blankAll(sizes);
        }
        double[] charts = new double[rounds];
        double[] floors = new double[rounds];
        long bytes = 0;
        for (int r = 0; r < rounds; r++) {
            long start = System.nanoTime();
            bytes = renderAll(renderer, jobs);
            charts[r] = (System.nanoTime() - start) / 1e6 / CHARTS;
            start = System.nanoTime();
            blankAll(sizes);
            floors[r] = (System.nanoTime() - start) / 1e6 / CHARTS;
        }
        double chart = median(charts);
        double floor = median(floors);
        System.out.printf(Locale.ROOT, "charts per round: %d (%s), %d px wide, %.1f KB PNG on average%n", CHARTS,
                String.join(", ", jobs.stream().map(j -> j.name).distinct().toList()), WIDTH, bytes / 1024.0 / CHARTS);
        System.out.printf(Locale.ROOT, "rounds (ms per chart): %s; blank PNG floor: %s%n", Arrays.toString(round(charts)),
                Arrays.toString(round(floors)));
        System.out.printf(Locale.ROOT, "RESULT render: %.2f ms per chart (median of %d rounds of %d), blank PNG encode floor %.2f ms"
                + " (%.1fx the floor)%n", chart, rounds, CHARTS, floor, chart / floor);
    }

    private record Job(String name, JsonNode card, Tabular data) {
    }

    private static long renderAll(CardRenderer renderer, List<Job> jobs) {
        long bytes = 0;
        for (int i = 0; i < CHARTS; i++) {
            Job job = jobs.get(i % jobs.size());
            bytes += renderer.png(job.card, job.data, WIDTH).length;
        }
        return bytes;
    }

    private static void blankAll(List<int[]> sizes) throws Exception {
        for (int i = 0; i < CHARTS; i++) {
            int[] size = sizes.get(i % sizes.size());
            BufferedImage image = new BufferedImage(size[0], size[1], BufferedImage.TYPE_INT_RGB);
            Graphics2D g = image.createGraphics();
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, size[0], size[1]);
            g.dispose();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(image, "png", out);
        }
    }

    private static List<Job> jobs() {
        Tabular monthly = monthly(24);
        Tabular categories = categories();
        Tabular breakout = breakout();
        return List.of(
                new Job("bar", card("bar", "{}"), categories),
                new Job("stacked bar", card("bar", "{\"stackable.stack_type\":\"stacked\"}"), breakout),
                new Job("line + goal", card("line", "{\"graph.show_goal\":true,\"graph.goal_value\":1500}"), monthly),
                new Job("area", card("area", "{\"graph.metrics\":[\"COUNT\"]}"), monthly),
                new Job("row", card("row", "{}"), categories),
                new Job("pie", card("pie", "{}"), categories),
                new Job("combo", card("combo", "{}"), monthly),
                new Job("table", card("table", "{}"), monthly),
                new Job("line", card("line", "{}"), breakout),
                new Job("bar (24 months)", card("bar", "{\"series_settings\":{\"COUNT\":{\"color\":\"#E03A3A\"}}}"), monthly));
    }

    private static JsonNode card(String display, String settings) {
        ObjectNode card = Json.object();
        card.put("id", 1);
        card.put("name", "Bench " + display);
        card.put("display", display);
        try {
            card.set("visualization_settings", Json.read(settings));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return card;
    }

    private static Tabular monthly(int months) {
        List<List<Object>> rows = new ArrayList<>();
        for (int m = 0; m < months; m++) {
            rows.add(List.of(String.format(Locale.ROOT, "%d-%02d-01T00:00:00Z", 2024 + m / 12, m % 12 + 1), 100L + (m * 37 % 90),
                    1000.5 + m * 50));
        }
        return new Tabular(List.of(new Tabular.Column("CREATED_AT", "Created At", "type/DateTime", null),
                new Tabular.Column("COUNT", "Count", "type/BigInteger", null),
                new Tabular.Column("TOTAL", "Total", "type/Float", null)), rows, rows.size());
    }

    private static Tabular categories() {
        List<List<Object>> rows = new ArrayList<>();
        String[] names = {"Doohickey", "Gadget", "Gizmo", "Widget", "Sprocket", "Thingamajig", "Whatsit", "Contraption"};
        for (int i = 0; i < names.length; i++) {
            rows.add(List.of(names[i], 40L + i * 7 % 23));
        }
        return new Tabular(List.of(new Tabular.Column("CATEGORY", "Category", "type/Text", "type/Category"),
                new Tabular.Column("COUNT", "Count", "type/BigInteger", null)), rows, rows.size());
    }

    private static Tabular breakout() {
        List<List<Object>> rows = new ArrayList<>();
        String[] names = {"Doohickey", "Gadget", "Gizmo"};
        for (int m = 1; m <= 12; m++) {
            for (int c = 0; c < names.length; c++) {
                rows.add(List.of(String.format(Locale.ROOT, "2024-%02d-01", m), names[c], (long) (10 + m * 3 + c * 7)));
            }
        }
        return new Tabular(List.of(new Tabular.Column("CREATED_AT", "Created At", "type/Date", null),
                new Tabular.Column("CATEGORY", "Category", "type/Text", "type/Category"),
                new Tabular.Column("COUNT", "Count", "type/Integer", null)), rows, rows.size());
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    private static double[] round(double[] values) {
        return Arrays.stream(values).map(v -> Math.round(v * 100) / 100.0).toArray();
    }
}
