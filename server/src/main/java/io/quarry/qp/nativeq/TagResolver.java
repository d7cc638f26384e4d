package io.quarry.qp.nativeq;

import java.math.BigDecimal;
import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns each template tag into SQL for {@link Substitution}: variables become bind placeholders, field filters a whole
 * predicate on the field's column ({@code 1 = 1} without a value), snippets their (recursively filled-in) text, card
 * references their SQL as a subquery. Only identifiers that come from Quarry's metadata (the field's table and column)
 * are written into SQL, quoted by the engine's dialect; every value is a bind parameter.
 */
public final class TagResolver implements Substitution.Resolver {
    /** The SQL of a field's column ({@code "PUBLIC"."ORDERS"."CATEGORY"}) and its base type. */
    public record Column(String sql, String baseType) {
    }

    /** What the resolver needs from outside: columns, snippets and cards. */
    public interface Sources {
        /** The column of a field, or null when no such field exists. */
        Column column(long fieldId);

        /** A snippet's SQL text by name, or null. */
        String snippet(String name);

        /** A card's query, compiled to SQL with its binds, or null when there is no such card. */
        Substitution.Bound card(long cardId);
    }

    private final Map<String, TemplateTag> tags;
    private final Map<String, Object> values;
    private final Sources sources;
    private final LocalDateTime now;
    private final DayOfWeek firstDayOfWeek;
    private final int depth;

    /**
     * @param tags   the query's template tags by name
     * @param values parameter values by tag name (a value may be a list); absent means "no value"
     */
    public TagResolver(Map<String, TemplateTag> tags, Map<String, Object> values, Sources sources, LocalDateTime now,
                       DayOfWeek firstDayOfWeek) {
        this(tags, values, sources, now, firstDayOfWeek, 0);
    }

    private TagResolver(Map<String, TemplateTag> tags, Map<String, Object> values, Sources sources, LocalDateTime now,
                        DayOfWeek firstDayOfWeek, int depth) {
        this.tags = tags;
        this.values = values;
        this.sources = sources;
        this.now = now;
        this.firstDayOfWeek = firstDayOfWeek;
        this.depth = depth;
    }

    /** Parses and fills in a whole native query. */
    public Substitution.Bound fill(String sql) {
        return Substitution.apply(Template.parse(sql), this);
    }

    @Override
    public Substitution.Bound resolve(String name, boolean optional) {
        TemplateTag tag = tags.get(name);
        if (tag == null) {
            tag = implicitTag(name);
            if (tag == null) {
                return null; // not one of the query's tags: Metabase reports it missing (or drops its clause)
            }
        }
        return switch (tag.type()) {
            case "snippet" -> snippet(tag);
            case "card" -> card(tag);
            case "dimension" -> fieldFilter(tag, optional);
            default -> variable(tag);
        };
    }

    /**
     * {@code {{snippet: x}}} and {@code {{#12}}} work even when the client sent no template-tags entry for them; any
     * other undeclared name is null (no value).
     */
    private static TemplateTag implicitTag(String name) {
        if (name.toLowerCase(Locale.ROOT).startsWith("snippet:")) {
            return new TemplateTag(name, "snippet", false, null, null, null, name.substring("snippet:".length()).trim(), null, Map.of());
        }
        if (name.startsWith("#")) {
            String digits = name.substring(1).split("-", 2)[0];
            try {
                return new TemplateTag(name, "card", false, null, null, null, null, Long.parseLong(digits), Map.of());
            } catch (NumberFormatException e) {
                throw new TemplateException("Invalid card reference {{" + name + "}}.");
            }
        }
        return null;
    }

    private Substitution.Bound snippet(TemplateTag tag) {
        String content = sources.snippet(tag.snippetName());
        if (content == null) {
            throw new TemplateException("Snippet \"" + tag.snippetName() + "\" not found.");
        }
        if (depth > 10) {
            throw new TemplateException("Snippets nest too deeply (is one including itself?).");
        }
        return Substitution.apply(Template.parse(content),
                new TagResolver(tags, values, sources, now, firstDayOfWeek, depth + 1));
    }

    private Substitution.Bound card(TemplateTag tag) {
        Substitution.Bound card = sources.card(tag.cardId());
        if (card == null) {
            throw new TemplateException("Card " + tag.cardId() + " not found.");
        }
        return new Substitution.Bound("(" + card.sql() + ")", card.params());
    }

    /** The value sent for a tag, else its default; null for none (an empty list counts as none). */
    private Object valueOf(TemplateTag tag) {
        Object value = values.get(tag.name());
        if (value == null || (value instanceof Collection<?> c && c.isEmpty()) || "".equals(value)) {
            value = tag.defaultValue();
        }
        if (value instanceof Collection<?> c && c.isEmpty()) {
            return null;
        }
        return value;
    }

    private Substitution.Bound variable(TemplateTag tag) {
        Object value = valueOf(tag);
        if (value == null) {
            if (tag.required()) {
                throw TemplateException.pickAValue(displayName(tag));
            }
            return null; // Metabase: the optional clause is dropped; outside one, the tag is a missing parameter
        }
        List<Object> params = new ArrayList<>();
        for (Object one : asList(value)) {
            params.add(switch (tag.type()) {
                case "number" -> number(one, tag);
                case "date" -> DateParams.parseDate(String.valueOf(one));
                case "boolean" -> bool(one, tag);
                default -> String.valueOf(one);
            });
        }
        return new Substitution.Bound(placeholders(params.size()), params);
    }

