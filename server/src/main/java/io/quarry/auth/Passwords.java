package io.quarry.auth;

import at.favre.lib.crypto.bcrypt.BCrypt;
import at.favre.lib.crypto.bcrypt.LongPasswordStrategies;
import io.quarry.core.AppConfig;
import io.quarry.web.error.ApiException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Password hashing and the complexity rule. Hashes are bcrypt (cost 10) of a per-user random salt followed by the
 * password, as Metabase stores them; passwords past bcrypt's 72 bytes are pre-hashed with SHA-512 instead of being
 * silently truncated.
 */
public final class Passwords {
    private static final int COST = 10;
    private static final BCrypt.Hasher HASHER = BCrypt.with(BCrypt.Version.VERSION_2A,
            LongPasswordStrategies.hashSha512(BCrypt.Version.VERSION_2A));
    private static final BCrypt.Verifyer VERIFYER = BCrypt.verifyer(BCrypt.Version.VERSION_2A,
            LongPasswordStrategies.hashSha512(BCrypt.Version.VERSION_2A));
    /** A valid hash of nothing anyone knows, to spend the same time when there is no user to check against. */
    private static final String DUMMY_HASH = hash(UUID.randomUUID().toString(), UUID.randomUUID().toString());

    private final Map<String, Integer> rule;
    private final boolean checkCommon;
    private final Set<String> common;

    public Passwords(AppConfig config) {
        Map<String, Integer> r = new LinkedHashMap<>();
        switch (config.passwordComplexity) {
            case "weak" -> r.put("total", 6);
            case "strong" -> {
                r.put("total", 8);
                r.put("lower", 2);
                r.put("upper", 2);
                r.put("digit", 1);
                r.put("special", 1);
            }
            default -> {
                r.put("total", 6);
                r.put("digit", 1);
            }
        }
        if (config.passwordLength != null) {
            r.put("total", config.passwordLength);
        }
        rule = Map.copyOf(r);
        checkCommon = !"weak".equals(config.passwordComplexity);
        common = loadCommon();
    }

    private static Set<String> loadCommon() {
        Set<String> words = new HashSet<>();
        try (InputStream in = Passwords.class.getResourceAsStream("common-passwords.txt")) {
            if (in == null) {
                throw new IllegalStateException("common-passwords.txt is missing from the build");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            while ((line = reader.readLine()) != null) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    words.add(line.trim().toLowerCase(Locale.ROOT));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read common-passwords.txt", e);
        }
        return words;
    }

    /** The active rule, as {@code password-complexity} shows it: e.g. {@code {"total": 6, "digit": 1}}. */
    public Map<String, Integer> rule() {
        Map<String, Integer> ordered = new LinkedHashMap<>();
        for (String k : new String[]{"total", "lower", "upper", "digit", "special"}) {
            if (rule.containsKey(k)) {
                ordered.put(k, rule.get(k));
            }
        }
        return ordered;
    }

    public boolean isValid(String password) {
        if (password == null) {
            return false;
        }
        int lower = 0;
        int upper = 0;
        int digit = 0;
        int special = 0;
        for (int cp : password.codePoints().toArray()) {
            if (Character.isLowerCase(cp)) {
                lower++;
            } else if (Character.isUpperCase(cp)) {
                upper++;
            } else if (Character.isDigit(cp)) {
                digit++;
            } else {
                special++;
            }
        }
        int total = password.codePointCount(0, password.length());
        boolean meets = total >= rule.getOrDefault("total", 0)
                && lower >= rule.getOrDefault("lower", 0)
                && upper >= rule.getOrDefault("upper", 0)
                && digit >= rule.getOrDefault("digit", 0)
                && special >= rule.getOrDefault("special", 0);
        return meets && !(checkCommon && common.contains(password.toLowerCase(Locale.ROOT)));
    }

    /** A 400 on the given field ("password is too common.", Metabase's text for any failure) unless valid. */
    public void requireValid(String field, String password) {
        if (!isValid(password)) {
            throw ApiException.invalidField(field, "password is too common.");
        }
    }

    public static String newSalt() {
        return UUID.randomUUID().toString();
    }

    public static String hash(String salt, String password) {
        return HASHER.hashToString(COST, (salt + password).toCharArray());
    }

    public static boolean verify(String salt, String password, String hash) {
        if (hash == null || salt == null || password == null) {
            VERIFYER.verify("x".toCharArray(), DUMMY_HASH.toCharArray());
            return false;
        }
        return VERIFYER.verify((salt + password).toCharArray(), hash.toCharArray()).verified;
    }

    /** Spends a bcrypt check's time, so an unknown user answers as slowly as a known one. */
    public static void spendTime() {
        VERIFYER.verify("x".toCharArray(), DUMMY_HASH.toCharArray());
    }

    /** bcrypt of an opaque token (reset tokens, API keys), without salt prefix. */
    public static String hashToken(String token) {
        return HASHER.hashToString(COST, token.toCharArray());
    }

    public static boolean verifyToken(String token, String hash) {
        return hash != null && token != null && VERIFYER.verify(token.toCharArray(), hash.toCharArray()).verified;
    }
}
