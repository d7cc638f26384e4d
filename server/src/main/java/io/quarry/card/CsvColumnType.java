package io.quarry.card;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.regex.Pattern;

/** The type of an uploaded CSV column, detected from its values; each type widens to the next that fits. */
enum CsvColumnType {
    BOOLEAN("BOOLEAN"), INTEGER("BIGINT"), FLOAT("DOUBLE PRECISION"), DATE("DATE"), DATETIME("TIMESTAMP"), TEXT(null);

    private static final Pattern INT = Pattern.compile("[-+]?\\d{1,18}");
    private static final Pattern FLOAT_PATTERN = Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");
    private static final Pattern DATE_PATTERN = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern DATETIME_PATTERN = Pattern.compile("\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?");

    final String sqlType;

    CsvColumnType(String sqlType) {
        this.sqlType = sqlType;
    }

    /** The narrowest type of one non-blank value. */
    static CsvColumnType of(String raw) {
        String v = raw.trim();
        String lower = v.toLowerCase(Locale.ROOT);
        if (lower.equals("true") || lower.equals("false") || lower.equals("yes") || lower.equals("no")) {
            return BOOLEAN;
        }
        if (INT.matcher(v).matches()) {
            return INTEGER;
        }
        if (FLOAT_PATTERN.matcher(v).matches()) {
            return FLOAT;
        }
        if (DATE_PATTERN.matcher(v).matches() && parses(() -> LocalDate.parse(v))) {
            return DATE;
        }
        if (DATETIME_PATTERN.matcher(v).matches() && parses(() -> LocalDateTime.parse(v.replace(' ', 'T')))) {
            return DATETIME;
        }
        return TEXT;
    }

    /** The narrowest type holding both. */
    CsvColumnType widen(CsvColumnType other) {
        if (other == null || other == this) {
            return this;
        }
        if ((this == INTEGER && other == FLOAT) || (this == FLOAT && other == INTEGER)) {
            return FLOAT;
        }
        if ((this == DATE && other == DATETIME) || (this == DATETIME && other == DATE)) {
            return DATETIME;
        }
        return TEXT;
    }

    /** The bind value of a raw CSV value for a column of this type (blank = null). */
    Object value(String raw) {
        if (raw == null || raw.isBlank()) {
            return this == TEXT && raw != null && !raw.isEmpty() ? raw : null;
        }
        String v = raw.trim();
        return switch (this) {
            case BOOLEAN -> v.equalsIgnoreCase("true") || v.equalsIgnoreCase("yes");
            case INTEGER -> Long.parseLong(v.startsWith("+") ? v.substring(1) : v);
            case FLOAT -> Double.parseDouble(v);
            case DATE -> LocalDate.parse(v);
            case DATETIME -> v.length() == 10 ? LocalDate.parse(v).atStartOfDay() : LocalDateTime.parse(v.replace(' ', 'T'));
            case TEXT -> raw;
        };
    }

    private static boolean parses(Runnable parse) {
        try {
            parse.run();
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
