package io.quarry.qp;

import java.util.Locale;
import java.util.Set;

/**
 * H2 runs Java and touches files through SQL itself ({@code CREATE ALIAS ... AS $$ java $$}, {@code FILE_READ},
 * {@code CSVREAD}, {@code RUNSCRIPT}, {@code LINK_SCHEMA}, ...): the remote-code-execution route BI servers have been
 * hit by. Native queries sent to H2 databases are scanned word by word — outside string literals, quoted identifiers
 * and comments — and refused when they use any of those.
 */
public final class H2Guard {
    private static final Set<String> FORBIDDEN = Set.of("ALIAS", "RUNSCRIPT", "SCRIPT", "BACKUP", "FILE_READ", "FILE_WRITE",
            "CSVREAD", "CSVWRITE", "LINK_SCHEMA", "JAVA_OBJECT", "TRIGGER", "SHUTDOWN", "LINKED", "DATABASE_PATH", "LOAD",
            "SET", "GRANT", "REVOKE", "CREATE", "DROP", "ALTER");

    private H2Guard() {
    }

    /** Throws an invalid-query failure when the SQL uses a forbidden command or function. */
    public static void check(String sql) {
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(sql, i, c);
            } else if (c == '$' && i + 1 < n && sql.charAt(i + 1) == '$') {
                throw refused("$$");
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (Character.isLetter(c) || c == '_') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
                    i++;
                }
                String word = sql.substring(start, i).toUpperCase(Locale.ROOT);
                if (FORBIDDEN.contains(word)) {
                    throw refused(word);
                }
            } else {
                i++;
            }
        }
    }

    private static int skipQuoted(String sql, int start, char quote) {
        int i = start + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return i;
    }

    private static QueryFailure refused(String word) {
        return new QueryFailure(QueryFailure.Type.INVALID_QUERY,
                "Queries against H2 databases may only read data: " + word + " is not allowed.");
    }
}
