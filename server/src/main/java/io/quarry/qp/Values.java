package io.quarry.qp;

import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Clob;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Base64;

/** JDBC values as the plain Java values writers understand (java.time, numbers, strings, booleans, lists). */
public final class Values {
    private Values() {
    }

    public static Object normalize(Object value) throws SQLException {
        // The usual values first, by exact class: checking a value against interfaces (Clob, Array) row after row
        // is measurably slow on HotSpot.
        if (value == null || value instanceof String || value instanceof Long || value instanceof Integer
                || value instanceof BigDecimal || value instanceof Double || value instanceof Boolean
                || value instanceof LocalDateTime || value instanceof LocalDate || value instanceof OffsetDateTime) {
            return value;
        }
        if (value instanceof Timestamp ts) {
            return ts.toLocalDateTime();
        }
        if (value instanceof java.sql.Date date) {
            return date.toLocalDate();
        }
        if (value instanceof java.sql.Time time) {
            return time.toLocalTime();
        }
        if (value instanceof java.time.ZonedDateTime zoned) {
            return zoned.toOffsetDateTime();
        }
        if (value instanceof java.time.Instant instant) {
            return instant.atOffset(ZoneOffset.UTC);
        }
        if (value instanceof Clob clob) {
            try (Reader reader = clob.getCharacterStream()) {
                StringBuilder text = new StringBuilder();
                char[] buffer = new char[8192];
                int n;
                while ((n = reader.read(buffer)) > 0) {
                    text.append(buffer, 0, n);
                }
                return text.toString();
            } catch (IOException e) {
                throw new SQLException("Could not read a text value", e);
            }
        }
        if (value instanceof byte[] bytes) {
            return Base64.getEncoder().encodeToString(bytes);
        }
        if (value instanceof Array array) {
            Object[] items = (Object[]) array.getArray();
            Object[] normalized = new Object[items.length];
            for (int i = 0; i < items.length; i++) {
                normalized[i] = normalize(items[i]);
            }
            return Arrays.asList(normalized);
        }
        if (value instanceof java.util.UUID || value instanceof Character) {
            return value.toString();
        }
        if (value instanceof Number || value instanceof String || value instanceof Boolean || value instanceof LocalDate
                || value instanceof LocalDateTime || value instanceof OffsetDateTime || value instanceof java.time.LocalTime
                || value instanceof java.time.OffsetTime) {
            return value;
        }
        // Driver-specific objects (PGobject for json, intervals, ...): their text form.
        return value.toString();
    }
}
