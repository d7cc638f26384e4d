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
        String interval = intervalLiteral(amount, unit);
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
