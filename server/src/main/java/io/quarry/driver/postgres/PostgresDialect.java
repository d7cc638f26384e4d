package io.quarry.driver.postgres;

import io.quarry.driver.AnsiDialect;
import io.quarry.driver.Sql;

/** PostgreSQL. */
public final class PostgresDialect extends AnsiDialect {
    public PostgresDialect() {
        super("postgres", "PostgreSQL", PostgresDriver.FEATURES);
    }

    @Override
    public boolean hasUuidType() {
        return true;
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

}
