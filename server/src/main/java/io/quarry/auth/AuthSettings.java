package io.quarry.auth;

import static io.quarry.setting.Setting.Type.BOOLEAN;
import static io.quarry.setting.Setting.Type.STRING;
import static io.quarry.setting.Setting.Visibility.ADMIN;

import io.quarry.setting.Setting;
import io.quarry.setting.Settings;
import io.quarry.web.error.ApiException;

/**
 * Settings of sign-in by an external identity provider's JWT ({@code POST /api/session/external_auth}), named as
 * Metabase names its JWT single-sign-on settings so that {@code MB_JWT_*} environment variables carry over.
 */
public final class AuthSettings {
    private AuthSettings() {
    }

    public static void register(Settings s) {
        s.register(
                Setting.of("jwt-enabled", BOOLEAN).visibility(ADMIN).defaultValue(false)
                        .description("Is JWT authentication configured and enabled?").build(),
                Setting.of("jwt-shared-secret", STRING).visibility(ADMIN).sensitive()
                        .description("Secret shared with the identity provider to verify HS256/HS384/HS512 tokens. "
                                + "A random 256-bit value (64 hexadecimal characters) is recommended.").build(),
                Setting.of("jwt-public-key", STRING).visibility(ADMIN)
                        .description("PEM-encoded RSA public key (-----BEGIN PUBLIC KEY-----) of the identity provider, to "
                                + "verify RS256/RS384/RS512 tokens. When set, only RSA-signed tokens are accepted.")
                        .normalize(AuthSettings::normalizePublicKey).build(),
                Setting.of("jwt-issuer", STRING).visibility(ADMIN)
                        .description("When set, a token's \"iss\" claim must equal it.").build(),
                Setting.of("jwt-audience", STRING).visibility(ADMIN)
                        .description("When set, a token's \"aud\" claim must contain it.").build(),
                Setting.of("jwt-attribute-email", STRING).visibility(ADMIN).defaultValue("email")
                        .description("Key of the token claim that holds the user's email address.").build(),
                Setting.of("jwt-attribute-firstname", STRING).visibility(ADMIN).defaultValue("first_name")
                        .description("Key of the token claim that holds the user's first name.").build(),
                Setting.of("jwt-attribute-lastname", STRING).visibility(ADMIN).defaultValue("last_name")
                        .description("Key of the token claim that holds the user's last name.").build(),
                Setting.of("jwt-user-provisioning-enabled?", BOOLEAN).visibility(ADMIN).defaultValue(true)
                        .description("When a token names an unknown user, create the account.").build(),
                Setting.of("jwt-configured", BOOLEAN).visibility(ADMIN)
                        .computed(() -> s.string("jwt-shared-secret") != null || s.string("jwt-public-key") != null).build());
    }

    static Object normalizePublicKey(Object value) {
        String pem = value.toString().trim();
        if (pem.isEmpty()) {
            return null;
        }
        try {
            Jwts.parsePublicKey(pem);
        } catch (IllegalArgumentException e) {
            throw ApiException.invalidField("jwt-public-key", e.getMessage());
        }
        return pem;
    }
}
