package io.quarry.setting;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.quarry.appdb.Db;
import io.quarry.appdb.RevisionCache;
import io.quarry.core.AppConfig;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Validation;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;

/**
 * The setting registry and store. A setting's value is, in order of precedence: the caller's own value (user-local
 * settings), the environment ({@code MB_<KEY>}), the application database, then the default — as in Metabase.
 * Stored values are cached until the application database's cached data changes ({@link io.quarry.appdb.CacheRevision}):
 * every instance sharing it agrees within the revision check interval, and at once with its own writes.
 */
public final class Settings {
    private static final String OBFUSCATION = "**********";

    private final Map<String, Setting> registry = new LinkedHashMap<>();
    private final Db db;
    private final AppConfig config;
    /** Key → stored text (null: not stored); the empty key → every stored value. */
    private final RevisionCache<String, Object> cache;

    public Settings(Db db, AppConfig config) {
        this.db = db;
        this.config = config;
        this.cache = db.cache(1_000);
    }

    public void register(Setting... settings) {
        for (Setting setting : settings) {
            if (registry.putIfAbsent(setting.key, setting) != null) {
                throw new IllegalStateException("Setting declared twice: " + setting.key);
            }
        }
    }

    /** The setting for a key; snake_case keys are accepted too, as Metabase does. Null when unknown. */
    public Setting find(String key) {
        Setting setting = registry.get(key);
        return setting != null ? setting : registry.get(key.replace('_', '-'));
    }

    private Setting require(String key) {
        Setting setting = find(key);
        if (setting == null) {
            throw new ApiException(404, "Unknown setting: :" + key);
        }
        return setting;
    }

    /** As {@link #require}, but a non-administrator learns nothing about which settings exist: a generic 403. */
    private Setting requireFor(Caller caller, String key) {
        Setting setting = find(key);
        if (setting == null && !caller.superuser()) {
            throw ApiException.forbidden();
        }
        return require(key);
    }

    // --- reading ---------------------------------------------------------------------------------------------------

    /** The effective instance-wide value (no user-local layer). */
    public Object get(String key) {
        Setting setting = require(key);
        if (setting.computed != null) {
            return setting.computed.get();
        }
        String env = envValue(setting);
        if (env != null) {
            return parse(setting, env);
        }
        String text = (String) cache.get(setting.key, k -> db.with(SettingMapper.class, m -> m.findSettingValue(k)));
        return text != null ? parse(setting, text) : setting.defaultValue;
    }

    public String string(String key) {
        Object value = get(key);
        return value == null ? null : value.toString();
    }

    public boolean bool(String key) {
        return Boolean.TRUE.equals(get(key));
    }

    public Long integer(String key) {
        Object value = get(key);
        return value == null ? null : ((Number) value).longValue();
    }

    /** The value as the caller sees it, user-local layer included. */
    public Object getFor(Caller caller, Setting setting) {
        if (setting.userLocal && caller.authenticated()) {
            Map<String, Object> own = userSettings(caller.id());
            return own.containsKey(setting.key) ? own.get(setting.key) : setting.defaultValue;
        }
        return get(setting.key);
    }

    /**
     * Every setting the caller may read, as {@code GET /api/session/properties} returns them: sensitive and internal
     * ones never, env-provided values included. One database read for all stored values.
     */
    public Map<String, Object> readableBy(Caller caller) {
        Set<Setting.Visibility> visible = visibilities(caller);
        Map<String, String> stored = storedValues();
        Map<String, Object> own = caller.authenticated() ? userSettings(caller.id()) : Map.of();
        Map<String, Object> result = new LinkedHashMap<>();
        for (Setting setting : registry.values()) {
            if (setting.sensitive || !visible.contains(setting.visibility)) {
                continue;
            }
            if (setting.userLocal) {
                if (caller.authenticated()) {
                    result.put(setting.key, own.getOrDefault(setting.key, setting.defaultValue));
                }
                continue;
            }
            result.put(setting.key, effective(setting, stored));
        }
        return result;
    }

