package io.quarry.qp.export;

import io.quarry.qp.Column;
import io.quarry.qp.IsoTimes;
import io.quarry.core.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * How values read as text in downloads.
 * <ul>
 * <li>Unformatted ({@code format_rows=false}, Metabase's default): dates ISO {@code 2014-04-07}; a date-time at
 * midnight as its date only, otherwise {@code 2014-04-01T08:30:00}; times {@code 08:30:00}; date-times with an offset in
 * the results time zone (UTC) {@code 2014-04-01T08:30:00Z}; numbers as Java writes them (decimals in plain notation);
 * lists as JSON.</li>
 * <li>Formatted ({@code format_rows=true}), a simple subset of Metabase's UI formatting in US English: dates
 * {@code April 7, 2014}; date-times {@code April 1, 2014, 8:30 AM}; times {@code 8:30 AM}; whole numbers with thousands
 * separators {@code 1,234,567} (not for primary or foreign keys: ids stay {@code 1234}); other numbers with separators
 * and at most two decimals {@code 1,234.57}. Currency, percentages, column titles and other visualization settings are
 * not applied.</li>
 * </ul>
 */
public final class ExportValues {
    private static final DateTimeFormatter ISO_DATE = DateTimeFormatter.ISO_LOCAL_DATE;
    private static final DateTimeFormatter ISO_DATE_TIME = DateTimeFormatter.ISO_LOCAL_DATE_TIME;
    private static final DateTimeFormatter ISO_TIME = DateTimeFormatter.ISO_LOCAL_TIME;
    private static final DateTimeFormatter ISO_OFFSET_TIME = DateTimeFormatter.ISO_OFFSET_TIME;
    private static final DateTimeFormatter HUMAN_DATE = DateTimeFormatter.ofPattern("MMMM d, yyyy", Locale.US);
    private static final DateTimeFormatter HUMAN_DATE_TIME = DateTimeFormatter.ofPattern("MMMM d, yyyy, h:mm a", Locale.US);
    private static final DateTimeFormatter HUMAN_TIME = DateTimeFormatter.ofPattern("h:mm a", Locale.US);

    private ExportValues() {
    }

    /** Turns one column's values into text; an instance may keep state (number formats) and serves one writer. */
    public interface Renderer {
        String text(Object value);
    }

    /** The renderer for a column: unformatted, or formatted as the UI would when {@code formatRows}. */
    public static Renderer renderer(Column column, boolean formatRows) {
        if (!formatRows) {
            return ExportValues::unformatted;
        }
        boolean key = "type/PK".equals(column.semanticType()) || "type/FK".equals(column.semanticType());
        DecimalFormatSymbols symbols = DecimalFormatSymbols.getInstance(Locale.US);
        DecimalFormat whole = new DecimalFormat(key ? "0" : "#,##0", symbols);
        DecimalFormat fraction = new DecimalFormat(key ? "0.##" : "#,##0.##", symbols);
        return value -> formatted(value, whole, fraction);
    }

    /** Metabase's unformatted download text of a value; null stays null. */
    public static String unformatted(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof LocalDateTime t) {
            return isoDateTime(t);
        }
        if (value instanceof LocalDate d) {
            return isoDate(d);
        }
        if (value instanceof OffsetDateTime t) {
            return IsoTimes.format(t.withOffsetSameInstant(ZoneOffset.UTC));
        }
        if (value instanceof LocalTime t) {
            return ISO_TIME.format(t);
        }
        if (value instanceof OffsetTime t) {
            return ISO_OFFSET_TIME.format(t.withOffsetSameInstant(ZoneOffset.UTC));
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof List<?> list) {
            return Json.write(list);
        }
        return value.toString();
    }

    // Downloads write a date or two per row: plain digit arithmetic is several times faster than a DateTimeFormatter.

    static String isoDate(LocalDate date) {
        int year = date.getYear();
        if (year < 0 || year > 9999) {
            return ISO_DATE.format(date);
        }
        char[] text = new char[10];
        IsoTimes.putDate(text, year, date.getMonthValue(), date.getDayOfMonth());
        return new String(text);
    }

    static String isoDateTime(LocalDateTime t) {
        int year = t.getYear();
        if (year < 0 || year > 9999 || t.getNano() != 0) {
            return t.toLocalTime().equals(LocalTime.MIDNIGHT) ? ISO_DATE.format(t) : ISO_DATE_TIME.format(t);
        }
        if (t.getHour() == 0 && t.getMinute() == 0 && t.getSecond() == 0) {
            return isoDate(t.toLocalDate());
        }
        char[] text = new char[19];
        IsoTimes.putDate(text, year, t.getMonthValue(), t.getDayOfMonth());
        text[10] = 'T';
        IsoTimes.putTime(text, 11, t.getHour(), t.getMinute(), t.getSecond());
        return new String(text);
    }

    private static String formatted(Object value, DecimalFormat whole, DecimalFormat fraction) {
        if (value instanceof LocalDateTime t) {
            return HUMAN_DATE_TIME.format(t);
        }
        if (value instanceof LocalDate d) {
            return HUMAN_DATE.format(d);
        }
        if (value instanceof OffsetDateTime t) {
            return HUMAN_DATE_TIME.format(t.withOffsetSameInstant(ZoneOffset.UTC));
        }
        if (value instanceof LocalTime t) {
            return HUMAN_TIME.format(t);
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger) {
            return whole.format(value);
        }
        if (value instanceof BigDecimal || value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return Double.isFinite(d) ? fraction.format(value) : value.toString();
        }
        return unformatted(value);
    }

    /** True for values a JSON download writes as JSON numbers or booleans when unformatted. */
    public static boolean isJsonScalar(Object value) {
        return value instanceof Number || value instanceof Boolean;
    }
}
