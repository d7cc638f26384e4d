package io.quarry.qp.nativeq;

import java.util.ArrayList;
import java.util.List;

/**
 * A native query's text split into literal SQL, {@code {{tag}}} references and {@code [[optional clauses]]} (which may
 * nest). Parsing never looks inside values: values are bound later, never spliced into SQL.
 */
public final class Template {
    /** One piece of a template. */
    public sealed interface Part permits Text, Tag, Optional {
    }

    /** Literal SQL. */
    public record Text(String sql) implements Part {
    }

    /** A {@code {{name}}} reference; {@code name} is trimmed ({@code "snippet: x"}, {@code "#12-orders"} included). */
    public record Tag(String name) implements Part {
    }

    /** A {@code [[ ... ]]} clause: kept only when every tag inside it has a value. */
    public record Optional(List<Part> parts) implements Part {
    }

    private Template() {
    }

    /** Splits {@code sql}; an unbalanced {@code {{}} or {@code [[} is a {@link TemplateException}. */
    public static List<Part> parse(String sql) {
        Parser parser = new Parser(sql);
        List<Part> parts = parser.parts(false);
        return parts;
    }

    /** The names of every tag in the template, optional clauses included, in order of appearance. */
    public static List<String> tagNames(List<Part> parts) {
        List<String> names = new ArrayList<>();
        collect(parts, names);
        return names;
    }

    private static void collect(List<Part> parts, List<String> names) {
        for (Part part : parts) {
            if (part instanceof Tag tag) {
                names.add(tag.name());
            } else if (part instanceof Optional optional) {
                collect(optional.parts(), names);
            }
        }
    }

    private static final class Parser {
        private final String sql;
        private int pos;

        Parser(String sql) {
            this.sql = sql;
        }

        List<Part> parts(boolean insideOptional) {
            List<Part> parts = new ArrayList<>();
            StringBuilder text = new StringBuilder();
            while (pos < sql.length()) {
                if (sql.startsWith("{{", pos)) {
                    int end = sql.indexOf("}}", pos + 2);
                    if (end < 0) {
                        throw new TemplateException("Invalid query: found '{{' with no matching '}}'");
                    }
                    String name = sql.substring(pos + 2, end).trim();
                    if (name.isEmpty() || name.contains("{{")) {
                        throw new TemplateException("Invalid query: a '{{ }}' tag needs a name");
                    }
                    flush(text, parts);
                    parts.add(new Tag(name));
                    pos = end + 2;
                } else if (sql.startsWith("[[", pos)) {
                    pos += 2;
                    flush(text, parts);
                    int start = pos;
                    List<Part> inner = parts(true);
                    if (!sql.startsWith("]]", pos)) {
                        throw new TemplateException("Invalid query: found '[[' with no matching ']]' (at position " + (start - 2) + ")");
                    }
                    pos += 2;
                    parts.add(new Optional(inner));
                } else if (sql.startsWith("]]", pos)) {
                    if (insideOptional) {
                        flush(text, parts);
                        return parts;
                    }
                    throw new TemplateException("Invalid query: found ']]' with no matching '[['");
                } else {
                    text.append(sql.charAt(pos++));
                }
            }
            flush(text, parts);
            return parts;
        }

        private static void flush(StringBuilder text, List<Part> parts) {
            if (text.length() > 0) {
                parts.add(new Text(text.toString()));
                text.setLength(0);
            }
        }
    }
}