    /**
     * {@code GET /api/setting}: every setting an administrator may see, sorted by key, with where its value comes from.
     * As in Metabase, {@code value} is null when the value is the default or comes from the environment, and
     * user-local settings show the caller's own value.
     */
    public List<Map<String, Object>> describeAll(Caller caller) {
        Map<String, String> stored = storedValues();
        Map<String, Object> own = caller.authenticated() ? userSettings(caller.id()) : Map.of();
        List<Setting> sorted = new ArrayList<>(registry.values());
        sorted.sort(Comparator.comparing(s -> s.key));
        List<Map<String, Object>> result = new ArrayList<>();
        for (Setting setting : sorted) {
            if (setting.visibility == Setting.Visibility.INTERNAL) {
                continue;
            }
            boolean fromEnv = envValue(setting) != null;
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("key", setting.key);
            row.put("value", userFacing(setting, stored, own));
            row.put("is_env_setting", fromEnv);
            row.put("env_name", setting.envName());
            row.put("description", setting.description);
            row.put("default", fromEnv ? "Using value of env var $" + setting.envName()
                    : setting.sensitive ? null : setting.defaultValue);
            result.add(row);
        }
        return result;
    }

    /**
     * {@code GET /api/setting/:key}: one value as {@link #describeAll} shows it (null for a default or an environment
     * value, sensitive ones obfuscated). Administrators may read any setting but internal ones; everyone else only
     * user-local settings, as in Metabase (other values reach them through {@code /api/session/properties}).
     */
    public Object readAs(Caller caller, String key) {
        Setting setting = requireFor(caller, key);
        if (setting.visibility == Setting.Visibility.INTERNAL || !setting.userLocal && !caller.superuser()) {
            throw ApiException.forbidden();
        }
        Map<String, Object> own = setting.userLocal ? userSettings(caller.id()) : Map.of();
        Map<String, String> stored = new HashMap<>();
        if (!setting.userLocal && setting.computed == null) {
            String text = db.with(SettingMapper.class, m -> m.findSettingValue(setting.key));
            if (text != null) {
                stored.put(setting.key, text);
            }
        }
        return userFacing(setting, stored, own);
    }

    /** What the settings API shows of a value: null when unset, default or from the environment; sensitive obfuscated. */
    private Object userFacing(Setting setting, Map<String, String> stored, Map<String, Object> own) {
        Object value;
        if (setting.userLocal) {
            value = own.get(setting.key);
        } else if (setting.computed != null) {
            value = setting.computed.get();
        } else if (envValue(setting) != null) {
            return null;
        } else {
            String text = stored.get(setting.key);
            value = text == null ? null : parse(setting, text);
        }
        if (value == null || value.equals(setting.defaultValue)) {
            return null;
        }
        return setting.sensitive ? obfuscate(value) : value;
    }

    private Object effective(Setting setting, Map<String, String> stored) {
        if (setting.computed != null) {
            return setting.computed.get();
        }
        String env = envValue(setting);
        if (env != null) {
            return parse(setting, env);
        }
        String value = stored.get(setting.key);
        return value != null ? parse(setting, value) : setting.defaultValue;
    }

    private static Set<Setting.Visibility> visibilities(Caller caller) {
        if (!caller.authenticated()) {
            return EnumSet.of(Setting.Visibility.PUBLIC);
        }
        if (caller.superuser()) {
            return EnumSet.of(Setting.Visibility.PUBLIC, Setting.Visibility.AUTHENTICATED,
                    Setting.Visibility.ADMIN_WRITE_AUTHED_READ, Setting.Visibility.SETTINGS_MANAGER, Setting.Visibility.ADMIN);
        }
        return EnumSet.of(Setting.Visibility.PUBLIC, Setting.Visibility.AUTHENTICATED, Setting.Visibility.ADMIN_WRITE_AUTHED_READ);
    }

    @SuppressWarnings("unchecked")
    private Map<String, String> storedValues() {
        return (Map<String, String>) cache.get("", all -> {
            Map<String, String> values = new HashMap<>();
            for (SettingMapper.StoredSetting s : db.with(SettingMapper.class, SettingMapper::listSettings)) {
                values.put(s.settingKey, s.settingValue);
            }
            return java.util.Collections.unmodifiableMap(values);
        });
    }

