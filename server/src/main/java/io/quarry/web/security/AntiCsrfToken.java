package io.quarry.web.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Metabase's anti-CSRF token ({@code X-Metabase-Anti-CSRF-Token}, 32 hex digits) for sessions whose cookie is
 * {@code SameSite=None}, which a browser sends along with requests from any site. Quarry derives it from the session id
 * (an HMAC keyed by the id) instead of storing it: only who holds the session id, or was handed the token by Quarry,
 * knows it, and nothing is kept besides the session.
 */
public final class AntiCsrfToken {
    public static final String HEADER = "X-Metabase-Anti-CSRF-Token";
    private static final byte[] PURPOSE = "quarry anti-CSRF token".getBytes(StandardCharsets.UTF_8);

    private AntiCsrfToken() {
    }

    /** The token of the session {@code sessionId}. */
    public static String of(String sessionId) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(sessionId.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] digest = mac.doFinal(PURPOSE);
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }

    /** Whether {@code presented} is the token of the session {@code sessionId} (compared in constant time). */
    public static boolean matches(String sessionId, String presented) {
        if (sessionId == null || presented == null) {
            return false;
        }
        return MessageDigest.isEqual(of(sessionId).getBytes(StandardCharsets.US_ASCII),
                presented.trim().getBytes(StandardCharsets.US_ASCII));
    }
}
