package io.quarry.notification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.junit.jupiter.api.Test;

class UnsubscribeHashTest {
    private static final String SALT = "08534993-94c6-4bac-a1ad-86c9668ee8f5";
    // Metabase's own test vector (COMPAT.md §10.2).
    private static final String EXPECTED = "37bc76b4a24279eb90a71c129a629fb8626ad0089f119d6d095bc5135377f2e2"
            + "884ad80b037495f1962a283cf57cdbad031fd1f06a21d86a40bba7fe674802dd";

    @Test
    void matchesMetabasesTestVector() {
        assertEquals(EXPECTED, UnsubscribeHash.of(SALT, "rasta@pasta.com", 12345678));
        assertTrue(UnsubscribeHash.matches(SALT, "rasta@pasta.com", 12345678, EXPECTED));
    }

    @Test
    void anyChangedInputChangesTheHash() {
        assertFalse(UnsubscribeHash.matches(SALT, "rasta@pasta.com", 12345679, EXPECTED));
        assertFalse(UnsubscribeHash.matches(SALT, "Rasta@pasta.com", 12345678, EXPECTED));
        assertFalse(UnsubscribeHash.matches("00000000-94c6-4bac-a1ad-86c9668ee8f5", "rasta@pasta.com", 12345678, EXPECTED));
        assertFalse(UnsubscribeHash.matches(SALT, "rasta@pasta.com", 12345678, EXPECTED.toUpperCase()));
        assertFalse(UnsubscribeHash.matches(SALT, "rasta@pasta.com", 12345678, null));
        assertFalse(UnsubscribeHash.matches(SALT, null, 12345678, EXPECTED));
    }

    @Test
    void handRolledPbkdf2AgreesWithTheJdkForANonEmptySalt() throws Exception {
        // The JDK refuses the empty salt, so the loop itself is checked against it with a salt it accepts.
        String password = "{\"salt\":\"x\",\"email\":\"é@example.com\"}";
        byte[] salt = {1, 2, 3, 4};
        PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, 1000, 512);
        byte[] jdk = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA512").generateSecret(spec).getEncoded();
        byte[] ours = UnsubscribeHash.pbkdf2Sha512(password.getBytes(StandardCharsets.UTF_8), salt, 1000);
        assertEquals(HexFormat.of().formatHex(jdk), HexFormat.of().formatHex(ours));
    }
}