    private Map<String, Object> userSettings(long userId) {
        Map<String, Object> own = db.with(SettingMapper.class, m -> {
            var user = m.findUserLocal(userId);
            return user == null ? null : user.settings;
        });
        return own == null ? Map.of() : own;
    }

    private String envValue(Setting setting) {
        return setting.userLocal ? null : config.get(setting.envName());
    }

    public boolean isEnvSet(String key) {
        return envValue(require(key)) != null;
    }

    /**
     * How sensitive values are shown: ten stars and the last two characters, as Metabase does. Values of two characters
     * or fewer show only the stars (Metabase would show them whole).
     */
    public static String obfuscate(Object value) {
        if (value == null) {
            return null;
        }
        String text = value.toString();
        return OBFUSCATION + (text.length() > 2 ? text.substring(text.length() - 2) : "");
    }

    /** True when a client sent back the obfuscated form of the stored value, meaning "keep it". */
    private boolean isObfuscatedEcho(Setting setting, JsonNode value) {
        if (!setting.sensitive || value == null || !value.isTextual() || !value.asText().startsWith(OBFUSCATION)) {
            return false;
        }
        return value.asText().equals(obfuscate(get(setting.key)));
    }

    // --- writing ---------------------------------------------------------------------------------------------------

    /** Writes as the caller: administrators any writable setting, everyone else only user-local ones. Null deletes. */
    public void setAs(Caller caller, String key, JsonNode value) {
        Map<String, JsonNode> one = new LinkedHashMap<>();
        one.put(key, value == null ? NullNode.instance : value);
        setAllAs(caller, one);
    }

    /**
     * Writes a batch as the caller, all or nothing: permissions are checked for every key first (403, or 404 for an
     * administrator naming an unknown setting), then writability (400), then every value is validated (one 400 naming
     * each bad setting), and only then are all values stored, in one transaction.
     */
    public void setAllAs(Caller caller, Map<String, JsonNode> values) {
        List<Setting> settings = new ArrayList<>();
        for (String key : values.keySet()) {
            Setting setting = requireFor(caller, key);
            if (setting.visibility == Setting.Visibility.INTERNAL || !setting.userLocal && !caller.superuser()) {
                throw ApiException.forbidden();
            }
            settings.add(setting);
        }
        settings.forEach(this::checkWritable);
        Map<String, Object> errors = new LinkedHashMap<>();
        List<Write> writes = new ArrayList<>();
        int i = 0;
        for (JsonNode value : values.values()) {
            Setting setting = settings.get(i++);
            if (isObfuscatedEcho(setting, value)) {
                continue; // the obfuscated value sent back unchanged: keep what is stored
            }
            try {
                writes.add(new Write(setting, canonical(setting, value)));
            } catch (ApiException e) {
                errors.putAll(fieldErrors(setting, e));
            }
        }
        if (!errors.isEmpty()) {
            throw ApiException.withErrors(400, errors, null);
        }
        boolean embeddingTurnedOn = writes.stream().anyMatch(w -> EMBEDDING_TOGGLES.contains(w.setting.key) && "true".equals(w.text));
        String secretKey = embeddingTurnedOn && isBlank(string("embedding-secret-key")) ? randomSecretKey() : null;
        db.run(session -> {
            for (Write write : writes) {
                if (write.setting.userLocal) {
                    writeUserLocal(session, caller.id(), write.setting, write.text);
                } else {
                    writeStored(session, write.setting, write.text);
                }
            }
            if (secretKey != null) {
                // Metabase's make-embedding-toggle-setter: turning embedding on makes the signing key it needs
                writeStored(session, require("embedding-secret-key"), secretKey);
            }
        });
    }

    /** The settings that turn an embedding kind on; each creates {@code embedding-secret-key} when it is blank. */
    private static final Set<String> EMBEDDING_TOGGLES = Set.of("enable-embedding", "enable-embedding-static",
            "enable-embedding-interactive", "enable-embedding-sdk", "enable-embedding-simple");

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    /** 32 random bytes as 64 hex digits, as {@code GET /api/util/random_token}. */
    private static String randomSecretKey() {
        byte[] bytes = new byte[32];
        new java.security.SecureRandom().nextBytes(bytes);
        return java.util.HexFormat.of().formatHex(bytes);
    }

