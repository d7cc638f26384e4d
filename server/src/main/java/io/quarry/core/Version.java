package io.quarry.core;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The version Quarry reports. The tag names the Metabase API release Quarry speaks (clients check it to pick
 * features); the hash and branch say it is Quarry and which build.
 */
public final class Version {
    private static final Properties PROPS = load();

    private Version() {
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("/quarry-version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException ignored) {
            // defaults below
        }
        return p;
    }

    public static String quarryVersion() {
        return PROPS.getProperty("version", "dev");
    }

    public static Map<String, Object> asMap() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("tag", "v0.63.0");
        v.put("hash", "quarry-" + quarryVersion());
        v.put("date", PROPS.getProperty("date", "unknown"));
        v.put("branch", "quarry");
        return v;
    }
}
