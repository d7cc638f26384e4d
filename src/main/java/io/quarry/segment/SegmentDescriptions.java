package io.quarry.segment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.ibatis.session.SqlSession;

/** A segment definition in words, as Metabase's {@code definition_description}: "Filtered by Category is Gizmo". */
final class SegmentDescriptions {
    private SegmentDescriptions() {
    }

    static String describe(SqlSession session, Map<String, Object> definition) {
        if (definition == null || !(definition.get("filter") instanceof List<?> filter) || filter.isEmpty()) {
            return null;
        }
        String text = clause(session, filter);
        return text == null ? null : "Filtered by " + text;
    }

    private static String clause(SqlSession session, List<?> c) {
        if (c.isEmpty() || !(c.get(0) instanceof String op)) {
            return null;
        }
        List<?> args = c.subList(1, c.size());
        switch (op) {
            case "and", "or" -> {
                List<String> parts = new ArrayList<>();
                for (Object arg : args) {
                    String part = arg instanceof List<?> l ? clause(session, l) : null;
                    if (part != null) {
                        parts.add(part);
                    }
                }
                return parts.isEmpty() ? null : String.join(" " + op + " ", parts);
            }
            case "not" -> {
                String inner = !args.isEmpty() && args.get(0) instanceof List<?> l ? clause(session, l) : null;
                return inner == null ? null : "not " + inner;
            }
            default -> {
                if (args.isEmpty()) {
                    return null;
                }
                String field = SegmentService.fieldName(session, args.get(0));
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
}
