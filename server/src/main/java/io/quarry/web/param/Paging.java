package io.quarry.web.param;

import io.quarry.web.error.ApiException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code limit} / {@code offset} as Metabase's paging middleware reads them: neither sent = not paged; either sent =
 * the other defaults (limit 50, offset 0); each a non-negative integer, else a 400 naming it.
 */
public record Paging(Integer limit, Integer offset) {
    public static final Paging NONE = new Paging(null, null);

    public static Paging of(String limit, String offset) {
        if (limit == null && offset == null) {
            return NONE;
        }
        return new Paging(limit == null ? 50 : parse("limit", limit), offset == null ? 0 : parse("offset", offset));
    }

    public boolean paged() {
        return limit != null;
    }

    private static int parse(String name, String raw) {
        try {
            // parseUnsignedInt would take 3000000000 and hand back a negative int: past Integer.MAX_VALUE is a 400 too
            int value = Integer.parseInt(raw.trim());
            if (value < 0) {
                throw new NumberFormatException("For input string: \"" + raw + "\"");
            }
            return value;
        } catch (NumberFormatException e) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("errors", Map.of(name, ParamRule.NON_NEGATIVE_INT.message(true)));
            body.put("specific-errors", Map.of(name, List.of(ParamRule.NON_NEGATIVE_INT.specific(raw))));
            body.put("message", "Error parsing paging parameters: " + e.getMessage());
            throw new ApiException(400, "Invalid field: " + name, body);
        }
    }
}
