package io.quarry.render;

import java.util.Set;

/** Which Metabase types count as numbers and as points in time, for choosing a chart's dimension and metrics. */
final class ColumnTypes {
    private static final Set<String> NUMERIC = Set.of("type/Integer", "type/BigInteger", "type/Float", "type/Decimal",
            "type/Number", "type/Double");
    private static final Set<String> TEMPORAL = Set.of("type/Date", "type/DateTime", "type/DateTimeWithTZ",
            "type/DateTimeWithLocalTZ", "type/DateTimeWithZoneOffset", "type/DateTimeWithZoneID", "type/Instant",
            "type/Temporal", "type/Time", "type/TimeWithTZ", "type/TimeWithLocalTZ", "type/TimeWithZoneOffset");
    /** Keys are numbers but no metric: Metabase never sums or plots an id by default. */
    private static final Set<String> KEYS = Set.of("type/PK", "type/FK");

    private ColumnTypes() {
    }

    static boolean numeric(Tabular.Column col) {
        return col.baseType() != null && NUMERIC.contains(col.baseType());
    }

    /** A number that may be a chart's metric by default: not a key, not a year or other temporal number. */
    static boolean metric(Tabular.Column col) {
        return numeric(col) && (col.semanticType() == null || !KEYS.contains(col.semanticType())) && !temporal(col);
    }

    static boolean temporal(Tabular.Column col) {
        if (col.baseType() != null && TEMPORAL.contains(col.baseType())) {
            return true;
        }
        String semantic = col.semanticType();
        return semantic != null && (semantic.endsWith("Timestamp") || semantic.endsWith("Date") || semantic.equals("type/Temporal"));
    }

    static boolean percentage(Tabular.Column col) {
        return "type/Percentage".equals(col.semanticType());
    }
}
