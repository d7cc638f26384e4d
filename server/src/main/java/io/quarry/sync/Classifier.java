package io.quarry.sync;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Infers what a field means from its name, base type and fingerprint, in the order Metabase's classifiers run:
 * <ol>
 *   <li>name patterns ({@code created_at} timestamp → type/CreationTimestamp, {@code latitude} float → type/Latitude,
 *       {@code email}... first match wins);</li>
 *   <li>category: few distinct values (≤ {@value #CATEGORY_THRESHOLD}) and not mostly null → type/Category;</li>
 *   <li>long text (average length over {@value #NO_PREVIEW_AVERAGE_LENGTH}) is hidden from table previews;</li>
 *   <li>text fingerprint: ≥ 95 % JSON / URL / email values, or ≥ 70 % US states → type/SerializedJSON, type/URL (or
 *       type/ImageURL when the name says image), type/Email, type/State.</li>
 * </ol>
 * A semantic type that is already set (by keys, or by a person) is never replaced. Then {@code has_field_values}:
 * {@code list} when the field has at most {@value #LIST_THRESHOLD} distinct values, each short enough to cache,
 * {@code search} for other text, {@code none} otherwise. Quarry additions to Metabase's name list (Metabase leaves
 * these unset): type/Price, type/ImageURL, {@code zip} → type/ZipCode, {@code body} text → type/Description.
 */
public final class Classifier {
    /** Fields with at most this many distinct values become categories (Metabase's category-cardinality-threshold). */
    public static final int CATEGORY_THRESHOLD = 30;
    /** Fields with at most this many distinct values get cached values (Metabase's auto-list threshold). */
    public static final int LIST_THRESHOLD = 1000;
    /** The longest single value that can be cached. */
    public static final int MAX_VALUE_LENGTH = 100;
    public static final int NO_PREVIEW_AVERAGE_LENGTH = 50;
    static final double PERCENT_VALID = 0.95;
    static final double PERCENT_VALID_LOWER = 0.7;

    private Classifier() {
    }

    private static final Predicate<String> ANY = t -> true;
    private static final Predicate<String> FLOAT = BaseTypes::isFloat;
    private static final Predicate<String> INT = BaseTypes::isInteger;
    private static final Predicate<String> NUMBER = BaseTypes::isNumber;
    private static final Predicate<String> TEXT = BaseTypes::isText;
    private static final Predicate<String> INT_OR_TEXT = t -> BaseTypes.isInteger(t) || BaseTypes.isText(t);
    private static final Predicate<String> DATE = BaseTypes::isDate;
    private static final Predicate<String> TIME = BaseTypes::isTime;
    private static final Predicate<String> TIMESTAMP = BaseTypes::isDateTime;

    private record NameRule(Pattern pattern, Predicate<String> baseTypes, String semanticType) {
    }

    private static NameRule rule(String regex, Predicate<String> baseTypes, String semanticType) {
        return new NameRule(Pattern.compile(regex), baseTypes, semanticType);
    }

    /** Tried top to bottom against the lower-cased name; the first rule matching name and base type wins. */
    private static final List<NameRule> NAME_RULES = List.of(
            rule("^id$", ANY, "type/PK"),
            rule("^lon$", FLOAT, "type/Longitude"),
            rule("^.*_lon$", FLOAT, "type/Longitude"),
            rule("^.*_lng$", FLOAT, "type/Longitude"),
            rule("^.*_long$", FLOAT, "type/Longitude"),
            rule("^.*_longitude$", FLOAT, "type/Longitude"),
            rule("^lng$", FLOAT, "type/Longitude"),
            rule("^long$", FLOAT, "type/Longitude"),
            rule("^longitude$", FLOAT, "type/Longitude"),
            rule("^lat$", FLOAT, "type/Latitude"),
            rule("^.*_lat$", FLOAT, "type/Latitude"),
            rule("^latitude$", FLOAT, "type/Latitude"),
            rule("^.*_latitude$", FLOAT, "type/Latitude"),
            rule("^.*_type$", TEXT, "type/Category"),
            rule("(?:image|avatar|photo|picture|thumbnail|logo|icon)s?_?url$", TEXT, "type/ImageURL"),
            rule("^.*_url$", TEXT, "type/URL"),
            rule("^city$", TEXT, "type/City"),
            rule("^country", TEXT, "type/Country"),
            rule("_country$", TEXT, "type/Country"),
            rule("^currency$", TEXT, "type/Category"),
            rule("^first_?name$", TEXT, "type/Name"),
            rule("^full_?name$", TEXT, "type/Name"),
            rule("^gender$", TEXT, "type/Category"),
            rule("^last_?name$", TEXT, "type/Name"),
            rule("^name$", TEXT, "type/Name"),
            rule("^postal_?code$", INT_OR_TEXT, "type/ZipCode"),
            rule("^role$", TEXT, "type/Category"),
            rule("^sex$", TEXT, "type/Category"),
            rule("^status$", TEXT, "type/Category"),
            rule("^type$", TEXT, "type/Category"),
            rule("^url$", TEXT, "type/URL"),
            rule("^zip_?code$", INT_OR_TEXT, "type/ZipCode"),
            rule("^zip$", INT_OR_TEXT, "type/ZipCode"),
            rule("discount", NUMBER, "type/Discount"),
            rule("income", NUMBER, "type/Income"),
            rule("quantity", INT, "type/Quantity"),
            rule("count$", INT, "type/Quantity"),
            rule("number", INT, "type/Quantity"),
            rule("^num_", INT, "type/Quantity"),
            rule("^(?:unit_)?price$|_price$", NUMBER, "type/Price"),
            rule("join", DATE, "type/JoinDate"),
            rule("join", TIME, "type/JoinTime"),
            rule("join", TIMESTAMP, "type/JoinTimestamp"),
            rule("create", DATE, "type/CreationDate"),
            rule("create", TIME, "type/CreationTime"),
            rule("create", TIMESTAMP, "type/CreationTimestamp"),
            rule("start", DATE, "type/CreationDate"),
            rule("start", TIME, "type/CreationTime"),
            rule("start", TIMESTAMP, "type/CreationTimestamp"),
            rule("cancel", DATE, "type/CancelationDate"),
            rule("cancel", TIME, "type/CancelationTime"),
            rule("cancel", TIMESTAMP, "type/CancelationTimestamp"),
            rule("delet(?:e|i)", DATE, "type/DeletionDate"),
            rule("delet(?:e|i)", TIME, "type/DeletionTime"),
            rule("delet(?:e|i)", TIMESTAMP, "type/DeletionTimestamp"),
            rule("update", DATE, "type/UpdatedDate"),
            rule("update", TIME, "type/UpdatedTime"),
            rule("update", TIMESTAMP, "type/UpdatedTimestamp"),
            rule("source", INT_OR_TEXT, "type/Source"),
            rule("channel", INT_OR_TEXT, "type/Source"),
            rule("share", FLOAT, "type/Share"),
            rule("percent", FLOAT, "type/Share"),
            rule("rate$", FLOAT, "type/Share"),
            rule("margin", NUMBER, "type/GrossMargin"),
            rule("cost", NUMBER, "type/Cost"),
            rule("duration", NUMBER, "type/Duration"),
            rule("author", INT_OR_TEXT, "type/Author"),
            rule("creator", INT_OR_TEXT, "type/Author"),
            rule("created_?by", INT_OR_TEXT, "type/Author"),
            rule("owner", INT_OR_TEXT, "type/Owner"),
            rule("company", INT_OR_TEXT, "type/Company"),
            rule("vendor", INT_OR_TEXT, "type/Company"),
            rule("subscription", INT_OR_TEXT, "type/Subscription"),
            rule("score", NUMBER, "type/Score"),
            rule("rating", NUMBER, "type/Score"),
            rule("stars", NUMBER, "type/Score"),
            rule("description", TEXT, "type/Description"),
            rule("^body$", TEXT, "type/Description"),
            rule("title", TEXT, "type/Title"),
            rule("comment", TEXT, "type/Comment"),
            rule("birthda(?:te|y)", DATE, "type/Birthdate"),
            rule("birthda(?:te|y)", TIMESTAMP, "type/Birthdate"),
            rule("(?:te|y)_?of_?birth", DATE, "type/Birthdate"),
            rule("(?:te|y)_?of_?birth", TIMESTAMP, "type/Birthdate"));

    /** The semantic type a field's name and base type suggest, or null. Keys are never renamed. */
    public static String byName(String name, String baseType) {
        if (name == null || name.isBlank() || baseType == null) {
            return null;
        }
        String lower = name.toLowerCase(Locale.ROOT);
        for (NameRule rule : NAME_RULES) {
            if (rule.baseTypes().test(baseType) && rule.pattern().matcher(lower).find()) {
                return rule.semanticType();
            }
        }
        return null;
    }

    /** What classification decided for one field. */
    public record Result(String semanticType, String hasFieldValues, boolean previewDisplay) {
    }

    /**
     * Classifies a field. {@code currentSemanticType} (keys, a person's choice) is kept when set;
     * {@code currentHasFieldValues} too.
     */
    public static Result classify(String name, String baseType, String currentSemanticType, String currentHasFieldValues,
                                  boolean currentPreviewDisplay, Map<String, Object> fingerprint) {
        String semantic = currentSemanticType;
        if (semantic == null) {
            semantic = byName(name, baseType);
        }
        boolean keyOrPersons = currentSemanticType != null;
        if (semantic == null && isCategory(baseType, null, fingerprint)) {
            semantic = "type/Category";
        }
        boolean preview = currentPreviewDisplay;
        Map<String, Object> text = Fingerprints.typed(fingerprint, "type/Text");
        if (BaseTypes.isText(baseType) && text != null) {
            Number average = (Number) text.get("average-length");
            if ((semantic == null || "type/SerializedJSON".equals(semantic)) && average != null
                    && average.doubleValue() > NO_PREVIEW_AVERAGE_LENGTH) {
                preview = false;
            }
            if (!keyOrPersons) {
                String byText = byTextFingerprint(text, name);
                if (byText != null) {
                    semantic = byText;
                }
            }
        }
        String hasFieldValues = currentHasFieldValues != null ? currentHasFieldValues
                : hasFieldValues(baseType, semantic, preview, fingerprint);
        return new Result(semantic, hasFieldValues, preview);
    }

    /** type/Category: not a key, float, temporal or collection; at most 30 distinct values; not all null. */
    static boolean isCategory(String baseType, String semanticType, Map<String, Object> fingerprint) {
        if (cannotBeCategoryOrList(baseType, semanticType)) {
            return false;
        }
        Number distinct = Fingerprints.global(fingerprint, "distinct-count");
        Number nils = Fingerprints.global(fingerprint, "nil%");
        return distinct != null && distinct.intValue() <= CATEGORY_THRESHOLD
                && ((nils != null && nils.doubleValue() < 1) || BaseTypes.isBoolean(baseType));
    }

    private static boolean cannotBeCategoryOrList(String baseType, String semanticType) {
        return BaseTypes.isTemporal(baseType) || BaseTypes.isCollection(baseType) || BaseTypes.isFloat(baseType)
                || "type/PK".equals(semanticType) || "type/FK".equals(semanticType);
    }

    private static String byTextFingerprint(Map<String, Object> text, String name) {
        if (atLeast(text, "percent-json", PERCENT_VALID)) {
            return "type/SerializedJSON";
        }
        if (atLeast(text, "percent-url", PERCENT_VALID)) {
            String lower = name == null ? "" : name.toLowerCase(Locale.ROOT);
            return lower.matches(".*(image|avatar|photo|picture|thumbnail|logo|icon).*") ? "type/ImageURL" : "type/URL";
        }
        if (atLeast(text, "percent-email", PERCENT_VALID)) {
            return "type/Email";
        }
        if (atLeast(text, "percent-state", PERCENT_VALID_LOWER)) {
            return "type/State";
        }
        return null;
    }

    private static boolean atLeast(Map<String, Object> text, String key, double threshold) {
        return text.get(key) instanceof Number n && n.doubleValue() >= threshold;
    }

    /**
     * {@code list} for fields whose values can be cached (few distinct, short values; not keys, floats or temporal),
     * {@code search} for other text, {@code none} otherwise.
     */
    static String hasFieldValues(String baseType, String semanticType, boolean previewDisplay, Map<String, Object> fingerprint) {
        Number distinct = Fingerprints.global(fingerprint, "distinct-count");
        boolean shortValues = true;
        Map<String, Object> text = Fingerprints.typed(fingerprint, "type/Text");
        if (text != null && text.get("max-length") instanceof Number max) {
            shortValues = max.intValue() <= MAX_VALUE_LENGTH;
        }
        if (!cannotBeCategoryOrList(baseType, semanticType) && previewDisplay && distinct != null
                && distinct.intValue() <= LIST_THRESHOLD && shortValues && !"type/*".equals(baseType)) {
            return "list";
        }
        return BaseTypes.isText(baseType) ? "search" : "none";
    }

    private static final List<Map.Entry<Pattern, String>> ENTITY_RULES = List.of(
            entity("order", "entity/TransactionTable"),
            entity("transaction", "entity/TransactionTable"),
            entity("sale", "entity/TransactionTable"),
            entity("product", "entity/ProductTable"),
            entity("user", "entity/UserTable"),
            entity("account", "entity/UserTable"),
            entity("people", "entity/UserTable"),
            entity("person", "entity/UserTable"),
            entity("employee", "entity/UserTable"),
            entity("event", "entity/EventTable"),
            entity("checkin", "entity/EventTable"),
            entity("log", "entity/EventTable"),
            entity("subscription", "entity/SubscriptionTable"),
            entity("company", "entity/CompanyTable"),
            entity("companies", "entity/CompanyTable"),
            entity("vendor", "entity/CompanyTable"));

    private static Map.Entry<Pattern, String> entity(String word, String type) {
        return Map.entry(Pattern.compile("(?:^" + word + ")|(?:" + word + "s?$)"), type);
    }

    /** A table's entity type from its name ({@code ORDERS} → entity/TransactionTable), else entity/GenericTable. */
    public static String entityType(String tableName) {
        String lower = tableName == null ? "" : tableName.toLowerCase(Locale.ROOT);
        for (Map.Entry<Pattern, String> rule : ENTITY_RULES) {
            if (rule.getKey().matcher(lower).find()) {
                return rule.getValue();
            }
        }
        return "entity/GenericTable";
    }
}
