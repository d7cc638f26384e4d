package io.quarry.sync;

import java.util.Set;

/** The parts of Metabase's base-type hierarchy that analysis asks about ({@code isa?} checks). */
final class BaseTypes {
    private static final Set<String> INTEGER = Set.of("type/Integer", "type/BigInteger");
    /** In Metabase type/Decimal derives from type/Float. */
    private static final Set<String> FLOAT = Set.of("type/Float", "type/Decimal");
    private static final Set<String> NUMBER = Set.of("type/Number", "type/Integer", "type/BigInteger", "type/Float",
            "type/Decimal");
    private static final Set<String> TEXT = Set.of("type/Text");
    private static final Set<String> DATE = Set.of("type/Date");
    private static final Set<String> DATE_TIME = Set.of("type/DateTime", "type/DateTimeWithTZ", "type/DateTimeWithLocalTZ",
            "type/DateTimeWithZoneOffset", "type/DateTimeWithZoneID", "type/Instant");
    private static final Set<String> TIME = Set.of("type/Time", "type/TimeWithTZ", "type/TimeWithLocalTZ",
            "type/TimeWithZoneOffset");
    private static final Set<String> COLLECTION = Set.of("type/Array", "type/Structured", "type/JSON", "type/Dictionary",
            "type/Collection");

    private BaseTypes() {
    }

    static boolean isInteger(String t) {
        return INTEGER.contains(t);
    }

    static boolean isFloat(String t) {
        return FLOAT.contains(t);
    }

    static boolean isNumber(String t) {
        return NUMBER.contains(t);
    }

    static boolean isText(String t) {
        return TEXT.contains(t);
    }

    static boolean isDate(String t) {
        return DATE.contains(t);
    }

    static boolean isDateTime(String t) {
        return DATE_TIME.contains(t);
    }

    static boolean isTime(String t) {
        return TIME.contains(t);
    }

    static boolean isTemporal(String t) {
        return isDate(t) || isDateTime(t) || isTime(t);
    }

    static boolean isBoolean(String t) {
        return "type/Boolean".equals(t);
    }

    static boolean isCollection(String t) {
        return COLLECTION.contains(t);
    }
}