    /** Writes an instance-wide setting (no permission check: for internal callers). Null deletes it. */
    public void set(String key, JsonNode value) {
        Setting setting = require(key);
        checkWritable(setting);
        String text = canonical(setting, value);
        db.run(session -> writeStored(session, setting, text));
    }

    public void set(String key, Object value) {
        set(key, value == null ? null : Json.MAPPER.valueToTree(value));
    }

    /**
     * Stores a value once (an instance-wide random id, the setup token): the first instance to insert wins, and every
     * instance returns the winner's value.
     */
    public String initOnce(String key, Supplier<String> generate) {
        String existing = db.with(SettingMapper.class, m -> m.findSettingValue(key));
        if (existing != null) {
            return existing;
        }
        try {
            String value = generate.get();
            db.run(session -> session.getMapper(SettingMapper.class).insertSetting(key, value));
            return value;
        } catch (PersistenceException raced) {
            return db.with(SettingMapper.class, m -> m.findSettingValue(key));
        }
    }

    private record Write(Setting setting, String text) {
    }

    private static void writeStored(SqlSession session, Setting setting, String text) {
        SettingMapper mapper = session.getMapper(SettingMapper.class);
        if (text == null) {
            mapper.deleteSetting(setting.key);
        } else if (mapper.updateSetting(setting.key, text) == 0) {
            mapper.insertSetting(setting.key, text);
        }
    }

    private static void writeUserLocal(SqlSession session, long userId, Setting setting, String text) {
        SettingMapper users = session.getMapper(SettingMapper.class);
        var user = users.findUserLocal(userId);
        if (user == null) {
            throw ApiException.notFound();
        }
        Map<String, Object> own = user.settings == null ? new LinkedHashMap<>() : new LinkedHashMap<>(user.settings);
        if (text == null) {
            own.remove(setting.key);
        } else {
            own.put(setting.key, parse(setting, text));
        }
        users.updateUserLocal(userId, own);
    }

