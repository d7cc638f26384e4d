package io.quarry.auth;

import io.quarry.appdb.Db;
import io.quarry.user.Group;
import io.quarry.user.Membership;
import io.quarry.user.User;
import io.quarry.user.UserMapper;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * API keys: {@code mb_} + Base64 of 32 random bytes (47 characters). The key is shown once; the database keeps its
 * 7-character prefix (to find it) and a bcrypt hash (to check it). Each key acts as its own user, a member of All Users
 * and of the key's group.
 */
public final class ApiKeyService {
    private static final int PREFIX_LENGTH = 7;
    private static final int KEY_LENGTH = 47;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Db db;
    private final Clock clock;
    /** SHA-256 of a key already checked → the bcrypt hash it was checked against, to skip bcrypt on every request. */
    private final Map<String, String> verified = new ConcurrentHashMap<>();

    public ApiKeyService(Db db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    /** The active user behind a key, or null. */
    public User authenticate(String key) {
        if (key == null || key.length() < 12 || key.length() > 254 || !key.startsWith("mb_")) {
            return null;
        }
        return db.tx(session -> {
            ApiKey row = session.getMapper(ApiKeyMapper.class).findApiKeyByPrefix(key.substring(0, PREFIX_LENGTH));
            if (row == null) {
                Passwords.spendTime();
                return null;
            }
            String digest = sha256(key);
            // A cached check counts only against the very hash it was made with: regenerating a key changes the hash.
            if (!row.keyHash.equals(verified.get(digest))) {
                if (!Passwords.verifyToken(key, row.keyHash)) {
                    return null;
                }
                verified.put(digest, row.keyHash);
            }
            User user = session.getMapper(UserMapper.class).findUser(row.userId);
            return user != null && user.isActive ? user : null;
        });
    }

    public List<Map<String, Object>> list() {
        return db.with(ApiKeyMapper.class, ApiKeyMapper::listApiKeys).stream().map(k -> view(k, null)).toList();
    }

    public long count() {
        return db.with(ApiKeyMapper.class, ApiKeyMapper::countApiKeys);
    }

    public Map<String, Object> create(String name, long groupId, long creatorId) {
        String key = newKey();
        OffsetDateTime now = now();
        long id = db.tx(session -> {
            UserMapper users = session.getMapper(UserMapper.class);
            ApiKeyMapper keys = session.getMapper(ApiKeyMapper.class);
            Checks.found(users.findGroup(groupId));
            checkNameFree(keys, name, null);
            checkPrefixFree(keys, key);
            User user = new User();
            user.email = "api-key-user-" + UUID.randomUUID() + "@api-key.invalid";
            user.firstName = name;
            user.lastName = "";
            user.userType = "api-key";
            user.passwordSalt = Passwords.newSalt();
            user.password = Passwords.hash(user.passwordSalt, UUID.randomUUID().toString());
            user.dateJoined = now;
            user.updatedAt = now;
            users.insertUser(user);
            addMembership(users, user.id, Group.ALL_USERS);
            if (groupId != Group.ALL_USERS) {
                addMembership(users, user.id, groupId);
            }
            ApiKey row = new ApiKey();
            row.userId = user.id;
            row.keyHash = Passwords.hashToken(key);
            row.keyPrefix = key.substring(0, PREFIX_LENGTH);
            row.name = name;
            row.creatorId = creatorId;
            row.updatedById = creatorId;
            row.createdAt = now;
            row.updatedAt = now;
            keys.insertApiKey(row);
            return row.id;
        });
        return view(find(id), key);
    }

    public Map<String, Object> update(long id, String name, Long groupId, long editorId) {
        db.run(session -> {
            UserMapper users = session.getMapper(UserMapper.class);
            ApiKeyMapper keys = session.getMapper(ApiKeyMapper.class);
            ApiKey row = Checks.found(keys.findApiKey(id));
            OffsetDateTime now = now();
            if (name != null) {
                checkNameFree(keys, name, id);
                keys.updateApiKeyName(id, name, editorId, now);
                User user = users.findUser(row.userId);
                user.firstName = name;
                user.updatedAt = now;
                users.updateUser(user);
            }
            if (groupId != null && groupId != row.groupId) {
                Checks.found(users.findGroup(groupId));
                // The key keeps All Users and has exactly one other group (or none, when moved to All Users).
                for (Membership m : users.listMembershipsOfUsers(List.of(row.userId))) {
                    if (m.groupId != Group.ALL_USERS) {
                        users.deleteMembership(m.id);
                    }
                }
                if (groupId != Group.ALL_USERS) {
                    addMembership(users, row.userId, groupId);
                }
                keys.touchApiKey(id, editorId, now);
            }
        });
        return view(find(id), null);
    }

    public Map<String, Object> regenerate(long id, long editorId) {
        String key = newKey();
        db.run(session -> {
            ApiKeyMapper keys = session.getMapper(ApiKeyMapper.class);
            Checks.found(keys.findApiKey(id));
            checkPrefixFree(keys, key);
            keys.updateApiKeySecret(id, Passwords.hashToken(key), key.substring(0, PREFIX_LENGTH), editorId, now());
        });
        ApiKey row = find(id);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("id", row.id);
        result.put("unmasked_key", key);
        result.put("masked_key", mask(row.keyPrefix));
        result.put("prefix", row.keyPrefix);
        return result;
    }

    /** Deletes the key; its user stays, deactivated, so history that names it still resolves. */
    public void delete(long id) {
        db.run(session -> {
            ApiKeyMapper keys = session.getMapper(ApiKeyMapper.class);
            ApiKey row = Checks.found(keys.findApiKey(id));
            keys.deleteApiKey(id);
            session.getMapper(UserMapper.class).updateActive(row.userId, false);
        });
    }

    private ApiKey find(long id) {
        return Checks.found(db.with(ApiKeyMapper.class, m -> m.findApiKey(id)));
    }

    private static void addMembership(UserMapper users, long userId, long groupId) {
        Membership m = new Membership();
        m.userId = userId;
        m.groupId = groupId;
        users.insertMembership(m);
    }

    private static void checkNameFree(ApiKeyMapper keys, String name, Long self) {
        if (name.length() > 254) {
            throw ApiException.invalidField("name", "value must be a string of at most 254 characters.");
        }
        ApiKey other = keys.findApiKeyByName(name);
        if (other != null && !other.id.equals(self)) {
            throw ApiException.invalidField("name", "An API key with this name already exists.");
        }
    }

    private static void checkPrefixFree(ApiKeyMapper keys, String key) {
        // 4 random Base64 characters in the prefix: a clash is rare but possible; refuse rather than shadow a key.
        if (keys.findApiKeyByPrefix(key.substring(0, PREFIX_LENGTH)) != null) {
            throw new ApiException(409, "Generated API key clashed with an existing one; please try again.");
        }
    }

    private Map<String, Object> view(ApiKey row, String unmasked) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("id", row.id);
        result.put("name", row.name);
        result.put("group", Map.of("id", row.groupId, "name", row.groupName == null ? "" : row.groupName));
        if (unmasked != null) {
            result.put("unmasked_key", unmasked);
        }
        result.put("masked_key", mask(row.keyPrefix));
        result.put("user_id", row.userId);
        result.put("creator_id", row.creatorId);
        result.put("created_at", row.createdAt);
        result.put("updated_at", row.updatedAt);
        Map<String, Object> updatedBy = new LinkedHashMap<>();
        updatedBy.put("id", row.updatedById);
        updatedBy.put("common_name", row.updatedByName);
        result.put("updated_by", updatedBy);
        return result;
    }

    static String mask(String prefix) {
        return prefix + "*".repeat(KEY_LENGTH - prefix.length());
    }

    static String newKey() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return "mb_" + Base64.getEncoder().encodeToString(bytes);
    }

    private OffsetDateTime now() {
        return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
    }

    private static String sha256(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
