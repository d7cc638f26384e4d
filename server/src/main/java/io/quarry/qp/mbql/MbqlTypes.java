package io.quarry.qp.mbql;

import java.util.Map;

/** Metabase's type hierarchy, as far as compiling queries needs it ({@code type/BigInteger} isa {@code type/Number}). */
final class MbqlTypes {
    static final String NUMBER = "type/Number";
    static final String INTEGER = "type/Integer";
    static final String BIG_INTEGER = "type/BigInteger";
    static final String FLOAT = "type/Float";
    static final String DECIMAL = "type/Decimal";
    static final String TEXT = "type/Text";
    static final String BOOLEAN = "type/Boolean";
    static final String TEMPORAL = "type/Temporal";
    static final String DATE = "type/Date";
    static final String DATE_TIME = "type/DateTime";
    static final String DATE_TIME_TZ = "type/DateTimeWithTZ";
    static final String DATE_TIME_LOCAL_TZ = "type/DateTimeWithLocalTZ";
    static final String TIME = "type/Time";
    static final String UUID = "type/UUID";
    static final String ANY = "type/*";

    private static final Map<String, String> PARENT = Map.ofEntries(
            Map.entry(INTEGER, NUMBER),
            Map.entry(BIG_INTEGER, INTEGER),
            Map.entry(FLOAT, NUMBER),
            Map.entry(DECIMAL, FLOAT),
            Map.entry("type/Currency", DECIMAL),
            Map.entry(DATE_TIME, TEMPORAL),
            Map.entry(DATE_TIME_TZ, DATE_TIME),
            Map.entry(DATE_TIME_LOCAL_TZ, DATE_TIME_TZ),
            Map.entry("type/DateTimeWithZoneOffset", DATE_TIME_TZ),
            Map.entry("type/DateTimeWithZoneID", DATE_TIME_TZ),
            Map.entry(DATE, TEMPORAL),
            Map.entry(TIME, TEMPORAL),
            Map.entry("type/TimeWithTZ", TIME),
            Map.entry("type/TimeWithLocalTZ", "type/TimeWithTZ"),
            Map.entry("type/TimeWithZoneOffset", "type/TimeWithTZ"),
            Map.entry("type/Latitude", "type/Coordinate"),
            Map.entry("type/Longitude", "type/Coordinate"),
            Map.entry("type/PostgresEnum", TEXT));

    private MbqlTypes() {
    }

    static boolean isa(String type, String ancestor) {
        for (String t = type; t != null; t = PARENT.get(t)) {
            if (t.equals(ancestor)) {
                return true;
            }
        }
        return false;
    }

    static boolean isNumber(String type) {
        return isa(type, NUMBER);
    }

    static boolean isInteger(String type) {
        return isa(type, INTEGER);
    }

    static boolean isText(String type) {
        return isa(type, TEXT);
    }

    static boolean isTemporal(String type) {
        return isa(type, TEMPORAL);
    }

    /** A type with a date part (dates and date-times, not times of day). */
    static boolean hasDate(String type) {
        return isa(type, DATE) || isa(type, DATE_TIME);
    }

    static boolean isDateOnly(String type) {
        return isa(type, DATE);
    }

    static boolean isTimeZoned(String type) {
        return isa(type, DATE_TIME_TZ);
    }

    static boolean isCoordinate(String semanticType) {
        return semanticType != null && isa(semanticType, "type/Coordinate");
    }
}
