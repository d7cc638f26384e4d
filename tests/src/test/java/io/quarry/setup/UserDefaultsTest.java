package io.quarry.setup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quarry.web.error.ApiException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UserDefaultsTest {
    private static int status(String configured, String token) {
        return assertThrows(ApiException.class, () -> SetupService.userDefaults(configured, token)).status();
    }

    @Test
    void notConfiguredOrWithoutTokenIsNotFound() {
        assertEquals(404, status(null, "123456"));
        assertEquals(404, status("{}", "123456"));
        assertEquals(404, status("{\"email\":\"john.doe@example.com\"}", null));
        assertEquals(404, status("not json", "123456"));
        assertEquals(404, status("[1,2]", "123456"));
    }

    @Test
    void aWrongOrMissingTokenIsForbidden() {
        String configured = "{\"token\":\"123456\",\"email\":\"john.doe@example.com\"}";
        assertEquals(403, status(configured, "987654"));
        assertEquals(403, status(configured, null));
        assertEquals(403, status(configured, ""));
    }

    @Test
    void theRightTokenGetsTheDefaultsWithoutTheToken() {
        assertEquals(Map.of("email", "john.doe@example.com", "first_name", "John"),
                SetupService.userDefaults("{\"token\":\"123456\",\"email\":\"john.doe@example.com\",\"first_name\":\"John\"}", "123456"));
    }
}
