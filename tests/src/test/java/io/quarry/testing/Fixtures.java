package io.quarry.testing;

import java.util.Map;

/** Common steps of HTTP tests. */
public final class Fixtures {
    public static final String ADMIN_EMAIL = "crowberto@example.com";
    public static final String ADMIN_PASSWORD = "Blue-berry-42";

    private Fixtures() {
    }

    /** Runs first-run setup through the API and returns the administrator's session id. */
    public static String setUp(Api api) {
        String token = api.get(200, "session/properties").json().get("setup-token").asText();
        return api.post(200, "setup", Map.of(
                "token", token,
                "user", Map.of("email", ADMIN_EMAIL, "password", ADMIN_PASSWORD, "first_name", "Crowberto", "last_name", "Corv"),
                "prefs", Map.of("site_name", "Quarry Test", "site_locale", "en"))).json().get("id").asText();
    }

    /** A caller without admin rights: a new API key in the All Users group, created by {@code admin}. */
    public static Api ordinaryCaller(Api anonymous, Api admin) {
        String key = admin.post(200, "api-key", Map.of("name", "Ordinary", "group_id", 1)).json().get("unmasked_key").asText();
        return anonymous.withApiKey(key);
    }

    /** Signs in and returns the session id. */
    public static String login(Api api, String email, String password) {
        return api.post(200, "session", Map.of("username", email, "password", password)).json().get("id").asText();
    }
}
