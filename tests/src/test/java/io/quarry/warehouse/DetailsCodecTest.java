package io.quarry.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Details at rest: plain JSON without a key; AES-GCM with one, never silently unreadable. */
class DetailsCodecTest {
    private static final io.quarry.driver.Driver POSTGRES = new io.quarry.driver.postgres.PostgresDriver();
    private static final String KEY = "correct horse battery staple";
    private static final Map<String, Object> DETAILS = new LinkedHashMap<>(Map.of("host", "db.example.com", "password", "hunter2-very-secret",
            "port", 5432));

    @Test
    void encryptsWithAFreshIvEveryTime() {
        EncryptedDetailsCodec codec = new EncryptedDetailsCodec(KEY);
        String a = codec.encode(DETAILS);
        String b = codec.encode(DETAILS);
        assertTrue(a.startsWith("qenc1:"));
        assertNotEquals(a, b, "a random IV per write");
        assertFalse(a.contains("hunter2"));
        assertFalse(a.contains("db.example.com"));
        byte[] raw = Base64.getDecoder().decode(a.substring("qenc1:".length()));
        assertTrue(raw.length >= 12 + 16, "IV and tag stored");
        assertEquals(DETAILS, codec.decode(a));
        assertEquals(DETAILS, new EncryptedDetailsCodec(KEY).decode(b), "the key derives the same on every start");
    }

    @Test
    void plainRowsWrittenBeforeTheKeyStillRead() {
        String plain = new DetailsCodec().encode(DETAILS);
        assertEquals(DETAILS, new EncryptedDetailsCodec(KEY).decode(plain));
    }

    @Test
    void aWrongKeyOrAnAlteredRowFailsLoudly() {
        String stored = new EncryptedDetailsCodec(KEY).encode(DETAILS);
        IllegalStateException wrong = assertThrows(IllegalStateException.class, () -> new EncryptedDetailsCodec("another key of 16+ chars").decode(stored));
        assertTrue(wrong.getMessage().contains("MB_ENCRYPTION_SECRET_KEY"), wrong.getMessage());
        byte[] raw = Base64.getDecoder().decode(stored.substring("qenc1:".length()));
        raw[raw.length - 1] ^= 1;
        String altered = "qenc1:" + Base64.getEncoder().encodeToString(raw);
        assertThrows(IllegalStateException.class, () -> new EncryptedDetailsCodec(KEY).decode(altered));
        assertThrows(IllegalStateException.class, () -> new EncryptedDetailsCodec(KEY).decode("qenc1:!!!"));
        assertThrows(IllegalStateException.class, () -> new EncryptedDetailsCodec(KEY).decode("qenc1:AAAA"));
        IllegalStateException noKey = assertThrows(IllegalStateException.class, () -> new DetailsCodec().decode(stored));
        assertTrue(noKey.getMessage().contains("MB_ENCRYPTION_SECRET_KEY is not set"));
        assertFalse(noKey.getMessage().contains("qenc1"), "the stored text is not echoed");
    }

    @Test
    void keysAreAtLeastSixteenCharacters() {
        assertThrows(IllegalStateException.class, () -> new EncryptedDetailsCodec("short"));
        assertTrue(DetailsCodec.forKey(KEY) instanceof EncryptedDetailsCodec);
        assertFalse(DetailsCodec.forKey(null) instanceof EncryptedDetailsCodec);
    }

    @Test
    void secretsSentBackAsThePlaceholderKeepTheirStoredValue() {
        Map<String, Object> stored = Map.of("host", "a", "password", "old-secret", "user", "ada");
        Map<String, Object> merged = DatabaseService.mergeDetails(POSTGRES, stored, Map.of("host", "b", "password", DatabaseViews.REDACTED));
        assertEquals(Map.of("host", "b", "password", "old-secret", "user", "ada"), merged);
        assertEquals("new", DatabaseService.mergeDetails(POSTGRES, stored, Map.of("password", "new")).get("password"));
        assertFalse(DatabaseService.mergeDetails(POSTGRES, Map.of(), Map.of("password", DatabaseViews.REDACTED)).containsKey("password"),
                "the placeholder itself is never stored");
        assertTrue(DatabaseService.sameDetails(Map.of("port", 5432), Map.of("port", 5432)));
        assertFalse(DatabaseService.sameDetails(Map.of("port", 5432), Map.of("port", 5433)));
    }
}
