package io.quarry.user;

import io.quarry.web.error.ApiException;
import io.quarry.web.param.ParamRule;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code limit} / {@code offset} query parameters as Metabase's paging middleware reads them: when neither is sent the
 * list is not paged (both null); when either is, the other defaults (limit 50, offset 0). Each must be a non-negative
 * integer, else a 400 naming it.
 */
record Paging(Integer limit, Integer offset) {
    static final int DEFAULT_LIMIT = 50;

    static Paging of(String limit, String offset) {
        if (limit == null && offset == null) {
            return new Paging(null, null);
        }
        return new Paging(limit == null ? DEFAULT_LIMIT : parse("limit", limit), offset == null ? 0 : parse("offset", offset));
    }

    private static int parse(String name, String raw) {
        try {
            return Integer.parseUnsignedInt(raw.trim());
        } catch (NumberFormatException e) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("errors", Map.of(name, ParamRule.NON_NEGATIVE_INT.message(true)));
            body.put("specific-errors", Map.of(name, List.of(ParamRule.NON_NEGATIVE_INT.specific(raw))));
            body.put("message", "Error parsing paging parameters: " + e.getMessage());
            throw new ApiException(400, "Invalid field: " + name, body);
        }
    }
}
