package io.quarry.setting;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.Db;
import io.quarry.boot.AppConfig;
import io.quarry.user.UserMapper;
import io.quarry.web.Json;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Validation;
import io.quarry.web.security.Caller;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.ibatis.exceptions.PersistenceException;

/**
 * The setting registry and store. A setting's value is, in order of precedence: the caller's own value (user-local
 * settings), the environment ({@code MB_<KEY>}), the application database, then the default — as in Metabase.
 * Values are read from the database on each use so that every instance sharing it agrees.
 */
public final class Settings {
    private static final String OBFUSCATION = "**********";

    private final Map<String, Setting> registry = new LinkedHashMap<>();
    private final Db db;
    private final AppConfig config;

    public Settings(Db db, AppConfig config) {
        this.db = db;
        this.config = config;
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
        String stored = db.with(SettingMapper.class, m -> m.findSettingValue(setting.key));
        return stored != null ? parse(setting, stored) : setting.defaultValue;
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

    /** {@code GET /api/setting}: writable settings with where their value comes from. */
    public List<Map<String, Object>> describeAll() {
        Map<String, String> stored = storedValues();
        List<Map<String, Object>> result = new ArrayList<>();
        for (Setting setting : registry.values()) {
            if (setting.visibility == Setting.Visibility.INTERNAL || setting.readOnly() || setting.userLocal) {
                continue;
            }
            String env = envValue(setting);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("key", setting.key);
            // As in Metabase: null when the value is the default or comes from the environment.
            Object value = env != null || !stored.containsKey(setting.key) ? null : parse(setting, stored.get(setting.key));
            row.put("value", setting.sensitive ? obfuscate(value) : value);
            row.put("is_env_setting", env != null);
            row.put("env_name", setting.envName());
            row.put("description", setting.description);
            row.put("default", env != null ? "Using value of env var $" + setting.envName()
                    : setting.sensitive ? null : setting.defaultValue);
            result.add(row);
        }
        return result;
    }

    /** {@code GET /api/setting/:key}: one value, if the caller may read it (sensitive ones obfuscated). */
    public Object readAs(Caller caller, String key) {
        Setting setting = require(key);
        if (setting.visibility == Setting.Visibility.INTERNAL || !visibilities(caller).contains(setting.visibility)) {
            throw ApiException.forbidden();
        }
        Object value = getFor(caller, setting);
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

    private Map<String, String> storedValues() {
        Map<String, String> stored = new HashMap<>();
        for (SettingMapper.StoredSetting s : db.with(SettingMapper.class, SettingMapper::listSettings)) {
            stored.put(s.settingKey, s.settingValue);
        }
        return stored;
    }

    private Map<String, Object> userSettings(long userId) {
        Map<String, Object> own = db.with(UserMapper.class, m -> {
            var user = m.findUser(userId);
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

    private static Object obfuscate(Object value) {
        if (value == null) {
            return null;
        }
        String text = value.toString();
        return OBFUSCATION + (text.length() > 2 ? text.substring(text.length() - 2) : "");
    }

    // --- writing ---------------------------------------------------------------------------------------------------

    /** Writes as the caller: administrators any writable setting, everyone else only user-local ones. */
    public void setAs(Caller caller, String key, JsonNode value) {
        Setting setting = require(key);
        if (setting.visibility == Setting.Visibility.INTERNAL) {
            throw ApiException.forbidden();
        }
        if (!setting.userLocal && !caller.superuser()) {
            throw ApiException.forbidden();
        }
        if (setting.sensitive && value != null && value.isTextual() && value.asText().startsWith(OBFUSCATION)) {
            return; // the obfuscated value sent back unchanged: keep what is stored
        }
        if (setting.userLocal) {
            setUserLocal(caller.id(), setting, value);
        } else {
            set(setting.key, value);
        }
    }

    /** Writes a batch as the caller: all or nothing, every value validated before any is stored. */
    public void setAllAs(Caller caller, Map<String, JsonNode> values) {
        for (Map.Entry<String, JsonNode> entry : values.entrySet()) {
            Setting setting = require(entry.getKey());
            if (setting.visibility == Setting.Visibility.INTERNAL || (!setting.userLocal && !caller.superuser())) {
                throw ApiException.forbidden();
            }
            checkWritable(setting);
            canonical(setting, entry.getValue());
        }
        for (Map.Entry<String, JsonNode> entry : values.entrySet()) {
            setAs(caller, entry.getKey(), entry.getValue());
        }
    }

    /** Writes an instance-wide setting (no permission check: for internal callers). Null deletes it. */
    public void set(String key, JsonNode value) {
        Setting setting = require(key);
        checkWritable(setting);
        String text = canonical(setting, value);
        db.run(session -> {
            SettingMapper mapper = session.getMapper(SettingMapper.class);
            if (text == null) {
                mapper.deleteSetting(setting.key);
            } else if (mapper.updateSetting(setting.key, text) == 0) {
                mapper.insertSetting(setting.key, text);
            }
        });
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

    private void setUserLocal(long userId, Setting setting, JsonNode value) {
        Object canonical = value == null || value.isNull() ? null : parse(setting, canonical(setting, value));
        db.run(session -> {
            UserMapper users = session.getMapper(UserMapper.class);
            var user = users.findUser(userId);
            if (user == null) {
                throw ApiException.notFound();
            }
            Map<String, Object> own = user.settings == null ? new LinkedHashMap<>() : new LinkedHashMap<>(user.settings);
            if (canonical == null) {
                own.remove(setting.key);
            } else {
                own.put(setting.key, canonical);
            }
            users.updateUserSettings(userId, own);
        });
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
    private String canonical(Setting setting, JsonNode value) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return null;
        }
        Object normalized = setting.normalize.apply(typed(setting, value));
        if (normalized == null) {
            return null;
        }
        return switch (setting.type) {
            case JSON -> Json.write(normalized);
            case CSV -> String.join(",", castList(normalized));
            default -> normalized.toString();
        };
    }

    /** The value as the setting's Java type, or a 400 naming the setting. */
    private static Object typed(Setting setting, JsonNode value) {
        String key = setting.key;
        switch (setting.type) {
            case STRING, TIMESTAMP -> {
                if (value.isTextual() || value.isNumber() || value.isBoolean()) {
                    return value.asText();
                }
                throw ApiException.invalidField(key, "value must be a string.");
            }
            case KEYWORD -> {
                if (value.isTextual() && !value.asText().isBlank()) {
                    return value.asText().replaceFirst("^:", "");
                }
                throw ApiException.invalidField(key, "value must be a keyword.");
            }
            case BOOLEAN -> {
                if (value.isBoolean()) {
                    return value.asBoolean();
                }
                Boolean parsed = value.isTextual() ? Validation.parseBoolStr(value.asText()) : null;
                if (parsed == null) {
                    throw ApiException.invalidField(key, "value must be a boolean.");
                }
                return parsed;
            }
            case INTEGER, POSITIVE_INTEGER -> {
                Long parsed = null;
                if (value.canConvertToExactIntegral() && value.isNumber()) {
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
                if (value.isNumber()) {
                    return value.asDouble();
                }
                try {
                    return Double.parseDouble(value.asText());
                } catch (NumberFormatException e) {
                    throw ApiException.invalidField(key, "value must be a number.");
                }
            }
            case JSON -> {
                return Json.MAPPER.convertValue(value, Object.class);
            }
            case CSV -> {
                if (value.isArray()) {
                    List<String> items = new ArrayList<>();
                    value.forEach(v -> items.add(v.asText()));
                    return items;
                }
                if (value.isTextual()) {
                    return value.asText().isBlank() ? List.of() : Arrays.stream(value.asText().split(",")).map(String::trim).toList();
                }
                throw ApiException.invalidField(key, "value must be a comma-separated string or a list.");
            }
        }
        throw new IllegalStateException("Unhandled setting type " + setting.type);
    }

    /** Stored text back to the setting's Java type. */
    static Object parse(Setting setting, String text) {
        try {
            return switch (setting.type) {
                case STRING, TIMESTAMP, KEYWORD -> text;
                case BOOLEAN -> Boolean.parseBoolean(text.trim().toLowerCase(Locale.ROOT));
                case INTEGER, POSITIVE_INTEGER -> Long.parseLong(text.trim());
                case DOUBLE -> Double.parseDouble(text.trim());
                case JSON -> Json.MAPPER.readValue(text, Object.class);
                case CSV -> text.isBlank() ? List.of() : Arrays.stream(text.split(",")).map(String::trim).toList();
            };
        } catch (Exception e) {
            // A bad environment value must not take the instance down: fall back to the default.
            return setting.defaultValue;
        }
    }

    @SuppressWarnings("unchecked")
    private static List<String> castList(Object value) {
        return (List<String>) value;
    }
}
