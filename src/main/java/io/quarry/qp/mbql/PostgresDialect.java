package io.quarry.qp.mbql;

/** PostgreSQL. */
final class PostgresDialect extends AnsiDialect {
    @Override
    public String engine() {
        return "postgres";
    }

    @Override
    public int maxIdentifierLength() {
        return 63;
    }

    @Override
    public Sql extract(Part part, Sql expr) {
        // EXTRACT answers numeric (with fractions for seconds): integers, as the other engines give.
        if (part == Part.SECOND) {
            return Sql.format("CAST(FLOOR(EXTRACT(SECOND FROM %s)) AS INTEGER)", expr);
        }
        return Sql.format("CAST(%s AS INTEGER)", super.extract(part, expr));
    }

    @Override
    public Sql addInterval(Sql expr, long amount, TemporalUnit unit) {
        String interval = intervalLiteral(amount, unit);
        return Sql.format("(%s + INTERVAL '" + interval + "')", expr);
    }

    @Override
    public Sql secondsBetween(Sql from, Sql to) {
        return Sql.format("EXTRACT(EPOCH FROM (CAST(%s AS TIMESTAMP) - CAST(%s AS TIMESTAMP)))", to, from);
    }

    @Override
    public Sql toText(Sql expr) {
        return Sql.format("CAST(%s AS TEXT)", expr);
    }

    @Override
    public Sql substring(Sql text, Sql start, Sql length) {
        // Bound numbers arrive as bigint; SUBSTRING takes integers.
        return length == null ? Sql.format("SUBSTRING(%s FROM CAST(%s AS INTEGER))", text, start)
                : Sql.format("SUBSTRING(%s FROM CAST(%s AS INTEGER) FOR CAST(%s AS INTEGER))", text, start, length);
    }

    @Override
    public Sql log10(Sql expr) {
        return Sql.format("LOG(%s)", expr);
    }

    @Override
    public Sql power(Sql base, Sql exponent) {
        return Sql.format("POWER(CAST(%s AS DOUBLE PRECISION), CAST(%s AS DOUBLE PRECISION))", base, exponent);
    }

    @Override
    public Sql unixSecondsToTimestamp(Sql seconds) {
        return Sql.format("TO_TIMESTAMP(%s)", seconds);
    }
}
