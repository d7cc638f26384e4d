package io.quarry.segment;

import io.quarry.warehouse.Field;
import io.quarry.warehouse.WarehouseLookups;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.ibatis.session.SqlSession;

/** A segment definition in words, as Metabase's {@code definition_description}: "Filtered by Category is Gizmo". */
final class SegmentDescriptions {
    private SegmentDescriptions() {
    }

    /** The fields these definitions refer to by id, read in one query, for {@link #describe}. */
    static Map<Long, Field> fieldsOf(SqlSession session, Collection<Map<String, Object>> definitions) {
        Set<Long> ids = new HashSet<>();
        definitions.forEach(d -> collectFieldIds(d == null ? null : d.get("filter"), ids));
        Map<Long, Field> fields = new HashMap<>();
        if (!ids.isEmpty()) {
            WarehouseLookups.fieldsByIds(session, ids).forEach(f -> fields.put(f.id, f));
        }
        return fields;
    }

    private static void collectFieldIds(Object node, Set<Long> ids) {
        if (node instanceof List<?> l) {
            if (l.size() >= 2 && "field".equals(l.get(0)) && l.get(1) instanceof Number id) {
                ids.add(id.longValue());
            }
            l.forEach(child -> collectFieldIds(child, ids));
        }
    }

    static String describe(Map<Long, Field> fields, Map<String, Object> definition) {
        if (definition == null || !(definition.get("filter") instanceof List<?> filter) || filter.isEmpty()) {
            return null;
        }
        String text = clause(fields, filter);
        return text == null ? null : "Filtered by " + text;
    }

    private static String clause(Map<Long, Field> fields, List<?> c) {
        if (c.isEmpty() || !(c.get(0) instanceof String op)) {
            return null;
        }
        List<?> args = c.subList(1, c.size());
        switch (op) {
            case "and", "or" -> {
                List<String> parts = new ArrayList<>();
                for (Object arg : args) {
                    String part = arg instanceof List<?> l ? clause(fields, l) : null;
                    if (part != null) {
                        parts.add(part);
                    }
                }
                return parts.isEmpty() ? null : String.join(" " + op + " ", parts);
            }
            case "not" -> {
                String inner = !args.isEmpty() && args.get(0) instanceof List<?> l ? clause(fields, l) : null;
                return inner == null ? null : "not " + inner;
            }
            default -> {
                if (args.isEmpty()) {
                    return null;
                }
                String field = fieldName(fields, args.get(0));
                List<?> values = args.subList(1, args.size());
                return switch (op) {
                    case "=" -> field + " is " + values(values);
                    case "!=" -> field + " is not " + values(values);
                    case ">" -> field + " is greater than " + values(values);
                    case "<" -> field + " is less than " + values(values);
                    case ">=" -> field + " is greater than or equal to " + values(values);
                    case "<=" -> field + " is less than or equal to " + values(values);
                    case "between" -> values.size() >= 2 ? field + " is between " + values.get(0) + " and " + values.get(1) : field;
                    case "is-null" -> field + " is empty";
                    case "not-null" -> field + " is not empty";
                    case "is-empty" -> field + " is empty";
                    case "not-empty" -> field + " is not empty";
                    case "contains" -> field + " contains " + values(values);
                    case "does-not-contain" -> field + " does not contain " + values(values);
                    case "starts-with" -> field + " starts with " + values(values);
                    case "ends-with" -> field + " ends with " + values(values);
                    default -> field;
                };
            }
        }
    }

    private static String values(List<?> values) {
        List<String> parts = new ArrayList<>();
        for (Object v : values) {
            if (!(v instanceof Map<?, ?>)) {
                parts.add(String.valueOf(v));
            }
        }
        if (parts.size() <= 1) {
            return parts.isEmpty() ? "" : parts.get(0);
        }
        return parts.size() + " selections";
    }

    /** Field display names for descriptions. */
    private static String fieldName(Map<Long, Field> fields, Object ref) {
        if (ref instanceof List<?> l && l.size() >= 2 && "field".equals(l.get(0)) && l.get(1) instanceof Number id) {
            Field f = fields.get(id.longValue());
            if (f != null) {
                return f.displayName != null ? f.displayName : f.name;
            }
        }
        if (ref instanceof List<?> l && l.size() >= 2 && "field".equals(l.get(0)) && l.get(1) instanceof String name) {
            return name;
        }
        return "a column";
    }
}
