package io.quarry.notification;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The hash in a subscription email's unsubscribe link, as Metabase computes it, so links keep working across the two:
 * hex of PBKDF2-HMAC-SHA512 over the JSON {@code {"salt":"<site-uuid-for-unsubscribing-url>","email":"…","pulse-id":N}}
 * (that key order, no spaces), with an empty salt, 100,000 iterations and a 64-byte result.
 */
public final class UnsubscribeHash {
    private static final int ITERATIONS = 100_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private UnsubscribeHash() {
    }

    public static String of(String siteSalt, String email, long pulseId) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("salt", siteSalt);
        payload.put("email", email);
        payload.put("pulse-id", pulseId);
        try {
            return HexFormat.of().formatHex(pbkdf2Sha512(JSON.writeValueAsBytes(payload), new byte[0], ITERATIONS));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Compares in constant time. */
    public static boolean matches(String siteSalt, String email, long pulseId, String hash) {
        if (hash == null || email == null) {
            return false;
        }
        byte[] expected = of(siteSalt, email, pulseId).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, hash.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * One 64-byte block of PBKDF2 (RFC 8018) with HMAC-SHA512. Written out because the JDK's PBKDF2WithHmacSHA512
     * refuses the empty salt Metabase uses.
     */
    static byte[] pbkdf2Sha512(byte[] password, byte[] salt, int iterations) {
        try {
            Mac mac = Mac.getInstance("HmacSHA512");
            // The password is the JSON payload, never empty (SecretKeySpec would refuse an empty key).
            mac.init(new SecretKeySpec(password, "HmacSHA512"));
            // U1 = PRF(password, salt || INT(1)); U(n) = PRF(password, U(n-1)); the block is U1 xor ... xor Uc.
            mac.update(salt);
            byte[] u = mac.doFinal(new byte[]{0, 0, 0, 1});
            byte[] result = u.clone();
            for (int i = 1; i < iterations; i++) {
                u = mac.doFinal(u);
                for (int j = 0; j < result.length; j++) {
                    result[j] ^= u[j];
                }
            }
            return result;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA512 is not available", e);
        }
    }
}
