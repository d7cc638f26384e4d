package io.quarry.qp;

/**
 * A query that could not run, with Metabase's error type: client errors (an invalid query, a missing parameter or
 * permission) answer 4xx; the database refusing the SQL is also the caller's to fix (400); Quarry's own faults 500.
 */
public final class QueryFailure extends RuntimeException {
    public enum Type {
        INVALID_QUERY("invalid-query", 400),
        MISSING_REQUIRED_PARAMETER("missing-required-parameter", 400),
        MISSING_PERMISSIONS("missing-required-permissions", 403),
        DRIVER("driver", 400),
        TIMED_OUT("timed-out", 400),
        QP("qp", 500);

        public final String key;
        public final int status;

        Type(String key, int status) {
            this.key = key;
            this.status = status;
        }
    }

    private final Type type;
    private final String sqlState;

    public QueryFailure(Type type, String message) {
        this(type, message, null, null);
    }

    public QueryFailure(Type type, String message, String sqlState, Throwable cause) {
        super(message, cause);
        this.type = type;
        this.sqlState = sqlState;
    }

    public Type type() {
        return type;
    }

    public String sqlState() {
        return sqlState;
    }
}
