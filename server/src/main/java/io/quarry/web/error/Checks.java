package io.quarry.web.error;

/** Guards that throw the standard Metabase errors, so services read as a list of conditions. */
public final class Checks {
    private Checks() {
    }

    /** 404 "Not found." when {@code value} is null. */
    public static <T> T found(T value) {
        if (value == null) {
            throw ApiException.notFound();
        }
        return value;
    }

    /** 403 "You don't have permissions to do that." unless {@code allowed}. */
    public static void permitted(boolean allowed) {
        if (!allowed) {
            throw ApiException.forbidden();
        }
    }

    /** 400 with a plain-text message unless {@code condition}. */
    public static void check(boolean condition, String message) {
        if (!condition) {
            throw ApiException.badRequest(message);
        }
    }
}
