package io.quarry.setting;

import static io.quarry.setting.Setting.Type.BOOLEAN;
import static io.quarry.setting.Setting.Type.CSV;
import static io.quarry.setting.Setting.Type.INTEGER;
import static io.quarry.setting.Setting.Type.JSON;
import static io.quarry.setting.Setting.Type.KEYWORD;
import static io.quarry.setting.Setting.Type.POSITIVE_INTEGER;
import static io.quarry.setting.Setting.Type.STRING;
import static io.quarry.setting.Setting.Visibility.ADMIN;
import static io.quarry.setting.Setting.Visibility.ADMIN_WRITE_AUTHED_READ;
import static io.quarry.setting.Setting.Visibility.AUTHENTICATED;
import static io.quarry.setting.Setting.Visibility.INTERNAL;
import static io.quarry.setting.Setting.Visibility.PUBLIC;
import static io.quarry.setting.Setting.Visibility.SETTINGS_MANAGER;

import io.quarry.core.Version;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Validation;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/** The instance-wide settings of the platform: site, setup, sign-in, sharing, email. */
public final class CoreSettings {
    /** Locales offered to users (Metabase's list); English is the only language the server's own texts come in. */
    public static final List<String> LOCALES = List.of("en", "ar", "bg", "ca", "cs", "da", "de", "el", "es", "fa", "fi", "fr",
            "he", "hu", "id", "it", "ja", "ko", "lv", "nb", "nl", "pl", "pt_BR", "ru", "sk", "sq", "sr", "sv", "th", "tr",
            "uk", "vi", "zh_CN", "zh_HK", "zh_TW");

    private CoreSettings() {
    }

