package io.quarry.action;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The part of jq that HTTP actions' {@code response_handle} and {@code error_handle} use: a path
 * ({@code .}, {@code .body.id}, {@code .body.items[0].title}, {@code .headers["x-id"]}), optionally compared with a
 * literal ({@code .status >= 400}, {@code .body.ok == false}). Evaluated as jq does: a missing key is null; only
 * {@code false} and {@code null} are falsey. Anything else is refused when the action is saved.
 */
final class JsonQuery {
    static final String INVALID = "must be a valid json-query, something like '.item.title'";

    private sealed interface Step permits Key, Index {
    }

    private record Key(String name) implements Step {
    }

    private record Index(int index) implements Step {
    }

    private final List<Step> path;
    private final String operator;
    private final Object literal;

    private JsonQuery(List<Step> path, String operator, Object literal) {
        this.path = path;
        this.operator = operator;
        this.literal = literal;
    }

    /** Parses a query; {@link IllegalArgumentException} ({@link #INVALID}) when it is not one this subset reads. */
    static JsonQuery parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException(INVALID);
        }
        Parser p = new Parser(text.trim());
        List<Step> path = p.path();
        p.spaces();
        String operator = null;
        Object literal = null;
        if (!p.done()) {
            operator = p.operator();
            p.spaces();
            literal = p.literal();
            p.spaces();
        }
        if (!p.done()) {
            throw new IllegalArgumentException(INVALID);
        }
        return new JsonQuery(path, operator, literal);
    }

    static boolean isValid(String text) {
        try {
            parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** jq's truthiness: everything but false and null. */
    static boolean truthy(Object value) {
        return value != null && !Boolean.FALSE.equals(value);
    }

    Object evaluate(Object root) {
        Object value = root;
        for (Step step : path) {
            if (step instanceof Key key) {
                value = value instanceof Map<?, ?> map ? map.get(key.name()) : null;
            } else if (step instanceof Index index) {
                int at = value instanceof List<?> list ? (index.index() >= 0 ? index.index() : list.size() + index.index()) : -1;
                value = value instanceof List<?> list && at >= 0 && at < list.size() ? list.get(at) : null;
            }
        }
        if (operator == null) {
            return value;
        }
        int compared = compare(value, literal);
        return switch (operator) {
            case "==" -> equal(value, literal);
            case "!=" -> !equal(value, literal);
            case ">" -> compared > 0;
            case ">=" -> compared >= 0;
            case "<" -> compared < 0;
            case "<=" -> compared <= 0;
            default -> throw new IllegalStateException(operator);
        };
    }

    private static boolean equal(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0;
        }
        return Objects.equals(a, b);
    }

    /** jq's order: null < false < true < numbers < strings < arrays < objects. */
    private static int compare(Object a, Object b) {
        int ra = rank(a);
        int rb = rank(b);
        if (ra != rb) {
            return Integer.compare(ra, rb);
        }
        if (a instanceof Number x && b instanceof Number y) {
            return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString()));
        }
        if (a instanceof String x && b instanceof String y) {
            return x.compareTo(y);
        }
        if (a instanceof Boolean x && b instanceof Boolean y) {
            return Boolean.compare(x, y);
        }
        return 0;
    }

    private static int rank(Object value) {
        if (value == null) {
            return 0;
        }
        if (Boolean.FALSE.equals(value)) {
            return 1;
        }
        if (Boolean.TRUE.equals(value)) {
            return 2;
        }
        if (value instanceof Number) {
            return 3;
        }
        if (value instanceof String) {
            return 4;
        }
        return value instanceof List<?> ? 5 : 6;
    }

    private static final class Parser {
        private final String text;
        private int pos;

        Parser(String text) {
            this.text = text;
        }

        boolean done() {
            return pos >= text.length();
        }

        void spaces() {
            while (!done() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        List<Step> path() {
            if (done() || text.charAt(pos) != '.') {
                throw new IllegalArgumentException(INVALID);
            }
            List<Step> steps = new ArrayList<>();
            pos++;
            if (!done() && isIdentStart(text.charAt(pos))) {
                steps.add(new Key(ident()));
            } else if (!done() && text.charAt(pos) == '"') {
                steps.add(new Key(string()));
            }
            while (!done()) {
                char c = text.charAt(pos);
                if (c == '.' && pos + 1 < text.length() && text.charAt(pos + 1) == '[') {
                    pos++;
                } else if (c == '.') {
                    pos++;
                    if (!done() && text.charAt(pos) == '"') {
                        steps.add(new Key(string()));
                    } else if (!done() && isIdentStart(text.charAt(pos))) {
                        steps.add(new Key(ident()));
                    } else {
                        throw new IllegalArgumentException(INVALID);
                    }
                } else if (c == '[') {
                    pos++;
                    spaces();
                    if (!done() && text.charAt(pos) == '"') {
                        steps.add(new Key(string()));
                    } else {
                        steps.add(new Index(integer()));
                    }
                    spaces();
                    expect(']');
                } else {
                    break;
                }
            }
            return steps;
        }

        String operator() {
            for (String op : List.of("==", "!=", ">=", "<=", ">", "<")) {
                if (text.startsWith(op, pos)) {
                    pos += op.length();
                    return op;
                }
            }
            throw new IllegalArgumentException(INVALID);
        }

        Object literal() {
            if (done()) {
                throw new IllegalArgumentException(INVALID);
            }
            char c = text.charAt(pos);
            if (c == '"') {
                return string();
            }
            for (String word : List.of("true", "false", "null")) {
                if (text.startsWith(word, pos)) {
                    pos += word.length();
                    return word.equals("null") ? null : Boolean.valueOf(word);
                }
            }
            int start = pos;
            while (!done() && "+-.0123456789eE".indexOf(text.charAt(pos)) >= 0) {
                pos++;
            }
            try {
                return new BigDecimal(text.substring(start, pos));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(INVALID);
            }
        }

        private String ident() {
            int start = pos;
            while (!done() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
                pos++;
            }
            return text.substring(start, pos);
        }

        private int integer() {
            int start = pos;
            if (!done() && text.charAt(pos) == '-') {
                pos++;
            }
            while (!done() && Character.isDigit(text.charAt(pos))) {
                pos++;
            }
            try {
                return Integer.parseInt(text.substring(start, pos));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(INVALID);
            }
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (!done() && text.charAt(pos) != '"') {
                char c = text.charAt(pos++);
                if (c == '\\' && !done()) {
                    c = text.charAt(pos++);
                }
                out.append(c);
            }
            expect('"');
            return out.toString();
        }

        private void expect(char c) {
            if (done() || text.charAt(pos) != c) {
                throw new IllegalArgumentException(INVALID);
            }
            pos++;
        }

        private static boolean isIdentStart(char c) {
            return Character.isLetter(c) || c == '_';
        }
    }
}
