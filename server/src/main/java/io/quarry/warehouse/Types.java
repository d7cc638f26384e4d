package io.quarry.warehouse;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Metabase's hierarchical type system, as far as fields need it: data types ({@code type/Integer}), semantic types
 * (descendants of {@code Semantic/*}), relation types ({@code type/PK}, {@code type/FK}), coercion strategies
 * ({@code Coercion/*}) and table entity types ({@code entity/*}). A type "is a" another when it is the same or derives
 * from it through any chain of parents.
 */
public final class Types {
    private static final Map<String, Set<String>> PARENTS = new HashMap<>();
    /** Coercion strategy → base types it applies to (and their descendants). */
    private static final Map<String, Set<String>> COERCION_FROM = new HashMap<>();
    /** Coercion strategy → base types it applies to exactly (not their descendants). */
    private static final Map<String, Set<String>> COERCION_FROM_EXACTLY = new HashMap<>();
    private static final Map<String, String> COERCION_TO = new HashMap<>();

    static {
        // table entity types
        derive("entity/GenericTable", "entity/*");
        for (String e : List.of("UserTable", "CompanyTable", "TransactionTable", "ProductTable", "SubscriptionTable", "EventTable")) {
            derive("entity/" + e, "entity/GenericTable");
        }
        // numbers
        derive("type/Number", "type/*");
        derive("type/Integer", "type/Number");
        derive("type/BigInteger", "type/Integer");
        derive("type/Quantity", "Semantic/*", "type/Integer");
        derive("type/Float", "type/Number");
        derive("type/Decimal", "type/Float");
        derive("type/Share", "Semantic/*", "type/Float");
        derive("type/Percentage", "Semantic/*", "type/Decimal");
        derive("type/Currency", "type/Decimal", "Semantic/*");
        for (String c : List.of("Income", "Discount", "Price", "GrossMargin", "Cost")) {
            derive("type/" + c, "type/Currency");
        }
        derive("type/Location", "Semantic/*");
        derive("type/Coordinate", "type/Location", "type/Float");
        derive("type/Latitude", "type/Coordinate");
        derive("type/Longitude", "type/Coordinate");
        derive("type/Score", "Semantic/*", "type/Number");
        derive("type/Duration", "Semantic/*", "type/Number");
        // text
        derive("type/Text", "type/*");
        derive("type/UUID", "type/Text");
        derive("type/URL", "Semantic/*", "type/Text");
        derive("type/ImageURL", "type/URL");
        derive("type/AvatarURL", "type/ImageURL");
        derive("type/Email", "Semantic/*", "type/Text");
        derive("type/Category", "Semantic/*");
        derive("type/Enum", "Semantic/*");
        derive("type/Address", "type/Location");
        derive("type/City", "type/Address", "type/Category", "type/Text");
        derive("type/State", "type/Address", "type/Category", "type/Text");
        derive("type/Country", "type/Address", "type/Category", "type/Text");
        derive("type/ZipCode", "type/Address", "type/Text");
        derive("type/Name", "type/Category", "type/Text");
        derive("type/Title", "type/Category", "type/Text");
        derive("type/Description", "Semantic/*", "type/Text");
        derive("type/Comment", "Semantic/*", "type/Text");
        derive("type/TextLike", "type/*");
        derive("type/PostgresEnum", "type/TextLike");
        derive("type/MySQLEnum", "type/Text");
        derive("type/MongoBSONID", "type/TextLike");
        derive("type/MongoBinData", "type/TextLike");
        derive("type/IPAddress", "type/TextLike", "Semantic/*");
        // temporal
        derive("type/Temporal", "type/*");
        derive("type/HasDate", "type/Temporal");
        derive("type/HasTime", "type/Temporal");
        derive("type/Date", "type/HasDate");
        derive("type/Time", "type/HasTime");
        derive("type/TimeWithTZ", "type/Time");
        derive("type/TimeWithLocalTZ", "type/TimeWithTZ");
        derive("type/TimeWithZoneOffset", "type/TimeWithTZ");
        derive("type/DateTime", "type/HasDate", "type/HasTime");
        derive("type/DateTimeWithTZ", "type/DateTime");
        derive("type/DateTimeWithLocalTZ", "type/DateTimeWithTZ");
        derive("type/DateTimeWithZoneOffset", "type/DateTimeWithTZ");
        derive("type/DateTimeWithZoneID", "type/DateTimeWithTZ");
        derive("type/Instant", "type/DateTimeWithLocalTZ");
        derive("type/Interval", "type/Temporal");
        for (String kind : List.of("Creation", "Join", "Cancelation", "Deletion", "Updated")) {
            derive("type/" + kind + "Temporal", "Semantic/*");
            derive("type/" + kind + "Timestamp", "type/" + kind + "Temporal", "type/DateTime");
            derive("type/" + kind + "Time", "type/" + kind + "Temporal", kind.equals("Cancelation") ? "type/Date" : "type/Time");
            derive("type/" + kind + "Date", "type/" + kind + "Temporal", "type/Date");
        }
        derive("type/Birthdate", "Semantic/*", "type/Date");
        // other
        derive("type/Boolean", "type/*");
        derive("type/Collection", "type/*");
        derive("type/Structured", "type/*", "Semantic/*");
        derive("type/Dictionary", "type/Collection");
        derive("type/Array", "type/Collection");
        derive("type/JSON", "type/Structured", "type/Collection");
        derive("type/XML", "type/Structured", "type/Collection");
        derive("type/SerializedJSON", "type/Structured");
        derive("type/User", "Semantic/*");
        derive("type/Author", "type/User");
        derive("type/Owner", "type/User");
        derive("type/Product", "type/Category");
        derive("type/Company", "type/Category");
        derive("type/Subscription", "type/Category");
        derive("type/Source", "type/Category");
        // relations
        derive("type/FK", "Relation/*");
        derive("type/PK", "Relation/*");
        // coercion strategies
        derive("Coercion/String->Temporal", "Coercion/*");
        derive("Coercion/ISO8601->Temporal", "Coercion/String->Temporal");
        derive("Coercion/ISO8601->DateTime", "Coercion/ISO8601->Temporal");
        derive("Coercion/ISO8601->Time", "Coercion/ISO8601->Temporal");
        derive("Coercion/ISO8601->Date", "Coercion/ISO8601->Temporal");
        derive("Coercion/YYYYMMDDHHMMSSString->Temporal", "Coercion/String->Temporal");
        derive("Coercion/Bytes->Temporal", "Coercion/*");
        derive("Coercion/YYYYMMDDHHMMSSBytes->Temporal", "Coercion/Bytes->Temporal");
        derive("Coercion/ISO8601Bytes->Temporal", "Coercion/Bytes->Temporal");
        derive("Coercion/Number->Temporal", "Coercion/*");
        derive("Coercion/UNIXTime->Temporal", "Coercion/Number->Temporal");
        for (String unit : List.of("Seconds", "MilliSeconds", "MicroSeconds", "NanoSeconds")) {
            derive("Coercion/UNIX" + unit + "->DateTime", "Coercion/UNIXTime->Temporal");
            coercion("Coercion/UNIX" + unit + "->DateTime", Set.of("type/Integer", "type/Decimal"), "type/Instant");
        }
        derive("Coercion/Temporal->Temporal", "Coercion/*");
        derive("Coercion/DateTime->Date", "Coercion/Temporal->Temporal");
        derive("Coercion/String->Number", "Coercion/*");
        derive("Coercion/String->Float", "Coercion/String->Number");
        derive("Coercion/String->Integer", "Coercion/String->Number");
        derive("Coercion/Float->Integer", "Coercion/*");
        coercion("Coercion/ISO8601->Date", Set.of("type/Text"), "type/Date");
        coercion("Coercion/ISO8601->DateTime", Set.of("type/Text"), "type/DateTime");
        coercion("Coercion/ISO8601->Time", Set.of("type/Text"), "type/Time");
        coercion("Coercion/YYYYMMDDHHMMSSString->Temporal", Set.of("type/Text"), "type/DateTime");
        coercion("Coercion/DateTime->Date", Set.of("type/DateTime"), "type/Date");
        exactCoercion("Coercion/YYYYMMDDHHMMSSBytes->Temporal", "type/*", "type/DateTime");
        exactCoercion("Coercion/ISO8601Bytes->Temporal", "type/*", "type/DateTime");
        exactCoercion("Coercion/String->Float", "type/Text", "type/Float");
        exactCoercion("Coercion/String->Integer", "type/Text", "type/Integer");
        exactCoercion("Coercion/Float->Integer", "type/Float", "type/Integer");
    }

    private Types() {
    }

    private static void derive(String child, String... parents) {
        PARENTS.computeIfAbsent(child, k -> new LinkedHashSet<>()).addAll(List.of(parents));
    }

    private static void coercion(String strategy, Set<String> from, String to) {
        COERCION_FROM.put(strategy, from);
        COERCION_TO.put(strategy, to);
    }

    private static void exactCoercion(String strategy, String from, String to) {
        COERCION_FROM_EXACTLY.computeIfAbsent(strategy, k -> new HashSet<>()).add(from);
        COERCION_TO.put(strategy, to);
    }

    /** {@code type} is {@code ancestor} or derives from it. Unknown types are only themselves. */
    public static boolean isa(String type, String ancestor) {
        if (type == null || ancestor == null) {
            return false;
        }
        Deque<String> todo = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        todo.push(type);
        while (!todo.isEmpty()) {
            String t = todo.pop();
            if (t.equals(ancestor)) {
                return true;
            }
            if (seen.add(t)) {
                todo.addAll(PARENTS.getOrDefault(t, Set.of()));
            }
        }
        return false;
    }

    /** What {@code semantic_type} may hold: a semantic type or a relation type. */
    public static boolean isSemanticOrRelation(String type) {
        return isa(type, "Semantic/*") || isa(type, "Relation/*");
    }

    public static boolean isCoercionStrategy(String strategy) {
        return isa(strategy, "Coercion/*");
    }

    public static boolean isEntityType(String type) {
        return isa(type, "entity/*");
    }

    /**
     * The effective type a field of {@code baseType} gets under {@code strategy}, or null when the strategy does not
     * apply to that base type (or is an abstract strategy with no result type).
     */
    public static String coercedType(String strategy, String baseType) {
        String to = COERCION_TO.get(strategy);
        if (to == null || baseType == null) {
            return null;
        }
        if (COERCION_FROM_EXACTLY.getOrDefault(strategy, Set.of()).contains(baseType)) {
            return to;
        }
        for (String from : COERCION_FROM.getOrDefault(strategy, Set.of())) {
            if (isa(baseType, from)) {
                return to;
            }
        }
        return null;
    }
}
