package io.quarry.driver;

import java.util.Locale;

/** Capabilities an engine may have; asked for by feature, never by engine name. */
public enum Feature {
    NATIVE_PARAMETERS, BASIC_AGGREGATIONS, STANDARD_DEVIATION_AGGREGATIONS, EXPRESSIONS, FOREIGN_KEYS, NESTED_QUERIES,
    BINNING, CASE_SENSITIVITY_STRING_FILTER_OPTIONS, LEFT_JOIN, RIGHT_JOIN, INNER_JOIN, FULL_JOIN, REGEX, PERCENTILE_AGGREGATIONS,
    SCHEMAS, UPLOADS, ACTIONS, PERSIST_MODELS, DATETIME_DIFF, NOW, SET_TIMEZONE, CONVERT_TIMEZONE;

    /** Metabase's keyword ({@code basic-aggregations}). */
    public String keyword() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