    /**
     * @param peopleExist whether any user exists yet (asked until the answer is yes)
     * @param passwordRule the password complexity rule, as the {@code password-complexity} setting shows it
     */
    public static void register(Settings s, java.util.function.BooleanSupplier peopleExist,
            java.util.function.Supplier<Object> passwordRule) {
        AtomicBoolean setUp = new AtomicBoolean();
        // Once a user exists it always will: remember that rather than count users on every request.
        java.util.function.BooleanSupplier hasUserSetup = () -> {
            if (!setUp.get() && peopleExist.getAsBoolean()) {
                setUp.set(true);
            }
            return setUp.get();
        };
        String setupToken = s.initOnce("setup-token-value", () -> UUID.randomUUID().toString());
        String siteUuid = s.initOnce("site-uuid-value", () -> UUID.randomUUID().toString());
        s.initOnce("site-uuid-for-unsubscribing-url-value", () -> UUID.randomUUID().toString());
        long startedAt = System.currentTimeMillis();

        s.register(
                // values stored once per instance; read through the computed settings below
                internal("setup-token-value"), internal("site-uuid-value"), internal("site-uuid-for-unsubscribing-url-value"),
                Setting.of("setup-token", STRING).visibility(PUBLIC)
                        .computed(() -> hasUserSetup.getAsBoolean() ? null : setupToken).build(),
                Setting.of("has-user-setup", BOOLEAN).visibility(PUBLIC).computed(() -> hasUserSetup.getAsBoolean()).build(),
                Setting.of("site-uuid", STRING).visibility(AUTHENTICATED).computed(() -> siteUuid).build(),
                Setting.of("site-uuid-for-unsubscribing-url", STRING).visibility(INTERNAL)
                        .computed(() -> s.string("site-uuid-for-unsubscribing-url-value")).build(),
                Setting.of("version", JSON).visibility(PUBLIC).computed(Version::asMap).build(),
                Setting.of("startup-time-millis", INTEGER).visibility(PUBLIC).computed(() -> startedAt).build(),
                Setting.of("available-locales", JSON).visibility(PUBLIC).computed(CoreSettings::availableLocales).build(),
                Setting.of("available-timezones", JSON).visibility(PUBLIC)
                        .computed(() -> ZoneId.getAvailableZoneIds().stream().sorted().toList()).build(),
                Setting.of("password-complexity", JSON).visibility(PUBLIC).computed(passwordRule).build(),
                Setting.of("token-features", JSON).visibility(PUBLIC).computed(CoreSettings::tokenFeatures).build(),
                Setting.of("is-hosted?", BOOLEAN).visibility(PUBLIC).computed(() -> false).build(),
                Setting.of("email-configured?", BOOLEAN).visibility(PUBLIC)
                        .computed(() -> s.string("email-smtp-host") != null).build(),

                Setting.of("site-name", STRING).visibility(ADMIN_WRITE_AUTHED_READ).defaultValue("Quarry")
                        .description("The name used for this instance of Quarry.").build(),
                Setting.of("site-url", STRING).visibility(PUBLIC)
                        .description("This URL is used for things like creating links in emails.")
                        .normalize(CoreSettings::normalizeSiteUrl).build(),
                Setting.of("site-locale", STRING).visibility(PUBLIC).defaultValue("en")
                        .description("The default language for all users across the instance.")
                        .normalize(CoreSettings::normalizeSiteLocale).build(),
                Setting.of("admin-email", STRING).visibility(ADMIN_WRITE_AUTHED_READ)
                        .description("The email address users should be referred to if they encounter a problem.").build(),
                Setting.of("application-name", STRING).visibility(PUBLIC).defaultValue("Quarry").build(),
                Setting.of("anon-tracking-enabled", BOOLEAN).visibility(PUBLIC).defaultValue(false)
                        .description("Quarry sends no usage data anywhere; kept for client compatibility.").build(),
                Setting.of("check-for-updates", BOOLEAN).visibility(PUBLIC).defaultValue(false).build(),
                Setting.of("enable-password-login", BOOLEAN).visibility(PUBLIC).defaultValue(true)
                        .description("Allow logging in by email and password.").build(),
                Setting.of("start-of-week", KEYWORD).visibility(PUBLIC).defaultValue("sunday")
                        .normalize(v -> oneOf("start-of-week", v, "sunday", "monday", "tuesday", "wednesday", "thursday",
                                "friday", "saturday")).build(),
                Setting.of("custom-formatting", JSON).visibility(PUBLIC).defaultValue(Map.of()).build(),
                Setting.of("report-timezone", STRING).visibility(SETTINGS_MANAGER)
                        .normalize(v -> {
                            try {
                                return ZoneId.of(v.toString()).getId();
                            } catch (RuntimeException e) {
                                throw ApiException.invalidField("report-timezone", "Invalid timezone.");
                            }
                        }).build(),
                Setting.of("show-metabase-links", BOOLEAN).visibility(PUBLIC).defaultValue(true).build(),
                Setting.of("session-cookies", BOOLEAN).visibility(PUBLIC).build(),
                Setting.of("session-cookie-samesite", KEYWORD).visibility(SETTINGS_MANAGER).defaultValue("lax")
                        .normalize(v -> oneOf("session-cookie-samesite", v.toString().toLowerCase(Locale.ROOT), "lax", "strict", "none"))
                        .build(),
                Setting.of("enable-public-sharing", BOOLEAN).visibility(AUTHENTICATED).defaultValue(true).build(),
                Setting.of("enable-embedding", BOOLEAN).visibility(AUTHENTICATED).defaultValue(false).build(),
                Setting.of("enable-embedding-static", BOOLEAN).visibility(AUTHENTICATED).defaultValue(false).build(),
                Setting.of("enable-embedding-interactive", BOOLEAN).visibility(AUTHENTICATED).defaultValue(false).build(),
                Setting.of("enable-embedding-sdk", BOOLEAN).visibility(AUTHENTICATED).defaultValue(false).build(),
                Setting.of("enable-embedding-simple", BOOLEAN).visibility(AUTHENTICATED).defaultValue(false).build(),
                Setting.of("embedding-app-origins-sdk", STRING).visibility(ADMIN).defaultValue("").build(),
                Setting.of("embedding-app-origins-interactive", STRING).visibility(ADMIN).build(),
                Setting.of("embedding-app-origin", STRING).visibility(ADMIN).build(),
                Setting.of("disable-cors-on-localhost", BOOLEAN).visibility(ADMIN).defaultValue(false).build(),
                Setting.of("embedding-secret-key", STRING).visibility(ADMIN).sensitive()
                        .normalize(v -> {
                            if (!v.toString().matches("^[0-9a-fA-F]{64}$")) {
                                throw ApiException.invalidField("embedding-secret-key", "Secret key must be a hexadecimal-encoded 256-bit key (i.e., a 64-character string).");
                            }
                            return v;
                        }).build(),
                Setting.of("enable-nested-queries", BOOLEAN).visibility(AUTHENTICATED).defaultValue(true).build(),
                Setting.of("persisted-models-enabled", BOOLEAN).visibility(PUBLIC).defaultValue(false).build(),
                Setting.of("native-query-autocomplete-match-style", KEYWORD).visibility(PUBLIC).defaultValue("substring")
                        .normalize(v -> oneOf("native-query-autocomplete-match-style", v, "substring", "prefix", "off")).build(),
                Setting.of("unaggregated-query-row-limit", POSITIVE_INTEGER).visibility(AUTHENTICATED).defaultValue(2000L).build(),
                Setting.of("aggregated-query-row-limit", POSITIVE_INTEGER).visibility(AUTHENTICATED).defaultValue(10000L).build(),
                Setting.of("reset-token-ttl-hours", POSITIVE_INTEGER).visibility(INTERNAL).defaultValue(48L).build(),

                Setting.of("email-smtp-host", STRING).visibility(ADMIN).build(),
                Setting.of("email-smtp-port", POSITIVE_INTEGER).visibility(ADMIN).build(),
                Setting.of("email-smtp-security", KEYWORD).visibility(ADMIN).defaultValue("none")
                        .normalize(v -> oneOf("email-smtp-security", v, "none", "ssl", "tls", "starttls")).build(),
                Setting.of("email-smtp-username", STRING).visibility(ADMIN).build(),
                Setting.of("email-smtp-password", STRING).visibility(ADMIN).sensitive().build(),
                Setting.of("email-from-address", STRING).visibility(ADMIN).defaultValue("notifications@quarry.invalid").build(),
                Setting.of("email-from-name", STRING).visibility(ADMIN).build(),
                Setting.of("email-reply-to", CSV).visibility(ADMIN).build(),

                // User-local settings (Metabase's `:user-local :only`): each user reads and writes their own value,
                // and a null deletes it, so the user sees the default again. Types and defaults as in Metabase's
                // users/settings.clj, plus the few defined where they are used (permissions, notebook, views).
                userLocal("last-acknowledged-version", STRING, null, ADMIN),
                userLocal("last-used-native-database-id", INTEGER, null, AUTHENTICATED),
                userLocal("notebook-native-preview-shown", BOOLEAN, false, AUTHENTICATED),
                userLocal("notebook-native-preview-sidebar-width", INTEGER, null, AUTHENTICATED),
                userLocal("expand-browse-in-nav", BOOLEAN, true, AUTHENTICATED),
                userLocal("expand-bookmarks-in-nav", BOOLEAN, true, AUTHENTICATED),
                userLocal("expand-collections-in-nav", BOOLEAN, true, AUTHENTICATED),
                userLocal("expand-library-in-nav", BOOLEAN, true, AUTHENTICATED),
                userLocal("browse-filter-only-verified-models", BOOLEAN, true, AUTHENTICATED),
                userLocal("browse-filter-only-verified-metrics", BOOLEAN, true, AUTHENTICATED),
                userLocal("show-updated-permission-modal", BOOLEAN, true, ADMIN),
                userLocal("show-updated-permission-banner", BOOLEAN, true, ADMIN),
                userLocal("dismissed-custom-dashboard-toast", BOOLEAN, false, AUTHENTICATED),
                userLocal("dismissed-excel-pivot-exports-banner", BOOLEAN, false, AUTHENTICATED),
                userLocal("dismissed-browse-models-banner", BOOLEAN, false, AUTHENTICATED),
                userLocal("dismissed-research-mode-banner", BOOLEAN, false, AUTHENTICATED),
                userLocal("color-scheme", STRING, "auto", AUTHENTICATED),
                userLocal("trial-banner-dismissal-timestamp", STRING, null, AUTHENTICATED),
                userLocal("sdk-iframe-embed-setup-settings", JSON, null, AUTHENTICATED));
    }

