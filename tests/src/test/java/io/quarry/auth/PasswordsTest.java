package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.core.AppConfig;
import io.quarry.web.error.ApiException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class PasswordsTest {
    private static Passwords passwords(Map<String, String> config) {
        Map<String, String> all = new java.util.HashMap<>(config);
        all.putIfAbsent("MB_DB_TYPE", "h2");
        return new Passwords(new AppConfig(all::get));
    }

    @Test
    void theShippedListIsRealAndAttributed() throws Exception {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(
                Objects.requireNonNull(Passwords.class.getResourceAsStream("common-passwords.txt")), StandardCharsets.UTF_8))) {
            String header = reader.readLine();
            assertTrue(header.startsWith("#") && header.contains("zxcvbn") && header.contains("MIT"), header);
            long words = reader.lines().filter(line -> !line.isBlank() && !line.startsWith("#")).count();
            assertTrue(words >= 10_000, "only " + words + " passwords");
        }
    }

    @Test
    void commonPasswordsAreRejectedWhateverTheirCase() {
        Passwords p = passwords(Map.of());
        for (String common : new String[]{"password1", "qwerty123", "Password1", "QWERTY123", "trustno1", "1qaz2wsx", "passw0rd"}) {
            assertFalse(p.isValid(common), common);
        }
    }

    @Test
    void strongRandomPasswordsAreAccepted() {
        Passwords p = passwords(Map.of());
        assertTrue(p.isValid("Blue-berry-42"));
        assertTrue(p.isValid("x7#Kq9!vR2mZ"));
        assertTrue(p.isValid(java.util.UUID.randomUUID().toString()));
    }

    @Test
    void theNormalRuleNeedsSixCharactersAndADigit() {
        Passwords p = passwords(Map.of());
        assertFalse(p.isValid("zq8x"), "too short");
        assertFalse(p.isValid("zqxwvutsrq"), "no digit");
        assertEquals(Map.of("total", 6, "digit", 1), p.rule());
        ApiException e = org.junit.jupiter.api.Assertions.assertThrows(ApiException.class,
                (Executable) () -> p.requireValid("password", "password1"));
        assertEquals(Map.of("errors", Map.of("password", "password is too common.")), e.body());
    }

    @Test
    void weakComplexitySkipsTheCommonList() {
        Passwords weak = passwords(Map.of("MB_PASSWORD_COMPLEXITY", "weak"));
        assertTrue(weak.isValid("password1"), "Metabase skips the common-password check when complexity is weak");
        assertFalse(weak.isValid("abc"));
    }
}
