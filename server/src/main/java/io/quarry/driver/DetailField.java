package io.quarry.driver;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * One field of an engine's connection form, as Metabase's {@code details-fields} describe it to clients
 * ({@code {"name": "host", "display-name": "Host", "type": "string", "required": true, ...}}).
 */
public record DetailField(String name, String displayName, String type, boolean required, Object defaultValue,
                          String placeholder, boolean secret) {
    /** Detail keys Metabase treats as secrets whatever the engine. */
    public static final Set<String> DEFAULT_SECRETS = Set.of("password", "pass", "tunnel-pass", "tunnel-private-key",
            "tunnel-private-key-passphrase", "access-token", "refresh-token", "service-account-json");

    public static DetailField text(String name, String displayName, boolean required, String placeholder) {
        return new DetailField(name, displayName, "string", required, null, placeholder, false);
    }

    public static DetailField integer(String name, String displayName, Object defaultValue) {
        return new DetailField(name, displayName, "integer", false, defaultValue, String.valueOf(defaultValue), false);
    }

    public static DetailField bool(String name, String displayName, boolean defaultValue) {
        return new DetailField(name, displayName, "boolean", false, defaultValue, null, false);
    }

    public static DetailField password(String name, String displayName) {
        return new DetailField(name, displayName, "password", false, null, null, true);
    }

    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", name);
        json.put("display-name", displayName);
        json.put("type", type);
        if (required) {
            json.put("required", true);
        }
        if (defaultValue != null) {
            json.put("default", defaultValue);
        }
        if (placeholder != null) {
            json.put("placeholder", placeholder);
        }
        return json;
    }
}
