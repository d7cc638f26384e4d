package io.quarry.warehouse;

import com.fasterxml.jackson.core.type.TypeReference;
import io.quarry.core.Json;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns connection details into the stored column text and back: JSON. {@link EncryptedDetailsCodec} encrypts instead
 * when {@code MB_ENCRYPTION_SECRET_KEY} is set; this one refuses to read what that one wrote, loudly, rather than
 * pretend a database has no details.
 */
public class DetailsCodec {
    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() { };

    /** The codec for a deployment: encrypting when {@code MB_ENCRYPTION_SECRET_KEY} is set (non-null), plain otherwise. */
    public static DetailsCodec forKey(String encryptionSecretKey) {
        return forKey(encryptionSecretKey, EncryptedDetailsCodec.DATABASE_DETAILS);
    }

    /** As {@link #forKey(String)} for another column of secrets ({@code table.column}), with a key of its own. */
    public static DetailsCodec forKey(String encryptionSecretKey, String column) {
        return encryptionSecretKey == null ? new DetailsCodec() : new EncryptedDetailsCodec(encryptionSecretKey, column);
    }

    public String encode(Map<String, Object> details) {
        return Json.write(details);
    }

    public Map<String, Object> decode(String stored) {
        if (stored != null && stored.startsWith(EncryptedDetailsCodec.PREFIX)) {
            throw new IllegalStateException("Stored database details are encrypted, but MB_ENCRYPTION_SECRET_KEY is not set: "
                    + "start Quarry with the key they were encrypted with.");
        }
        return parse(stored);
    }

    /** Plain JSON column text as a map. */
    protected static Map<String, Object> parse(String json) {
        try {
            return json == null ? new LinkedHashMap<>() : Json.MAPPER.readValue(json, MAP);
        } catch (Exception e) {
            // never echo the text: it holds secrets
            throw new IllegalStateException("Stored database details cannot be read (not JSON)");
        }
    }
}
