package io.quarry.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Currency;
import java.util.List;
import java.util.Locale;

/**
 * How one column's values are written in a table or a scalar: the result's types (dates at the column's granularity,
 * numbers grouped) refined by the card's {@code column_settings} for that column as Metabase stores them (keyed
 * {@code ["name","<column>"]}): {@code column_title}, {@code number_style} (decimal, percent, scientific, currency),
 * {@code currency} and {@code currency_style}, {@code currency_in_header}, {@code decimals}, {@code scale},
 * {@code prefix} and {@code suffix}. Settings keyed by a field reference ({@code ["ref",["field",12,null]]}) are not
 * matched: the renderer's columns carry no field ids.
 */
final class ColumnFormat {
    private final Tabular.Column col;
    private final Formats.Granularity granularity;
    private final JsonNode settings;

    private ColumnFormat(Tabular.Column col, Formats.Granularity granularity, JsonNode settings) {
        this.col = col;
        this.granularity = granularity;
        this.settings = settings;
    }

    /** The format of a column, given the card's visualization settings and the column's values (for dates). */
    static ColumnFormat of(JsonNode vizSettings, Tabular.Column col, List<Object> values) {
        JsonNode own = vizSettings == null ? MissingNode.getInstance()
                : vizSettings.path("column_settings").path("[\"name\",\"" + col.name().replace("\"", "\\\"") + "\"]");
        return new ColumnFormat(col, col.temporal() && !values.isEmpty() ? Formats.Granularity.of(values) : null,
                own.isObject() ? own : MissingNode.getInstance());
    }

    /** The header: {@code column_title}, else the column's label; with the currency when it goes in the header. */
    String title() {
        String title = ChartModel.text(settings.path("column_title"));
        title = title != null ? title : col.label();
        if (currency() != null && settings.path("currency_in_header").asBoolean(true)) {
            title += " (" + currencySymbol() + ")";
        }
        return title;
    }

    /** A value in a table cell (currency in the header unless told otherwise). */
    String cell(Object value) {
        return write(value, !settings.path("currency_in_header").asBoolean(true));
    }

    /** A value on its own (a scalar): the currency written with it. */
    String single(Object value) {
        return write(value, true);
    }

    private String write(Object value, boolean withCurrency) {
        if (value == null) {
            return "";
        }
        if (!(value instanceof Number number) || Formats.decimal(number) == null) {
            return Formats.value(value, col, granularity);
        }
        BigDecimal decimal = Formats.decimal(number);
        if (settings.path("scale").isNumber()) {
            decimal = decimal.multiply(settings.path("scale").decimalValue());
        }
        String style = ChartModel.text(settings.path("number_style"));
        boolean percent = "percent".equals(style) || (style == null && ColumnTypes.percentage(col));
        Integer decimals = settings.path("decimals").isIntegralNumber() ? Math.max(0, Math.min(10, settings.path("decimals").asInt()))
                : null;
        String text;
        if ("scientific".equals(style)) {
            text = new DecimalFormat(decimals == null ? "0.##E0" : "0." + "0".repeat(decimals) + "E0",
                    DecimalFormatSymbols.getInstance(Locale.US)).format(decimal);
        } else if (percent) {
            text = fixed(decimal.movePointRight(2), decimals, 2) + "%";
        } else if (currency() != null) {
            text = fixed(decimal, decimals == null ? 2 : decimals, 2);
            if (withCurrency) {
                String symbol = currencySymbol();
                boolean negative = text.startsWith("-");
                text = (negative ? "-" : "") + symbol + (symbol.length() > 1 && Character.isLetter(symbol.charAt(symbol.length() - 1))
                        ? " " : "") + (negative ? text.substring(1) : text);
            }
        } else if (decimals != null) {
            text = fixed(decimal, decimals, decimals);
        } else {
            text = Formats.number(decimal, false);
        }
        String prefix = ChartModel.text(settings.path("prefix"));
        String suffix = ChartModel.text(settings.path("suffix"));
        return (prefix == null ? "" : prefix) + text + (suffix == null ? "" : suffix);
    }

    /** The column's currency when it is shown as money ({@code number_style: currency}), else null. */
    private String currency() {
        if (!"currency".equals(ChartModel.text(settings.path("number_style")))) {
            return null;
        }
        String code = ChartModel.text(settings.path("currency"));
        return code == null ? "USD" : code;
    }

    private String currencySymbol() {
        String code = currency();
        String style = ChartModel.text(settings.path("currency_style"));
        if ("code".equals(style)) {
            return code;
        }
        try {
            Currency currency = Currency.getInstance(code);
            return "name".equals(style) ? currency.getDisplayName(Locale.US) : currency.getSymbol(Locale.US);
        } catch (IllegalArgumentException e) {
            return code;
        }
    }

    /** Grouped, with {@code decimals} places exactly, or up to {@code max} when not given. */
    private static String fixed(BigDecimal value, Integer decimals, int max) {
        DecimalFormat format = new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.US));
        format.setRoundingMode(RoundingMode.HALF_UP);
        if (decimals != null) {
            format.setMinimumFractionDigits(decimals);
            format.setMaximumFractionDigits(decimals);
        } else {
            format.setMaximumFractionDigits(max);
        }
        return format.format(value);
    }
}
