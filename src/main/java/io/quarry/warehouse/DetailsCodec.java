package io.quarry.warehouse;

import com.fasterxml.jackson.core.type.TypeReference;
import io.quarry.web.Json;
import java.util.LinkedHashMap;
import java.util.Map;

/** Turns connection details into the stored column text and back. */
public class DetailsCodec {
    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() { };

    public String encode(Map<String, Object> details) {
        return Json.write(details);
    }

    public Map<String, Object> decode(String stored) {
        try {
            return stored == null ? new LinkedHashMap<>() : Json.MAPPER.readValue(stored, MAP);
        } catch (Exception e) {
            throw new IllegalStateException("Stored database details cannot be read", e);
        }
    }
}
