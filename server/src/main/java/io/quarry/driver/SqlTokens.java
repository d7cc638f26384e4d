package io.quarry.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * SQL text as its statements' words, as an engine's own tokenizer sees them: string literals, quoted identifiers
 * ({@code "..."}, {@code `...`}, {@code [...]}), dollar-quoted text ({@code $$...$$}, {@code $tag$...$tag$}) and
 * comments ({@code --} to the end of the line, block comments, and on engines that have them {@code //} line comments)
 * are skipped, so a keyword hidden in any of them is not a word and a {@code ;} inside them ends no statement.
 * Literals follow standard SQL, as in H2, DuckDB and SQLite: a doubled quote stays inside, a backslash is an ordinary
 * character. For the checks an engine makes before a statement reaches its database where the engine offers no parser
 * of its own (H2's own parser comes first: {@link io.quarry.driver.h2.H2Driver}).
 */
public final class SqlTokens {
    /** The statements of the text, each its upper-cased words and single-character symbols; empty statements dropped. */
    private final List<List<String>> statements;

    private SqlTokens(List<List<String>> statements) {
        this.statements = statements;
    }

    /** What an engine's lexer treats as quoting or comments beyond standard SQL's. */
    public enum Lexicon {
        /** {@code //} line comments and {@code $$} strings. */
        H2(true, true, false),
        /** {@code $$} and {@code $tag$} strings ({@code //} is integer division, {@code [..]} a list). */
        DUCKDB(false, true, false),
        /** {@code [..]} identifiers ({@code $name} is a parameter). */
        SQLITE(false, false, true);

        final boolean slashComments;
        final boolean dollarQuotes;
        final boolean bracketIdentifiers;

        Lexicon(boolean slashComments, boolean dollarQuotes, boolean bracketIdentifiers) {
            this.slashComments = slashComments;
            this.dollarQuotes = dollarQuotes;
            this.bracketIdentifiers = bracketIdentifiers;
        }
    }

    public static SqlTokens of(String sql, Lexicon lexicon) {
        boolean slashComments = lexicon.slashComments;
        List<List<String>> statements = new ArrayList<>();
        List<String> current = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(sql, i, c, c);
                current.add(c == '\'' ? "'" : "\"");
            } else if (c == '[' && lexicon.bracketIdentifiers) {
                i = skipQuoted(sql, i, '[', ']');
                current.add("\"");
            } else if (c == '$' && lexicon.dollarQuotes && dollarTag(sql, i) != null) {
                String tag = dollarTag(sql, i);
                int end = sql.indexOf(tag, i + tag.length());
                i = end < 0 ? n : end + tag.length();
                current.add("'");
            } else if (i + 1 < n && ((c == '-' && sql.charAt(i + 1) == '-') || (slashComments && c == '/' && sql.charAt(i + 1) == '/'))) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == ';') {
                if (!current.isEmpty()) {
                    statements.add(current);
                    current = new ArrayList<>();
                }
                i++;
            } else if (Character.isLetterOrDigit(c) || c == '_') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
                    i++;
                }
                current.add(sql.substring(start, i).toUpperCase(Locale.ROOT));
            } else if (Character.isWhitespace(c)) {
                i++;
            } else {
                current.add(String.valueOf(c));
                i++;
            }
        }
        if (!current.isEmpty()) {
            statements.add(current);
        }
        return new SqlTokens(statements);
    }

    /**
     * Refuses ({@link StatementRefused}) text that is not exactly one statement starting with one of {@code firstWords}
     * (upper case), in {@code engine}'s words ("DuckDB"). For engines without a parser of their own to ask.
     */
    public static void requireOneStatement(String sql, Lexicon lexicon, java.util.Set<String> firstWords, String engine)
            throws StatementRefused {
        SqlTokens tokens = of(sql, lexicon);
        if (tokens.statementCount() > 1) {
            throw new StatementRefused("Only one SQL statement may run at a time on " + engine + " databases.");
        }
        if (tokens.statementCount() == 1 && !firstWords.contains(tokens.firstWord())) {
            throw new StatementRefused("This statement is not allowed here on " + engine + " databases (allowed: "
                    + String.join(", ", new java.util.TreeSet<>(firstWords)) + ").");
        }
    }

    /** How many statements the text holds (a trailing {@code ;} and empty statements do not count). */
    public int statementCount() {
        return statements.size();
    }

    /** The first word of the first statement, upper-cased, or "" when there is none. */
    public String firstWord() {
        return statements.isEmpty() ? "" : statements.get(0).get(0);
    }

    /** Whether any statement has the words in sequence (upper case; symbols are words too, e.g. {@code "("}). */
    public boolean containsSequence(String... words) {
        for (List<String> statement : statements) {
            for (int i = 0; i + words.length <= statement.size(); i++) {
                boolean match = true;
                for (int j = 0; j < words.length && match; j++) {
                    match = statement.get(i + j).equals(words[j]);
                }
                if (match) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether a data-change delta table appears ({@code FINAL TABLE (INSERT ...)}, {@code OLD TABLE (DELETE ...)},
     * {@code NEW TABLE (UPDATE ...)}): a query that writes rows while it reads them, in H2 and DB2 syntax.
     */
    public boolean containsDataChangeDeltaTable() {
        return containsSequence("FINAL", "TABLE", "(") || containsSequence("OLD", "TABLE", "(")
                || containsSequence("NEW", "TABLE", "(");
    }

    /** The end of a quoted run starting at {@code start}; a doubled closing quote is part of it. Unterminated: the end. */
    private static int skipQuoted(String sql, int start, char open, char close) {
        int i = start + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == close) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == close && open == close) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return i;
    }

    /** The dollar-quote tag starting at {@code i} ({@code $$} or {@code $name$}), or null. */
    private static String dollarTag(String sql, int i) {
        int j = i + 1;
        while (j < sql.length() && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
            j++;
        }
        if (j < sql.length() && sql.charAt(j) == '$' && (j == i + 1 || !Character.isDigit(sql.charAt(i + 1)))) {
            return sql.substring(i, j + 1);
        }
        return null;
    }
}
