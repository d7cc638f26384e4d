package io.quarry.testing;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads samples out of Prometheus's text format, as a scraper would (for the tests' assertions). */
public final class PrometheusText {
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)(\\s+\\S+)?$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private PrometheusText() {
    }

    /** The sum of every sample of {@code name} whose labels include {@code labels}; NaN when there is none. */
    public static double value(String text, String name, Map<String, String> labels) {
        double sum = 0;
        boolean found = false;
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            Matcher sample = SAMPLE.matcher(line.trim());
            if (!sample.matches() || !sample.group(1).equals(name)) {
                continue;
            }
            Map<String, String> present = new java.util.HashMap<>();
            if (sample.group(3) != null) {
                Matcher label = LABEL.matcher(sample.group(3));
                while (label.find()) {
                    present.put(label.group(1), label.group(2));
                }
            }
            if (present.entrySet().containsAll(labels.entrySet())) {
                sum += Double.parseDouble(sample.group(4));
                found = true;
            }
        }
        return found ? sum : Double.NaN;
    }

    /** As {@link #value}, 0 when there is no such sample (a counter not yet incremented). */
    public static double count(String text, String name, Map<String, String> labels) {
        double value = value(text, name, labels);
        return Double.isNaN(value) ? 0 : value;
    }

    /** Whether a family of that name is declared ({@code # TYPE name ...}). */
    public static boolean declares(String text, String name) {
        return text.contains("# TYPE " + name + " ");
    }
}
