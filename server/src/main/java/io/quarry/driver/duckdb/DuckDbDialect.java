package io.quarry.driver.duckdb;

import io.quarry.driver.AnsiDialect;
import io.quarry.driver.Sql;

/** DuckDB. */
public final class DuckDbDialect extends AnsiDialect {
    public DuckDbDialect() {
        super("duckdb", "DuckDB", DuckDbDriver.FEATURES);
    }

    @Override
    public Sql extract(Part part, Sql expr) {
        return Sql.format("CAST(%s AS INTEGER)", super.extract(part, expr));
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
    public boolean insertReturning() {
        return true;
    }
}