    private static Setting internal(String key) {
        return Setting.of(key, STRING).visibility(INTERNAL).build();
    }

    private static Setting userLocal(String key, Setting.Type type, Object defaultValue, Setting.Visibility visibility) {
        return Setting.of(key, type).visibility(visibility).userLocal().defaultValue(defaultValue).build();
    }

    private static Object oneOf(String key, Object value, String... allowed) {
        for (String a : allowed) {
            if (a.equals(value)) {
                return value;
            }
        }
        throw ApiException.invalidField(key, "enum of " + String.join(", ", allowed));
    }

    static Object normalizeSiteUrl(Object value) {
        String url = value.toString().trim().replaceAll("/+$", "");
        if (url.isEmpty()) {
            return null;
        }
        if (!url.matches("(?i)^https?://.*")) {
            url = "http://" + url;
        }
        try {
            java.net.URI uri = java.net.URI.create(url);
            if (uri.getHost() == null) {
                throw new IllegalArgumentException();
            }
        } catch (IllegalArgumentException e) {
            throw ApiException.invalidField("site-url", "Invalid site URL: " + value);
        }
        return url;
    }

    static Object normalizeSiteLocale(Object value) {
        String raw = value.toString();
        if (!Validation.isLocale(raw) || !LOCALES.contains(Validation.normalizeLocale(raw))
                && !LOCALES.contains(Validation.normalizeLocale(raw).split("_")[0])) {
            throw ApiException.invalidField("site-locale", "Invalid locale \"" + raw + "\"");
        }
        return Validation.normalizeLocale(raw);
    }

    private static List<List<String>> availableLocales() {
        List<List<String>> result = new ArrayList<>();
        for (String code : LOCALES) {
            Locale locale = Locale.forLanguageTag(code.replace('_', '-'));
            result.add(List.of(code, locale.getDisplayName(locale)));
        }
        return result;
    }

    private static Map<String, Boolean> tokenFeatures() {
        Map<String, Boolean> features = new LinkedHashMap<>();
        for (String f : new String[]{"advanced_permissions", "audit_app", "content_verification", "embedding", "embedding_sdk",
                "hosting", "official_collections", "sandboxes", "sso_jwt", "sso_saml", "whitelabel"}) {
            features.put(f, false);
        }
        return features;
    }
}
