package io.quarry.sample;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded random source with the helpers the sample generator needs. Everything is derived from
 * {@link SplittableRandom} (whose sequence is specified) and {@link StrictMath} (bit-identical on every platform), so
 * the same seed always yields the same data.
 */
final class Rng {
    private final SplittableRandom random;

    /** One independent stream per table: changing one table's generator leaves the other tables' data unchanged. */
    Rng(long seed, String stream) {
        this.random = new SplittableRandom(seed ^ ((long) stream.hashCode() << 32 | (stream.length() & 0xffffffffL)));
    }

    /** Uniform in [0, 1). */
    double unit() {
        return random.nextDouble();
    }

    /** Uniform in [low, high). */
    double uniform(double low, double high) {
        return low + (high - low) * random.nextDouble();
    }

    /** Uniform integer in [low, high], both inclusive. */
    int between(int low, int high) {
        return random.nextInt(low, high + 1);
    }

    boolean chance(double probability) {
        return random.nextDouble() < probability;
    }

    /** A standard normal deviate (Box-Muller on StrictMath). */
    double gaussian() {
        double u = 1.0 - random.nextDouble();
        double v = random.nextDouble();
        return StrictMath.sqrt(-2.0 * StrictMath.log(u)) * StrictMath.cos(2.0 * StrictMath.PI * v);
    }

    /** Exponentially distributed with the given mean. */
    double exponential(double mean) {
        return -mean * StrictMath.log(1.0 - random.nextDouble());
    }

    <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    /** An index drawn with the weights whose running sums are {@code cumulative} (ascending, last = total). */
    int weighted(double[] cumulative) {
        double target = random.nextDouble() * cumulative[cumulative.length - 1];
        int low = 0;
        int high = cumulative.length - 1;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (cumulative[middle] > target) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return low;
    }

    /** A uniformly drawn instant (whole seconds) in [from, to); {@code from} itself when the range is empty. */
    LocalDateTime instant(LocalDateTime from, LocalDateTime to) {
        long seconds = ChronoUnit.SECONDS.between(from, to);
        return seconds <= 0 ? from : from.plusSeconds(random.nextLong(seconds));
    }

    /** A uniformly drawn day in [from, to]. */
    LocalDate day(LocalDate from, LocalDate to) {
        long days = ChronoUnit.DAYS.between(from, to);
        return days <= 0 ? from : from.plusDays(random.nextLong(days + 1));
    }

    /** {@code count} random decimal digits. */
    String digits(int count) {
        StringBuilder digits = new StringBuilder(count);
        for (int i = 0; i < count; i++) {
            digits.append((char) ('0' + random.nextInt(10)));
        }
        return digits.toString();
    }

    /** A random string shaped like a version-4 UUID (lowercase hex, 8-4-4-4-12). */
    String uuid() {
        String hex = hex(random.nextLong()) + hex(random.nextLong());
        char variant = "89ab".charAt(random.nextInt(4));
        return hex.substring(0, 8) + '-' + hex.substring(8, 12) + "-4" + hex.substring(13, 16) + '-' + variant
                + hex.substring(17, 20) + '-' + hex.substring(20, 32);
    }

    private static String hex(long value) {
        String hex = Long.toHexString(value);
        return "0".repeat(16 - hex.length()) + hex;
    }
}
