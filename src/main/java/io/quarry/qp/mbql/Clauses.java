package io.quarry.qp.mbql;

import io.quarry.qp.QueryFailure;
import java.util.List;
import java.util.Map;

/** Small checks and helpers shared by the passes and the SQL compilers of legacy MBQL clauses. */
final class Clauses {
    private Clauses() {
    }

    static QueryFailure invalid(String message) {
        return new QueryFailure(QueryFailure.Type.INVALID_QUERY, message);
    }

    /** A value as a failure message quotes it, shortened to 80 characters. */
    static String describe(Object value) {
        String text = value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
        return text.length() > 80 ? text.substring(0, 80) + "…" : text;
    }

    static void need(List<?> args, int count, String op) {
        if (args.size() < count) {
            throw invalid("\"" + op + "\" needs " + count + " argument" + (count == 1 ? "" : "s") + ".");
        }
    }

    /** The clause's operator when it is a non-empty list headed by a string, else null. */
    static String operator(Object clause) {
        return clause instanceof List<?> l && !l.isEmpty() && l.get(0) instanceof String op ? op : null;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }
}
