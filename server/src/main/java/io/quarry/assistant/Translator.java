package io.quarry.assistant;

import io.quarry.assistant.SchemaSnapshot.FieldInfo;
import io.quarry.assistant.SchemaSnapshot.TableInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The offline assistant: a question in plain English becomes a structured (MBQL) query over one database's synced
 * metadata, with no language model. It understands counts, sums, averages, minimums and maximums and distinct counts
 * of a field; "by" one or two fields (time grouping by day, week, month, quarter or year); filters on a category value,
 * a number comparison, a year or a relative period; "top N" and sorting. Tables and fields are matched by name,
 * display name, singular or plural and a few synonyms, and by a word of a table's name or description that names
 * nothing else.
 *
 * <p>Every word of the question must be understood: a word it does not know, or a name that could be two fields, is a
 * {@link NotUnderstood} naming it, never a guess.
 */
final class Translator {
    /** The question could not be translated: what was not understood, and a question that can be answered. */
    static final class NotUnderstood extends RuntimeException {
        final String example;

        NotUnderstood(String message, String example) {
            super(message);
            this.example = example;
        }
    }

    /** A translated question: its MBQL query, a display and a description for the card. */
    record Translation(Map<String, Object> query, String display, String description) {
    }

    private static final Pattern WORD = Pattern.compile("[A-Za-z][A-Za-z0-9]*|\\d+(?:\\.\\d+)?");
    private static final Set<String> STOP = Set.of("the", "a", "an", "what", "whats", "is", "are", "was", "were", "show", "me",
            "list", "give", "get", "find", "tell", "do", "does", "did", "we", "i", "you", "have", "has", "had", "there", "all",
            "please", "for", "with", "where", "whose", "that", "which", "who", "from", "in", "on", "to", "made", "placed",
            "overall", "value", "record", "row", "entry", "s", "our", "my", "it", "its", "whole", "entire", "during", "at",
            "created", "written", "been", "being", "exist", "existing", "rows", "records", "entries", "number");
    private static final Map<String, String> UNITS = Map.ofEntries(Map.entry("day", "day"), Map.entry("daily", "day"),
            Map.entry("week", "week"), Map.entry("weekly", "week"), Map.entry("month", "month"), Map.entry("monthly", "month"),
            Map.entry("quarter", "quarter"), Map.entry("quarterly", "quarter"), Map.entry("year", "year"),
            Map.entry("yearly", "year"), Map.entry("annual", "year"), Map.entry("annually", "year"));
    /** Words that mean another word of the metadata (both singular). */
    private static final Map<String, List<String>> SYNONYMS = Map.ofEntries(
            Map.entry("customer", List.of("person", "people", "user")), Map.entry("user", List.of("person", "people")),
            Map.entry("person", List.of("people")), Map.entry("people", List.of("person")),
            Map.entry("sale", List.of("total")), Map.entry("revenue", List.of("total")),
            Map.entry("cost", List.of("price")), Map.entry("purchase", List.of("order")),
            Map.entry("item", List.of("product")), Map.entry("star", List.of("rating")),
            Map.entry("score", List.of("rating")), Map.entry("date", List.of("created at")));

    private final SchemaSnapshot schema;
    /** Phrase (normalised words joined by spaces) → what it names. */
    private final Map<String, List<Term>> vocabulary = new HashMap<>();
    private int longestPhrase = 1;

    Translator(SchemaSnapshot schema) {
        this.schema = schema;
        keywords();
        for (TableInfo t : schema.tables()) {
            for (String phrase : phrases(t.name(), t.displayName())) {
                add(phrase, new Term(Kind.TABLE, t, null, null, null, 0));
            }
            for (FieldInfo f : t.fields()) {
                if (f.isKey()) {
                    continue;
                }
                for (String phrase : phrases(f.name(), f.displayName())) {
                    add(phrase, new Term(Kind.FIELD, t, f, null, null, 0));
                }
                for (String value : f.values()) {
                    add(phraseOf(value), new Term(Kind.VALUE, t, f, value, null, 0));
                }
            }
        }
        wordsOfTables();
        // synonyms name what their target names, unless the metadata has the word itself
        for (Map.Entry<String, List<String>> e : SYNONYMS.entrySet()) {
            if (vocabulary.containsKey(e.getKey())) {
                continue;
            }
            for (String target : e.getValue()) {
                List<Term> named = vocabulary.getOrDefault(target, List.of()).stream()
                        .filter(term -> term.kind == Kind.TABLE || term.kind == Kind.FIELD).toList();
                if (!named.isEmpty()) {
                    named.forEach(term -> add(e.getKey(), term));
                    break;
                }
            }
        }
    }