    /** The {@code errors} entries of a validation failure; a failure without them is reported under the setting's key. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> fieldErrors(Setting setting, ApiException e) {
        if (e.status() == 400 && e.body() != null && e.body().get("errors") instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        if (e.status() == 400) {
            return Map.of(setting.key, e.getMessage());
        }
        throw e;
    }

    private void checkWritable(Setting setting) {
        if (setting.readOnly()) {
            throw ApiException.badRequest("You cannot update `" + setting.key + "`: it is read-only.");
        }
        if (envValue(setting) != null) {
            throw ApiException.badRequest("You cannot update `" + setting.key + "`: its value is set via the environment variable "
                    + setting.envName() + ".");
        }
    }

    /** Validates and turns a JSON value into the stored text; null (delete) for JSON null. */
    static String canonical(Setting setting, JsonNode value) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return null;
        }
        Object normalized = setting.normalize.apply(typed(setting, value));
        if (normalized == null) {
            return null;
        }
        return switch (setting.type) {
            case JSON -> Json.write(normalized);
            case CSV -> castList(normalized).isEmpty() ? null : String.join(",", castList(normalized));
            default -> normalized.toString();
        };
    }

    /** The value as the setting's Java type, or a 400 naming the setting. */
    static Object typed(Setting setting, JsonNode value) {
        String key = setting.key;
        switch (setting.type) {
            case STRING -> {
                if (value.isTextual() || value.isNumber() || value.isBoolean()) {
                    return value.asText();
                }
                throw ApiException.invalidField(key, "value must be a string.");
            }
            case TIMESTAMP -> {
                if (value.isTextual() && isTemporal(value.asText().trim())) {
                    return value.asText().trim();
                }
                throw ApiException.invalidField(key, "value must be a valid date string");
            }
            case KEYWORD -> {
                if (value.isTextual() && !value.asText().isBlank()) {
                    return value.asText().trim().replaceFirst("^:", "");
                }
                throw ApiException.invalidField(key, "value must be a keyword.");
            }
            case BOOLEAN -> {
                if (value.isBoolean()) {
                    return value.asBoolean();
                }
                // "true"/"false" in any case, as Metabase's boolean settings take; not "TRUE " or 1.
                Boolean parsed = value.isTextual() && value.asText().equals(value.asText().strip())
                        ? Validation.parseBoolStr(value.asText()) : null;
                if (parsed == null) {
                    throw ApiException.invalidField(key, "value must be a boolean.");
                }
                return parsed;
            }
            case INTEGER, POSITIVE_INTEGER -> {
                Long parsed = null;
                if (value.isIntegralNumber() && value.canConvertToLong()
                        || value.isFloatingPointNumber() && value.canConvertToExactIntegral() && value.canConvertToLong()) {
                    parsed = value.asLong();
                } else if (value.isTextual()) {
                    try {
                        parsed = Long.parseLong(value.asText().trim());
                    } catch (NumberFormatException ignored) {
                        parsed = null;
                    }
                }
                if (parsed == null || (setting.type == Setting.Type.POSITIVE_INTEGER && parsed <= 0)) {
                    throw ApiException.invalidField(key, setting.type == Setting.Type.POSITIVE_INTEGER
                            ? "value must be an integer greater than zero." : "value must be an integer.");
                }
                return parsed;
            }
            case DOUBLE -> {
                double parsed = Double.NaN;
                if (value.isNumber()) {
                    parsed = value.asDouble();
                } else if (value.isTextual()) {
                    try {
                        parsed = Double.parseDouble(value.asText().trim());
                    } catch (NumberFormatException ignored) {
                        parsed = Double.NaN;
                    }
                }
                if (!Double.isFinite(parsed)) {
                    throw ApiException.invalidField(key, "value must be a number.");
                }
                return parsed;
            }
            case JSON -> {
                return Json.MAPPER.convertValue(value, Object.class);
            }
            case CSV -> {
                List<String> items = new ArrayList<>();
                if (value.isArray()) {
                    for (JsonNode item : value) {
                        if (!(item.isTextual() || item.isNumber()) || item.asText().contains(",")) {
                            throw ApiException.invalidField(key, "value must be a comma-separated string or a list of strings.");
                        }
                        items.add(item.asText().trim());
                    }
                } else if (value.isTextual()) {
                    items.addAll(splitCsv(value.asText()));
                } else {
                    throw ApiException.invalidField(key, "value must be a comma-separated string or a list of strings.");
                }
                return items.stream().filter(item -> !item.isEmpty()).toList();
            }
        }
        throw new IllegalStateException("Unhandled setting type " + setting.type);
    }

    /** Stored (or environment) text back to the setting's Java type; the default when the text does not parse. */
    static Object parse(Setting setting, String text) {
        try {
            return switch (setting.type) {
                case STRING, TIMESTAMP, KEYWORD -> text;
                case BOOLEAN -> {
                    Boolean parsed = Validation.parseBoolStr(text);
                    yield parsed != null ? parsed : setting.defaultValue;
                }
                case INTEGER, POSITIVE_INTEGER -> Long.parseLong(text.trim());
                case DOUBLE -> Double.parseDouble(text.trim());
                case JSON -> Json.MAPPER.readValue(text, Object.class);
                case CSV -> splitCsv(text);
            };
        } catch (Exception e) {
            // A bad environment value must not take the instance down: fall back to the default.
            return setting.defaultValue;
        }
    }

    private static List<String> splitCsv(String text) {
        return Arrays.stream(text.split(",")).map(String::trim).filter(item -> !item.isEmpty()).toList();
    }

    private static boolean isTemporal(String text) {
        for (java.util.function.Consumer<String> parser : List.<java.util.function.Consumer<String>>of(
                OffsetDateTime::parse, LocalDateTime::parse, LocalDate::parse, Instant::parse)) {
            try {
                parser.accept(text);
                return true;
            } catch (DateTimeParseException ignored) {
                // try the next form
            }
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    private static List<String> castList(Object value) {
        return (List<String>) value;
    }
}
