package io.quarry.assistant;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The SQL texts the assistant hands out and takes in: a compiled query with its bind values written as literals (a
 * native question to save), and the checks on SQL a language model wrote (one statement, reading only).
 */
final class SqlText {
    /** Words that write, change the schema or reach outside the database; none may appear in a model's SQL. */
    private static final Set<String> WRITING = Set.of("insert", "update", "delete", "merge", "upsert", "drop", "create",
            "alter", "truncate", "grant", "revoke", "rename", "copy", "call", "exec", "execute", "into", "returning", "vacuum",
            "pragma", "attach", "detach", "checkpoint", "shutdown", "backup", "runscript", "commit", "rollback", "savepoint",
            "lock", "link_schema", "file_read", "file_write", "csvwrite", "csvread", "pg_read_file", "pg_read_binary_file",
            "pg_ls_dir", "pg_sleep", "lo_import", "lo_export", "dblink", "sleep", "benchmark", "load_file", "outfile",
            "dumpfile", "nextval", "setval");
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS", Locale.ROOT);

    private SqlText() {
    }

    /** Why SQL was refused. */
    static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message);
        }
    }

    /** As {@link #inline(String, List, boolean)} for engines where a backslash in a string is an ordinary character. */
    static String inline(String sql, List<Object> params) {
        return inline(sql, params, false);
    }

    /**
     * {@code sql} with each {@code ?} outside quotes and comments replaced by its value as a SQL literal;
     * {@code backslashEscapes}: strings escape backslashes too (MySQL and MariaDB by default).
     */
    static String inline(String sql, List<Object> params, boolean backslashEscapes) {
        StringBuilder out = new StringBuilder(sql.length() + 16 * params.size());
        int next = 0;
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            int end = skipQuotedOrComment(sql, i);
            if (end > i) {
                out.append(sql, i, end);
                i = end;
                continue;
            }
            if (c == '?') {
                if (next >= params.size()) {
                    throw new IllegalStateException("More placeholders than bind values");
                }
                Object value = params.get(next++);
                out.append(backslashEscapes && value instanceof String text ? literal(text.replace("\\", "\\\\")) : literal(value));
            } else {
                out.append(c);
            }
            i++;
        }
        if (next != params.size()) {
            throw new IllegalStateException("More bind values than placeholders");
        }
        return out.toString();
    }

    static String literal(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof Boolean b) {
            return b ? "TRUE" : "FALSE";
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof Number n) {
            return n.toString();
        }
        if (value instanceof LocalDate d) {
            return "DATE '" + d + "'";
        }
        if (value instanceof LocalDateTime t) {
            return "TIMESTAMP '" + TIMESTAMP.format(t) + "'";
        }
        if (value instanceof OffsetDateTime t) {
            return "TIMESTAMP WITH TIME ZONE '" + TIMESTAMP.format(t) + t.getOffset().getId().replace("Z", "+00:00") + "'";
        }
        if (value instanceof ZonedDateTime t) {
            return literal(t.toOffsetDateTime());
        }
        if (value instanceof LocalTime t) {
            return "TIME '" + t + "'";
        }
        if (value instanceof java.sql.Timestamp t) {
            return literal(t.toLocalDateTime());
        }
        if (value instanceof java.sql.Date d) {
            return literal(d.toLocalDate());
        }
        return "'" + value.toString().replace("'", "''") + "'";
    }

    /** The end of a quoted string, quoted identifier or comment starting at {@code i}; {@code i} when none does. */
    private static int skipQuotedOrComment(String sql, int i) {
        char c = sql.charAt(i);
        if (c == '\'' || c == '"' || c == '`') {
            int j = i + 1;
            while (j < sql.length()) {
                if (sql.charAt(j) == c) {
                    if (j + 1 < sql.length() && sql.charAt(j + 1) == c) {
                        j += 2;
                        continue;
                    }
                    return j + 1;
                }
                j++;
            }
            return sql.length();
        }
        if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
            int nl = sql.indexOf('\n', i);
            return nl < 0 ? sql.length() : nl;
        }
        if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
            int close = sql.indexOf("*/", i + 2);
            return close < 0 ? sql.length() : close + 2;
        }
        return i;
    }

    /**
     * The model's SQL as one read-only statement: a trailing semicolon dropped, anything else refused — a second
     * statement, a statement that does not start with SELECT, WITH, VALUES or TABLE, or any word that writes.
     */
    static String readOnly(String sql) {
        String text = sql.strip();
        while (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1).strip();
        }
        if (text.isEmpty()) {
            throw new Refused("The answer contains no SQL.");
        }
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            int end = skipQuotedOrComment(text, i);
            if (end > i) {
                flush(word, words);
                i = end;
                continue;
            }
            char c = text.charAt(i);
            if (c == ';') {
                throw new Refused("Only a single statement is allowed; the answer has several.");
            }
            if (Character.isLetterOrDigit(c) || c == '_') {
                word.append(Character.toLowerCase(c));
            } else {
                flush(word, words);
            }
            i++;
        }
        flush(word, words);
        if (words.isEmpty() || !Set.of("select", "with", "values", "table").contains(words.get(0))) {
            throw new Refused("Only a query that reads (SELECT or WITH) is allowed.");
        }
        for (String w : words) {
            if (WRITING.contains(w)) {
                throw new Refused("Only a query that reads is allowed; the answer uses " + w.toUpperCase(Locale.ROOT) + ".");
            }
        }
        return text;
    }

    private static void flush(StringBuilder word, List<String> words) {
        if (word.length() > 0) {
            words.add(word.toString());
            word.setLength(0);
        }
    }

    /** The SQL in a model's reply: the reply itself when it starts with a query, else its first fenced code block. */
    static String extract(String reply) {
        String text = reply == null ? "" : reply.strip();
        int fence = text.indexOf("```");
        if (fence >= 0) {
            int start = text.indexOf('\n', fence);
            int close = start < 0 ? -1 : text.indexOf("```", start);
            if (start >= 0 && close > start) {
                return text.substring(start + 1, close).strip();
            }
        }
        return text;
    }
}