    private Substitution.Bound fieldFilter(TemplateTag tag, boolean optional) {
        if (tag.fieldId() == null) {
            throw new TemplateException("The field filter '" + displayName(tag) + "' has no field.");
        }
        Column column = sources.column(tag.fieldId());
        if (column == null) {
            throw new TemplateException("The field filter '" + displayName(tag) + "' refers to a field that does not exist.");
        }
        Object value = valueOf(tag);
        if (value == null) {
            if (tag.required()) {
                throw TemplateException.pickAValue(displayName(tag));
            }
            // Metabase: an unset field filter matches everything; inside an optional clause it drops the clause.
            return optional ? null : new Substitution.Bound("1 = 1", List.of());
        }
        String widget = tag.widgetType() == null ? "category" : tag.widgetType();
        List<Object> items = asList(value);
        if (widget.startsWith("date/") || isTemporal(column.baseType()) && !widget.startsWith("number/")) {
            return dateFilter(column, items, tag);
        }
        boolean numeric = widget.startsWith("number/") || isNumeric(column.baseType());
        List<Object> typed = new ArrayList<>();
        for (Object item : items) {
            typed.add(numeric ? number(item, tag) : String.valueOf(item));
        }
        String col = column.sql();
        return switch (widget) {
            case "string/!=", "number/!=" ->
                    new Substitution.Bound("(" + col + " NOT IN (" + placeholders(typed.size()) + ") OR " + col + " IS NULL)", typed);
            case "string/contains", "string/does-not-contain", "string/starts-with", "string/ends-with" -> like(col, widget, typed, tag);
            case "number/between" -> {
                if (typed.size() != 2) {
                    throw new TemplateException("'" + displayName(tag) + "' needs two values (from and to).");
                }
                yield new Substitution.Bound(col + " BETWEEN ? AND ?", typed);
            }
            case "number/>=" -> new Substitution.Bound(col + " >= ?", List.of(single(typed, tag)));
            case "number/<=" -> new Substitution.Bound(col + " <= ?", List.of(single(typed, tag)));
            default -> new Substitution.Bound(typed.size() == 1 ? col + " = ?" : col + " IN (" + placeholders(typed.size()) + ")", typed);
        };
    }

    private Substitution.Bound like(String col, String widget, List<Object> typed, TemplateTag tag) {
        boolean caseSensitive = Boolean.TRUE.equals(tag.options().get("case-sensitive"));
        boolean negate = widget.equals("string/does-not-contain");
        List<String> clauses = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        for (Object item : typed) {
            String text = caseSensitive ? item.toString() : item.toString().toLowerCase(Locale.ROOT);
            String pattern = switch (widget) {
                case "string/starts-with" -> text + "%";
                case "string/ends-with" -> "%" + text;
                default -> "%" + text + "%";
            };
            clauses.add((caseSensitive ? col : "LOWER(" + col + ")") + (negate ? " NOT LIKE ?" : " LIKE ?"));
            params.add(pattern);
        }
        String joined = String.join(negate ? " AND " : " OR ", clauses);
        return new Substitution.Bound(clauses.size() == 1 ? joined : "(" + joined + ")", params);
    }

    private Substitution.Bound dateFilter(Column column, List<Object> items, TemplateTag tag) {
        DateParams.Range range = DateParams.parse(String.valueOf(single(items, tag)), now, firstDayOfWeek);
        List<Object> params = new ArrayList<>();
        List<String> clauses = new ArrayList<>();
        if (range.start() != null) {
            clauses.add(column.sql() + " >= ?");
            params.add(range.start());
        }
        if (range.end() != null) {
            clauses.add(column.sql() + " < ?");
            params.add(range.end());
        }
        return new Substitution.Bound(String.join(" AND ", clauses), params);
    }

    private static boolean isTemporal(String baseType) {
        return baseType != null && (baseType.startsWith("type/Date") || baseType.startsWith("type/Time"));
    }

    private static boolean isNumeric(String baseType) {
        return baseType != null && (baseType.equals("type/Integer") || baseType.equals("type/BigInteger")
                || baseType.equals("type/Float") || baseType.equals("type/Decimal") || baseType.equals("type/Number"));
    }

    private static Object single(List<Object> items, TemplateTag tag) {
        if (items.size() != 1) {
            throw new TemplateException("'" + displayName(tag) + "' takes one value.");
        }
        return items.get(0);
    }

    private static BigDecimal number(Object value, TemplateTag tag) {
        if (value instanceof BigDecimal d) {
            return d;
        }
        if (value instanceof Number n) {
            return new BigDecimal(n.toString());
        }
        try {
            return new BigDecimal(String.valueOf(value).trim());
        } catch (NumberFormatException e) {
            throw new TemplateException("'" + displayName(tag) + "' needs a number, not \"" + value + "\".");
        }
    }

    private static Boolean bool(Object value, TemplateTag tag) {
        if (value instanceof Boolean b) {
            return b;
        }
        String text = String.valueOf(value).trim().toLowerCase(Locale.ROOT);
        if (text.equals("true") || text.equals("false")) {
            return Boolean.valueOf(text);
        }
        throw new TemplateException("'" + displayName(tag) + "' needs true or false, not \"" + value + "\".");
    }

    private static List<Object> asList(Object value) {
        if (value instanceof Collection<?> c) {
            return new ArrayList<>(c);
        }
        return List.of(value);
    }

    private static String placeholders(int count) {
        return String.join(", ", java.util.Collections.nCopies(count, "?"));
    }

    private static String displayName(TemplateTag tag) {
        return tag.name();
    }
}