    /**
     * A table (or a model) is also known by each word of its name ("orders" for a model named "Orders model 2024") and,
     * failing that, of its description (not a synonym's word), when that word means nothing else and names no other
     * table: a word two tables share stays unknown rather than a guess.
     */
    private void wordsOfTables() {
        Map<String, Set<TableInfo>> byName = new HashMap<>();
        Map<String, Set<TableInfo>> byDescription = new HashMap<>();
        for (TableInfo t : schema.tables()) {
            for (String phrase : phrases(t.name(), t.displayName())) {
                for (String word : phrase.split(" ")) {
                    byName.computeIfAbsent(word, k -> new LinkedHashSet<>()).add(t);
                }
            }
            if (t.description() != null) {
                for (String word : phraseOf(t.description()).split(" ")) {
                    byDescription.computeIfAbsent(word, k -> new LinkedHashSet<>()).add(t);
                }
            }
        }
        Map<String, TableInfo> aliases = new LinkedHashMap<>();
        byName.forEach((word, tables) -> {
            if (tables.size() == 1 && aliasable(word)) {
                aliases.put(word, tables.iterator().next());
            }
        });
        byDescription.forEach((word, tables) -> {
            if (tables.size() == 1 && word.length() > 3 && aliasable(word) && !byName.containsKey(word)
                    && !SYNONYMS.containsKey(word)) {
                aliases.put(word, tables.iterator().next());
            }
        });
        aliases.forEach((word, table) -> add(word, new Term(Kind.TABLE, table, null, null, null, 0)));
    }

    private boolean aliasable(String word) {
        return !word.isEmpty() && !Character.isDigit(word.charAt(0)) && !STOP.contains(word) && !vocabulary.containsKey(word);
    }

    // --- vocabulary ----------------------------------------------------------------------------------------------

    enum Kind { AGG, TOP, BOTTOM, MOST, BY, AND, OF, UNIT, LAST, THIS, NUMBER, CMP, SORT, DIRECTION, TABLE, FIELD, VALUE, TOTAL }

    /** One meaning of a phrase. {@code text}: an aggregation, comparison, unit, direction or value. */
    record Term(Kind kind, TableInfo table, FieldInfo field, String text, Double number, int words) {
        Term sized(int n) {
            return new Term(kind, table, field, text, number, n);
        }
    }

    private void keywords() {
        kw("how many", Kind.AGG, "count");
        kw("number of", Kind.AGG, "count");
        kw("count of", Kind.AGG, "count");
        kw("count", Kind.AGG, "count");
        kw("sum of", Kind.AGG, "sum");
        kw("sum", Kind.AGG, "sum");
        kw("total of", Kind.AGG, "sum");
        kw("total", Kind.TOTAL, "sum");
        for (String w : List.of("average", "avg", "mean")) {
            kw(w, Kind.AGG, "avg");
            kw(w + " of", Kind.AGG, "avg");
        }
        for (String w : List.of("maximum", "max", "highest", "largest", "biggest")) {
            kw(w, Kind.AGG, "max");
            kw(w + " of", Kind.AGG, "max");
        }
        for (String w : List.of("minimum", "min", "lowest", "smallest")) {
            kw(w, Kind.AGG, "min");
            kw(w + " of", Kind.AGG, "min");
        }
        for (String w : List.of("distinct", "unique", "different")) {
            kw("number of " + w, Kind.AGG, "distinct");
            kw("how many " + w, Kind.AGG, "distinct");
            kw("count of " + w, Kind.AGG, "distinct");
        }
        kw("top", Kind.TOP, null);
        for (String w : List.of("most", "the most", "highest number of", "largest number of")) {
            kw(w, Kind.MOST, "desc");
        }
        for (String w : List.of("fewest", "the fewest", "least", "the least", "lowest number of")) {
            kw(w, Kind.MOST, "asc");
        }
        kw("between", Kind.CMP, "between");
        kw("bottom", Kind.BOTTOM, null);
        for (String w : List.of("by", "per", "for each", "each", "grouped by", "group by", "broken down by", "split by", "across")) {
            kw(w, Kind.BY, null);
        }
        kw("and", Kind.AND, null);
        kw("of", Kind.OF, null);
        UNITS.forEach((w, unit) -> kw(w, Kind.UNIT, unit));
        for (String w : List.of("last", "past", "previous")) {
            kw(w, Kind.LAST, null);
            kw("in the " + w, Kind.LAST, null);
            kw("over the " + w, Kind.LAST, null);
        }
        kw("this", Kind.THIS, null);
        kw("current", Kind.THIS, null);
        for (String w : List.of("over", "above", "more than", "greater than", "exceeding", "higher than", "bigger than")) {
            kw(w, Kind.CMP, ">");
        }
        for (String w : List.of("under", "below", "less than", "lower than", "smaller than")) {
            kw(w, Kind.CMP, "<");
        }
        kw("at least", Kind.CMP, ">=");
        kw("at most", Kind.CMP, "<=");
        kw("equal to", Kind.CMP, "=");
        kw("exactly", Kind.CMP, "=");
        kw("before", Kind.CMP, "before");
        kw("after", Kind.CMP, "after");
        kw("since", Kind.CMP, "since");
        // not "order by": read as words made singular, it would be "orders by"
        for (String w : List.of("sorted by", "sort by", "ordered by", "ranked by")) {
            kw(w, Kind.SORT, null);
        }
        for (String w : List.of("descending", "desc", "highest first", "largest first", "most first", "in descending order")) {
            kw(w, Kind.DIRECTION, "desc");
        }
        for (String w : List.of("ascending", "asc", "lowest first", "smallest first", "in ascending order")) {
            kw(w, Kind.DIRECTION, "asc");
        }
    }

    private void kw(String phrase, Kind kind, String text) {
        add(phrase, new Term(kind, null, null, text, null, 0));
    }

    private void add(String phrase, Term term) {
        if (phrase.isBlank()) {
            return;
        }
        int words = phrase.split(" ").length;
        longestPhrase = Math.max(longestPhrase, words);
        List<Term> terms = vocabulary.computeIfAbsent(phrase, k -> new ArrayList<>());
        if (!terms.contains(term)) {
            terms.add(term);
        }
    }

