package io.quarry.qp.mbql;

/** DuckDB. */
final class DuckDbDialect extends AnsiDialect {
    @Override
    public String engine() {
        return "duckdb";
    }

    @Override
    public Sql extract(Part part, Sql expr) {
        return Sql.format("CAST(%s AS INTEGER)", super.extract(part, expr));
    }

    @Override
    public Sql addInterval(Sql expr, long amount, TemporalUnit unit) {
        String interval = switch (unit) {
            case MILLISECOND -> amount + " millisecond";
            case SECOND -> amount + " second";
            case MINUTE -> amount + " minute";
            case HOUR -> amount + " hour";
            case DAY -> amount + " day";
            case WEEK -> amount * 7 + " day";
            case MONTH -> amount + " month";
            case QUARTER -> amount * 3 + " month";
            case YEAR -> amount + " year";
            default -> throw new IllegalArgumentException("Not an interval unit: " + unit.key);
        };
        return Sql.format("(%s + INTERVAL '" + interval + "')", expr);
    }

    @Override
    public Sql secondsBetween(Sql from, Sql to) {
        return Sql.format("(EPOCH(CAST(%s AS TIMESTAMP)) - EPOCH(CAST(%s AS TIMESTAMP)))", to, from);
    }

    @Override
    protected String floatType() {
        return "DOUBLE";
    }

    @Override
    public Sql median(Sql expr) {
        return Sql.format("MEDIAN(%s)", expr);
    }

    @Override
    public Sql percentile(Sql expr, double p) {
        return Sql.format("QUANTILE_CONT(%s, " + p + ")", expr);
    }

    @Override
    public Sql unixSecondsToTimestamp(Sql seconds) {
        return Sql.format("TO_TIMESTAMP(%s)", seconds);
    }
}
