package io.quarry.timeline;

import io.quarry.web.param.Validation;
import io.quarry.web.error.ApiException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/** Query parameters of the timeline endpoints: {@code include=events} and date windows. */
final class TimelineParams {
    private TimelineParams() {
    }

    static boolean include(String include) {
        if (include == null || include.isEmpty()) {
            return false;
        }
        Validation.optEnum("include", include, "events");
        return true;
    }

    static OffsetDateTime date(String name, String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        OffsetDateTime parsed = TimelineService.parseTemporal(value);
        if (parsed == null) {
            throw ApiException.withErrors(400, Map.of(name, "nullable value must be a valid date string"),
                    Map.of(name, List.of("should be a valid date string, received: \"" + value + "\"")));
        }
        return parsed;
    }
}