    /** The phrases a table or field is known by: its name and display name, in normalised words. */
    private static Set<String> phrases(String name, String displayName) {
        Set<String> out = new LinkedHashSet<>();
        out.add(phraseOf(name.replace('_', ' ')));
        if (displayName != null) {
            out.add(phraseOf(displayName));
        }
        return out;
    }

    static String phraseOf(String text) {
        List<String> words = new ArrayList<>();
        Matcher m = WORD.matcher(text.replace("'s", ""));
        while (m.find()) {
            words.add(normalise(m.group()));
        }
        return String.join(" ", words);
    }

    /** Lower case and singular (a simple English rule: people stay people). */
    static String normalise(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        if (w.length() <= 3 || w.chars().allMatch(Character::isDigit)) {
            return w;
        }
        if (w.endsWith("ies")) {
            return w.substring(0, w.length() - 3) + "y";
        }
        if (w.endsWith("sses") || w.endsWith("xes") || w.endsWith("ches") || w.endsWith("shes")) {
            return w.substring(0, w.length() - 2);
        }
        if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) {
            return w.substring(0, w.length() - 1);
        }
        return w;
    }

    // --- reading the question ---------------------------------------------------------------------------------------

    /** The question as a list of meanings (several where a phrase has several), stop words dropped. */
    List<List<Term>> read(String question) {
        List<String> raw = new ArrayList<>();
        Matcher m = WORD.matcher(question.replace("'s", " ").replace("’s", " "));
        while (m.find()) {
            raw.add(m.group());
        }
        List<String> words = raw.stream().map(Translator::normalise).toList();
        List<List<Term>> out = new ArrayList<>();
        int i = 0;
        while (i < words.size()) {
            List<Term> found = null;
            int size = 0;
            for (int n = Math.min(longestPhrase, words.size() - i); n >= 1 && found == null; n--) {
                List<Term> terms = vocabulary.get(String.join(" ", words.subList(i, i + n)));
                if (terms != null) {
                    List<Term> usable = new ArrayList<>();
                    for (Term t : terms) {
                        // a short value (a state code) only in its own letter case: "in" is not Indiana
                        if (t.kind == Kind.VALUE && t.text.length() <= 3
                                && !String.join(" ", raw.subList(i, i + n)).equals(t.text)) {
                            continue;
                        }
                        usable.add(t.sized(n));
                    }
                    if (!usable.isEmpty()) {
                        found = usable;
                        size = n;
                    }
                }
            }
            if (found != null) {
                out.add(found);
                i += size;
                continue;
            }
            String word = words.get(i);
            if (Character.isDigit(word.charAt(0))) {
                out.add(List.of(new Term(Kind.NUMBER, null, null, word, Double.valueOf(word), 1)));
            } else if (!STOP.contains(word) && !STOP.contains(raw.get(i).toLowerCase(Locale.ROOT))) {
                throw notUnderstood("I did not understand \"" + raw.get(i) + "\".", null);
            }
            i++;
        }
        return out;
    }

    // --- building the query ---------------------------------------------------------------------------------------

    /** A field mentioned, not yet placed: its candidates and the table named just before it, if any. */
    private record Mention(List<FieldInfo> candidates, TableInfo qualifier, String words) {
    }

    private record Metric(String op, Mention field, TableInfo countOf) {
    }

    private record Dim(Mention field, TableInfo table, String unit) {
    }

    /** A condition; {@code values}: for an equality, the value's text in each field it may be of. */
    private record Filter(String op, Mention field, List<Object> args, String value, Map<FieldInfo, String> values) {
        Filter(String op, Mention field, List<Object> args, String value) {
            this(op, field, args, value, Map.of());
        }
    }

    private record Sort(Object target, String direction) {
    }

    private final class Parse {
        final List<List<Term>> terms;
        int at;
        final List<Metric> metrics = new ArrayList<>();
        final List<Dim> dims = new ArrayList<>();
        final List<Filter> filters = new ArrayList<>();
        final List<TableInfo> tables = new ArrayList<>();
        TableInfo baseHint;
        Integer limit;
        String limitDirection;
        Object sortTarget;
        String sortDirection;
        boolean sortRequested;
        TableInfo topOf;
        Mention topBy;

        Parse(List<List<Term>> terms) {
            this.terms = terms;
        }

        boolean more() {
            return at < terms.size();
        }

        Term peek(Kind kind) {
            return at < terms.size() ? find(terms.get(at), kind) : null;
        }

        Term peekAt(int offset, Kind kind) {
            return at + offset < terms.size() ? find(terms.get(at + offset), kind) : null;
        }

        Term take(Kind kind) {
            Term t = peek(kind);
            if (t != null) {
                at++;
            }
            return t;
        }

        /** A field, possibly after the table it belongs to ("product category"). */
        Mention field() {
            if (peek(Kind.TABLE) != null && peekAt(1, Kind.FIELD) != null) {
                TableInfo qualifier = take(Kind.TABLE).table();
                tables.add(qualifier);
                return mention(take(Kind.FIELD), qualifier);
            }
            Term f = take(Kind.FIELD);
            return f == null ? null : mention(f, null);
        }

        Mention mention(Term first, TableInfo qualifier) {
            List<FieldInfo> candidates = new ArrayList<>();
            for (Term t : terms.get(at - 1)) {
                if (t.kind == Kind.FIELD && !candidates.contains(t.field())) {
                    candidates.add(t.field());
                }
            }
            return new Mention(candidates, qualifier, first.field().displayName());
        }

        void parse() {
            while (more()) {
                int before = at;
                step();
                if (at == before) {
                    throw notUnderstood("I did not understand \"" + describe(terms.get(at)) + "\" where it is.", null);
                }
            }
        }

        private void step() {
            Term t;
            if ((t = take(Kind.TOP)) != null || (t = take(Kind.BOTTOM)) != null) {
                Term n = take(Kind.NUMBER);
                limit = n == null ? 1 : n.number().intValue();
                if (n != null && (n.number() != Math.floor(n.number()) || limit < 1 || limit > 10_000)) {
                    throw notUnderstood("\"top " + n.text() + "\" is not a number of rows I can show.", null);
                }
                limitDirection = t.kind() == Kind.TOP ? "desc" : "asc";
                if (peek(Kind.TABLE) != null && peekAt(1, Kind.FIELD) == null) {
                    topOf = take(Kind.TABLE).table();
                    tables.add(topOf);
                } else {
                    Mention m = field();
                    if (m == null) {
                        throw notUnderstood("After \"top " + limit + "\" I expected what to rank (a table or a field).", null);
                    }
                    topBy = m;
                }
                if (take(Kind.BY) != null) {
                    sortTarget("After \"by\" I expected what to rank by.");
                    sortDirection = limitDirection;
                }
                return;
            }
            if (peek(Kind.AGG) != null || (peek(Kind.TOTAL) != null && (peekAt(1, Kind.FIELD) != null || peekAt(1, Kind.TABLE) != null))) {
                metric();
                while (peek(Kind.AND) != null && (peekAt(1, Kind.AGG) != null || peekAt(1, Kind.TOTAL) != null)) {
                    take(Kind.AND);
                    metric();
                }
                return;
            }
            if (take(Kind.BY) != null) {
                dim();
                while (peek(Kind.AND) != null && (peekAt(1, Kind.FIELD) != null || peekAt(1, Kind.UNIT) != null
                        || peekAt(1, Kind.TABLE) != null)) {
                    take(Kind.AND);
                    dim();
                }
                return;
            }
            if ((t = take(Kind.LAST)) != null || (t = take(Kind.THIS)) != null) {
                Term n = t.kind() == Kind.LAST ? take(Kind.NUMBER) : null;
                Term unit = take(Kind.UNIT);
                if (unit == null || (n != null && (n.number() != Math.floor(n.number()) || n.number() < 1 || n.number() > 10_000))) {
                    throw notUnderstood("I understand \"last 30 days\", \"last 3 months\", \"this year\", not this period.", null);
                }
                long amount = t.kind() == Kind.THIS ? 0 : n == null ? -1 : -n.number().longValue();
                filters.add(new Filter("time-interval", null, List.of(amount, unit.text()), null));
                return;
            }
            if (peek(Kind.NUMBER) != null && isYear(peek(Kind.NUMBER))) {
                filters.add(new Filter("year", null, List.of(take(Kind.NUMBER).number().intValue()), null));
                return;
            }
            if ((t = take(Kind.CMP)) != null) {
                comparison(null, t);
                return;
            }
            if (take(Kind.SORT) != null) {
                sortTarget("After \"sorted by\" I expected a field or a count, sum or average.");
                return;
            }
            if ((t = take(Kind.DIRECTION)) != null) {
                sortRequested = true;
                sortDirection = t.text();
                return;
            }
            if (peek(Kind.VALUE) != null && peek(Kind.FIELD) == null && peek(Kind.TABLE) == null) {
                value(null);
                return;
            }
            if (peek(Kind.FIELD) != null || (peek(Kind.TABLE) != null && peekAt(1, Kind.FIELD) != null)) {
                Mention m = field();
                if (peek(Kind.MOST) != null) {
                    // "which category has the most orders": the one group with the largest count
                    topBy = m;
                    most(take(Kind.MOST));
                } else if (peek(Kind.VALUE) != null) {
                    value(m);
                } else if ((t = take(Kind.CMP)) != null) {
                    comparison(m, t);
                } else if (peek(Kind.NUMBER) != null && isYear(peek(Kind.NUMBER))) {
                    filters.add(new Filter("year", m, List.of(take(Kind.NUMBER).number().intValue()), null));
                } else if (peek(Kind.LAST) != null || peek(Kind.THIS) != null) {
                    int size = filters.size();
                    step();
                    if (filters.size() > size) {
                        Filter f = filters.remove(filters.size() - 1);
                        filters.add(new Filter(f.op(), m, f.args(), null));
                    }
                } else {
                    throw notUnderstood("I did not understand what to do with \"" + m.words() + "\".", null);
                }
                return;
            }
            if ((t = take(Kind.TABLE)) != null) {
                tables.add(t.table());
                if (peek(Kind.MOST) != null) {
                    // "which product has the most reviews"
                    topOf = t.table();
                    most(take(Kind.MOST));
                    return;
                }
                if (take(Kind.OF) != null && peek(Kind.TABLE) != null) {
                    tables.add(take(Kind.TABLE).table());
                }
                return;
            }
            if (take(Kind.OF) != null || take(Kind.AND) != null) {
                return;
            }
            if (peek(Kind.VALUE) != null) {
                value(null);
            }
        }

        private void metric() {
            Term agg = take(Kind.AGG);
            if (agg == null) {
                agg = take(Kind.TOTAL);
            }
            String op = agg.text();
            take(Kind.OF);
            if (!op.equals("count") && peek(Kind.AGG) != null && peek(Kind.AGG).words() == 2 && "sum".equals(peek(Kind.AGG).text())
                    && vocabulary.containsKey("total")) {
                // "average total of orders": "total of" is the field Total, then "of"
                Term total = peek(Kind.AGG);
                List<FieldInfo> fields = vocabulary.get("total").stream().filter(x -> x.kind() == Kind.FIELD).map(Term::field).toList();
                if (!fields.isEmpty() && total != null) {
                    at++;
                    metrics.add(new Metric(op, new Mention(fields, null, fields.get(0).displayName()), null));
                    Term table = take(Kind.TABLE);
                    if (table == null) {
                        throw notUnderstood("After \"of\" I expected a table.", null);
                    }
                    tables.add(table.table());
                    baseHint = baseHint == null ? table.table() : baseHint;
                    return;
                }
            }
            if (op.equals("count")) {
                // "how many Gizmo products": values before the table filter it
                while (peek(Kind.VALUE) != null && peek(Kind.TABLE) == null) {
                    value(null);
                }
                Term named = take(Kind.TABLE);
                // a model is one table: "how many rows" needs no name
                TableInfo table = named != null ? named.table() : schema.tables().size() == 1 ? schema.tables().get(0) : null;
                if (table == null) {
                    throw notUnderstood("After \"" + (agg.words() > 1 ? "how many" : "count") + "\" I expected a table, as in \"how many orders\".", null);
                }
                tables.add(table);
                baseHint = baseHint == null ? table : baseHint;
                metrics.add(new Metric("count", null, table));
                return;
            }
            Mention field = field();
            if (field == null) {
                if (agg.kind() == Kind.TOTAL) {
                    throw notUnderstood("\"total\" followed by a table could be a count or a sum: say \"number of\" or \"total of\" a field.", null);
                }
                throw notUnderstood("After \"" + op + "\" I expected a field, as in \"average price of products\".", null);
            }
            metrics.add(new Metric(op, field, null));
            if (take(Kind.OF) != null) {
                Term table = take(Kind.TABLE);
                if (table == null) {
                    throw notUnderstood("After \"of\" I expected a table.", null);
                }
                tables.add(table.table());
                baseHint = baseHint == null ? table.table() : baseHint;
            }
        }

        private void dim() {
            Term unit = take(Kind.UNIT);
            if (unit != null) {
                Mention of = take(Kind.OF) != null ? field() : null;
                dims.add(new Dim(of, null, unit.text()));
                return;
            }
            Mention m = field();
            if (m != null) {
                Term u = take(Kind.UNIT);
                dims.add(new Dim(m, null, u == null ? null : u.text()));
                return;
            }
            Term table = take(Kind.TABLE);
            if (table == null) {
                throw notUnderstood("After \"by\" I expected a field, a table or a period (day, week, month, quarter, year).", null);
            }
            dims.add(new Dim(null, table.table(), null));
        }

        /** "the most orders" (a count of a table) or "the most total sales" (an aggregation): one group, ranked by it. */
        private void most(Term most) {
            if (limit != null) {
                throw notUnderstood("I understand one ranking per question.", null);
            }
            limit = 1;
            limitDirection = most.text();
            sortDirection = most.text();
            sortRequested = true;
            Term table = peek(Kind.TABLE);
            if (table != null && peekAt(1, Kind.FIELD) == null) {
                at++;
                tables.add(table.table());
                baseHint = baseHint == null ? table.table() : baseHint;
                metrics.add(new Metric("count", null, table.table()));
            } else if (peek(Kind.AGG) != null || peek(Kind.TOTAL) != null) {
                metric();
            } else {
                throw notUnderstood("After \"most\" I expected a table to count or a sum, as in \"the most orders\".", null);
            }
            sortTarget = metrics.get(metrics.size() - 1);
        }

        /** What to sort by after "by" or "sorted by": a count, sum or average, else a field ({@code missing} if neither). */
        private void sortTarget(String missing) {
            sortRequested = true;
            if (peek(Kind.AGG) != null || peek(Kind.TOTAL) != null) {
                metric();
                sortTarget = metrics.get(metrics.size() - 1);
                return;
            }
            Mention m = field();
            if (m == null) {
                throw notUnderstood(missing, null);
            }
            sortTarget = m;
        }

        private void comparison(Mention field, Term cmp) {
            Term n = take(Kind.NUMBER);
            if (n == null) {
                throw notUnderstood("After \"" + describe(List.of(cmp)) + "\" I expected a number.", null);
            }
            String op = cmp.text();
            if (op.equals("between")) {
                Term upper = take(Kind.AND) != null ? take(Kind.NUMBER) : null;
                if (field == null || upper == null || isYear(n) != isYear(upper)) {
                    throw notUnderstood("I understand \"<field> between <number> and <number>\".", null);
                }
                filters.add(new Filter("between", field, List.of(number(n), number(upper)), null));
                return;
            }
            if (op.equals("before") || op.equals("after") || op.equals("since")) {
                if (!isYear(n)) {
                    throw notUnderstood("After \"" + op + "\" I expected a year.", null);
                }
                filters.add(new Filter(op, field, List.of(n.number().intValue()), null));
                return;
            }
            if (field == null) {
                throw notUnderstood("I did not understand which field should be " + describe(List.of(cmp)) + " " + n.text() + ".", null);
            }
            filters.add(new Filter(op, field, List.of(number(n)), null));
        }

        /** The number as written: a whole number of up to 15 digits is a long, anything else exact decimal. */
        private static Number number(Term n) {
            String text = n.text();
            return !text.contains(".") && text.length() <= 15 ? (Number) Long.parseLong(text) : new java.math.BigDecimal(text);
        }

        private void value(Mention field) {
            Map<FieldInfo, String> texts = new LinkedHashMap<>();
            for (Term t : terms.get(at)) {
                if (t.kind == Kind.VALUE && (field == null || field.candidates().contains(t.field()))) {
                    String before = texts.put(t.field(), t.text());
                    if (before != null && !before.equals(t.text())) {
                        // "Gizmo" and "Gizmos" both values of one field: not a guess to make
                        throw notUnderstood("\"" + t.text() + "\" could be \"" + before + "\" or \"" + t.text() + "\".", null);
                    }
                }
            }
            if (texts.isEmpty()) {
                throw notUnderstood("\"" + describe(terms.get(at)) + "\" is not a value of " + field.words() + ".", null);
            }
            at++;
            List<FieldInfo> candidates = new ArrayList<>(texts.keySet());
            String text = texts.values().iterator().next();
            filters.add(new Filter("=", new Mention(candidates, field == null ? null : field.qualifier(), text), List.of(), text,
                    texts));
        }
    }

    private static boolean isYear(Term n) {
        double v = n.number();
        return v == Math.floor(v) && v >= 1900 && v <= 2199 && n.text().length() == 4;
    }

    private static Term find(List<Term> terms, Kind kind) {
        for (Term t : terms) {
            if (t.kind == kind) {
                return t;
            }
        }
        return null;
    }

    private static String describe(List<Term> terms) {
        Term t = terms.get(0);
        if (t.field() != null) {
            return t.kind == Kind.VALUE ? t.text() : t.field().displayName();
        }
        if (t.table() != null) {
            return t.table().displayName();
        }
        return t.text() != null ? t.text() : t.kind.name().toLowerCase(Locale.ROOT);
    }

    /** Translates a question into an MBQL query, or throws {@link NotUnderstood}. */
    Translation translate(String question) {
        Parse p = new Parse(read(question));
        p.parse();
        TableInfo base = base(p);
        if (base == null) {
            throw notUnderstood("I could not tell which table the question is about.", null);
        }
        Resolver r = new Resolver(base);
        Map<String, Object> query = new LinkedHashMap<>();
        query.put("source-table", schema.modelId() != null ? "card__" + schema.modelId() : base.id());
        List<Object> aggregations = new ArrayList<>();
        Map<Metric, Integer> metricIndex = new HashMap<>();
        for (Metric m : p.metrics) {
            if (m.op().equals("count")) {
                if (m.countOf().id() != base.id()) {
                    throw notUnderstood("I can count " + base.displayName() + " here, not " + m.countOf().displayName() + ".", base);
                }
                aggregations.add(List.of("count"));
            } else {
                FieldInfo f = r.resolve(m.field());
                if (!m.op().equals("distinct") && !f.numeric() && !(f.temporal() && (m.op().equals("min") || m.op().equals("max")))) {
                    throw notUnderstood("\"" + f.displayName() + "\" is not a number I can " + verb(m.op()) + ".", base);
                }
                aggregations.add(List.of(m.op(), r.ref(f, null)));
            }
            metricIndex.put(m, aggregations.size() - 1);
        }
        List<Object> breakouts = new ArrayList<>();
        List<FieldInfo> dimFields = new ArrayList<>();
        for (Dim d : p.dims) {
            FieldInfo f;
            String unit = d.unit();
            if (d.table() != null) {
                f = r.nameOf(d.table());
            } else if (d.field() == null) {
                f = base.defaultDate();
                if (f == null) {
                    throw notUnderstood(base.displayName() + " has no date to group by " + unit + ".", base);
                }
            } else {
                f = r.resolve(d.field());
            }
            if (f.temporal()) {
                unit = unit == null ? "day" : unit;
            } else if (unit != null) {
                throw notUnderstood("\"" + f.displayName() + "\" is not a date to group by " + unit + ".", base);
            }
            breakouts.add(r.ref(f, unit));
            dimFields.add(f);
        }
        if (p.topOf != null) {
            if (p.topOf.id() != base.id()) {
                // "top 5 products by total sales": products are the groups
                FieldInfo name = r.nameOf(p.topOf);
                breakouts.add(0, r.ref(name, null));
                dimFields.add(0, name);
            } else if (aggregations.isEmpty() && !(p.sortTarget instanceof Mention)) {
                throw notUnderstood("I did not understand what to rank " + base.displayName() + " by.", base);
            }
        } else if (p.topBy != null) {
            FieldInfo f = r.resolve(p.topBy);
            breakouts.add(0, r.ref(f, f.temporal() ? "day" : null));
            dimFields.add(0, f);
        }
        if (breakouts.size() > 2) {
            throw notUnderstood("I can group by at most two fields.", base);
        }
        if (!breakouts.isEmpty() && aggregations.isEmpty()) {
            if (p.topOf != null && p.topOf.id() != base.id()) {
                throw notUnderstood("I did not understand what to rank " + p.topOf.displayName() + " by.", base);
            }
            aggregations.add(List.of("count"));
        }
        if (!aggregations.isEmpty()) {
            query.put("aggregation", aggregations);
        }
        if (!breakouts.isEmpty()) {
            query.put("breakout", breakouts);
        }
        List<Object> conditions = new ArrayList<>();
        for (Filter f : p.filters) {
            conditions.add(condition(f, r, base));
        }
        if (conditions.size() == 1) {
            query.put("filter", conditions.get(0));
        } else if (conditions.size() > 1) {
            List<Object> and = new ArrayList<>();
            and.add("and");
            and.addAll(conditions);
            query.put("filter", and);
        }
        // ordering: "top N" ranks by its target (or the first aggregation), "sorted by" by what it names
        String direction = p.sortDirection != null ? p.sortDirection : p.limitDirection != null ? p.limitDirection : "asc";
        Object orderBy = null;
        if (p.sortTarget instanceof Metric m) {
            orderBy = List.of(direction, List.of("aggregation", metricIndex.get(m)));
        } else if (p.sortTarget instanceof Mention m) {
            FieldInfo f = r.resolve(m);
            int dimAt = dimFields.indexOf(f);
            if (!aggregations.isEmpty() && dimAt < 0) {
                throw notUnderstood("I can only sort grouped results by what they are grouped by or by the result.", base);
            }
            orderBy = List.of(direction, dimAt >= 0 ? breakouts.get(dimAt) : r.ref(f, null));
        } else if (p.limit != null || p.sortRequested) {
            if (aggregations.isEmpty()) {
                throw notUnderstood("I did not understand what to sort " + base.displayName() + " by.", base);
            }
            orderBy = List.of(direction, List.of("aggregation", 0));
        }
        if (orderBy != null) {
            query.put("order-by", List.of(orderBy));
        }
        if (p.limit != null) {
            query.put("limit", p.limit);
        }
        if (aggregations.isEmpty() && breakouts.isEmpty() && conditions.isEmpty() && orderBy == null) {
            throw notUnderstood("I found " + base.displayName() + " but not what to compute about them.", base);
        }
        Map<String, Object> datasetQuery = new LinkedHashMap<>();
        datasetQuery.put("database", schema.databaseId());
        datasetQuery.put("type", "query");
        datasetQuery.put("query", query);
        return new Translation(datasetQuery, display(aggregations, breakouts, dimFields), question.strip());
    }

    private static String verb(String op) {
        return switch (op) {
            case "sum" -> "add up";
            case "avg" -> "average";
            default -> "take the " + op + " of";
        };
    }

    private static String display(List<Object> aggregations, List<Object> breakouts, List<FieldInfo> dims) {
        if (aggregations.isEmpty()) {
            return "table";
        }
        if (breakouts.isEmpty()) {
            return "scalar";
        }
        if (breakouts.size() == 1 && dims.get(0).temporal()) {
            return "line";
        }
        return breakouts.size() == 1 ? "bar" : "table";
    }

    private Object condition(Filter f, Resolver r, TableInfo base) {
        switch (f.op()) {
            case "=" -> {
                FieldInfo field = r.resolve(f.field());
                return List.of("=", r.ref(field, null), f.values().getOrDefault(field, f.value()));
            }
            case "time-interval" -> {
                FieldInfo date = dateOf(f, r, base);
                return List.of("time-interval", r.ref(date, null), f.args().get(0), f.args().get(1));
            }
            case "year", "before", "after", "since" -> {
                FieldInfo date = dateOf(f, r, base);
                int year = (Integer) f.args().get(0);
                Object ref = r.ref(date, null);
                return switch (f.op()) {
                    case "year" -> List.of("and", List.of(">=", ref, year + "-01-01"), List.of("<", ref, (year + 1) + "-01-01"));
                    case "before" -> List.of("<", ref, year + "-01-01");
                    case "after" -> List.of(">=", ref, (year + 1) + "-01-01");
                    default -> List.of(">=", ref, year + "-01-01");
                };
            }
            default -> {
                FieldInfo field = r.resolve(f.field());
                if (!field.numeric()) {
                    throw notUnderstood("\"" + field.displayName() + "\" is not a number to compare.", base);
                }
                List<Object> clause = new ArrayList<>(List.of(f.op(), r.ref(field, null)));
                clause.addAll(f.args());
                return clause;
            }
        }
    }

    private FieldInfo dateOf(Filter f, Resolver r, TableInfo base) {
        FieldInfo date = f.field() == null ? base.defaultDate() : r.resolve(f.field());
        if (date == null || !date.temporal()) {
            throw notUnderstood((date == null ? base.displayName() + " has no date" : "\"" + date.displayName() + "\" is not a date")
                    + " to filter on.", base);
        }
        return date;
    }

    /** The table a question is about: what it counts, what it names after "of", else where its fields are. */
    private TableInfo base(Parse p) {
        if (p.baseHint != null) {
            return p.baseHint;
        }
        List<Mention> mentions = new ArrayList<>();
        p.metrics.stream().filter(m -> m.field() != null).forEach(m -> mentions.add(m.field()));
        if (p.sortTarget instanceof Mention m && p.topOf != null) {
            mentions.add(m);
        }
        if (!mentions.isEmpty()) {
            Set<Long> tables = null;
            for (Mention m : mentions) {
                Set<Long> of = new LinkedHashSet<>();
                m.candidates().stream().filter(f -> m.qualifier() == null || f.tableId() == m.qualifier().id())
                        .forEach(f -> of.add(f.tableId()));
                if (tables == null) {
                    tables = of;
                } else {
                    tables.retainAll(of);
                }
            }
            if (tables.size() == 1) {
                return schema.table(tables.iterator().next());
            }
            if (tables.size() > 1) {
                // a table named in the question settles it ("average rating of reviews")
                for (TableInfo named : p.tables) {
                    if (tables.contains(named.id())) {
                        return named;
                    }
                }
                throw notUnderstood("\"" + mentions.get(0).words() + "\" is in several tables: name the table, as in \""
                        + p.metrics.get(0).op().replace("avg", "average") + " " + mentions.get(0).words().toLowerCase(Locale.ROOT)
                        + " of " + schema.table(tables.iterator().next()).displayName().toLowerCase(Locale.ROOT) + "\".", null);
            }
            throw notUnderstood("The fields of the question are not in one table.", null);
        }
        if (p.topOf != null) {
            return p.topOf;
        }
        if (!p.tables.isEmpty()) {
            return p.tables.get(0);
        }
        return null;
    }

    /** Places mentions of fields relative to the base table: its own fields first, then one foreign key away. */
    private final class Resolver {
        final TableInfo base;
        final Map<FieldInfo, TableInfo> foreignKeys;

        Resolver(TableInfo base) {
            this.base = base;
            this.foreignKeys = schema.foreignKeys(base);
        }

        FieldInfo resolve(Mention m) {
            List<FieldInfo> candidates = m.candidates();
            if (m.qualifier() != null) {
                candidates = candidates.stream().filter(f -> f.tableId() == m.qualifier().id()).toList();
            }
            List<FieldInfo> own = candidates.stream().filter(f -> f.tableId() == base.id()).toList();
            if (own.size() == 1) {
                return own.get(0);
            }
            if (own.size() > 1) {
                throw notUnderstood("\"" + m.words() + "\" could be several fields of " + base.displayName() + ".", base);
            }
            List<FieldInfo> joined = candidates.stream().filter(f -> reachable(f) != null).toList();
            if (joined.size() == 1) {
                return joined.get(0);
            }
            if (joined.size() > 1) {
                throw notUnderstood("\"" + m.words() + "\" could be a field of several tables linked to " + base.displayName()
                        + ".", base);
            }
            throw notUnderstood("\"" + m.words() + "\" is not a field of " + base.displayName()
                    + " or of a table it links to.", base);
        }

        /** The foreign key of the base table that reaches {@code f}'s table; null when none or several do. */
        FieldInfo reachable(FieldInfo f) {
            FieldInfo via = null;
            for (Map.Entry<FieldInfo, TableInfo> e : foreignKeys.entrySet()) {
                if (e.getValue().id() == f.tableId()) {
                    if (via != null) {
                        return null;
                    }
                    via = e.getKey();
                }
            }
            return via;
        }

        FieldInfo nameOf(TableInfo table) {
            FieldInfo name = table.nameField();
            if (name == null) {
                throw notUnderstood(table.displayName() + " has no name or title field to show.", base);
            }
            if (table.id() != base.id() && reachable(name) == null) {
                throw notUnderstood(table.displayName() + " is not linked to " + base.displayName() + ".", base);
            }
            return name;
        }

        Object ref(FieldInfo f, String unit) {
            Map<String, Object> opts = new LinkedHashMap<>();
            if (schema.modelId() != null) {
                opts.put("base-type", f.baseType());
                if (unit != null) {
                    opts.put("temporal-unit", unit);
                }
                return new ArrayList<>(List.of("field", f.name(), opts));
            }
            if (f.tableId() != base.id()) {
                FieldInfo via = reachable(f);
                if (via == null) {
                    throw notUnderstood("\"" + f.displayName() + "\" is not linked to " + base.displayName() + ".", base);
                }
                opts.put("source-field", via.id());
            }
            if (unit != null) {
                opts.put("temporal-unit", unit);
            }
            List<Object> ref = new ArrayList<>(List.of("field", f.id()));
            ref.add(opts.isEmpty() ? null : opts);
            return ref;
        }
    }

    // --- explaining -------------------------------------------------------------------------------------------------

    private NotUnderstood notUnderstood(String message, TableInfo about) {
        return new NotUnderstood(message, example(about));
    }

    /** A question this translator answers over this database, about {@code table} when given. */
    String example(TableInfo about) {
        TableInfo table = about;
        if (table == null) {
            // the table most linked to others is what most questions are about (orders, not accounts)
            table = schema.tables().stream().filter(t -> t.fields().stream().anyMatch(FieldInfo::numeric))
                    .max(java.util.Comparator.comparingInt((TableInfo t) -> schema.foreignKeys(t).size()))
                    .orElse(schema.tables().isEmpty() ? null : schema.tables().get(0));
        }
        if (table == null) {
            return null;
        }
        String name = table.displayName().toLowerCase(Locale.ROOT);
        FieldInfo number = table.fields().stream().filter(FieldInfo::numeric).findFirst().orElse(null);
        FieldInfo date = table.defaultDate();
        if (number != null && date != null) {
            return "average " + number.displayName().toLowerCase(Locale.ROOT) + " of " + name + " by month";
        }
        if (number != null) {
            return "total of " + number.displayName().toLowerCase(Locale.ROOT) + " of " + name;
        }
        return "how many " + name;
    }
}
