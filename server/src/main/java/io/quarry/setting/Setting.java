package io.quarry.setting;

import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One declared setting: key, type, default, who may read it, and where its value may come from. Modules declare
 * theirs (as Metabase's {@code defsetting}) and hand them to {@link Settings}. {@code normalize} validates and
 * canonicalises a written value, throwing an {@link io.quarry.web.error.ApiException} when it is unacceptable.
 */
public final class Setting {
    public enum Type { STRING, BOOLEAN, INTEGER, POSITIVE_INTEGER, DOUBLE, KEYWORD, JSON, CSV, TIMESTAMP }

    /** Who may read a setting; writing needs an administrator unless the setting is user-local. */
    public enum Visibility { PUBLIC, AUTHENTICATED, ADMIN_WRITE_AUTHED_READ, SETTINGS_MANAGER, ADMIN, INTERNAL }

    public final String key;
    public final Type type;
    public final Visibility visibility;
    public final Object defaultValue;
    public final String description;
    public final boolean sensitive;
    public final boolean userLocal;
    /** Computed settings have no stored value and cannot be written. */
    public final Supplier<Object> computed;
    public final Function<Object, Object> normalize;
    /** Computed once: {@link Settings} looks it up on every read. */
    private final String envName;

    private Setting(Builder b) {
        key = b.key;
        type = b.type;
        visibility = b.visibility;
        defaultValue = b.defaultValue;
        description = b.description;
        sensitive = b.sensitive;
        userLocal = b.userLocal;
        computed = b.computed;
        normalize = b.normalize;
        envName = "MB_" + key.toUpperCase(Locale.ROOT).replace('-', '_').replaceAll("[^A-Z0-9_]", "");
    }

    /** Metabase's environment variable for a setting: MB_ + upper case, dashes to underscores, other marks dropped. */
    public String envName() {
        return envName;
    }

    public boolean readOnly() {
        return computed != null;
    }

    public static Builder of(String key, Type type) {
        return new Builder(key, type);
    }

    public static final class Builder {
        private final String key;
        private final Type type;
        private Visibility visibility = Visibility.ADMIN;
        private Object defaultValue;
        private String description = "";
        private boolean sensitive;
        private boolean userLocal;
        private Supplier<Object> computed;
        private Function<Object, Object> normalize = Function.identity();

        private Builder(String key, Type type) {
            this.key = key;
            this.type = type;
        }

        public Builder visibility(Visibility v) {
            visibility = v;
            return this;
        }

        public Builder defaultValue(Object v) {
            defaultValue = v;
            return this;
        }

        public Builder description(String d) {
            description = d;
            return this;
        }

        public Builder sensitive() {
            sensitive = true;
            return this;
        }

        public Builder userLocal() {
            userLocal = true;
            return this;
        }

        public Builder computed(Supplier<Object> supplier) {
            computed = supplier;
            return this;
        }

        public Builder normalize(Function<Object, Object> f) {
            normalize = f;
            return this;
        }

        public Setting build() {
            return new Setting(this);
        }
    }
}
