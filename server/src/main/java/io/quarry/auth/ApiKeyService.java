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
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.ibatis.exceptions.PersistenceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * API keys: {@code mb_} + Base64 of 32 random bytes (47 characters). The key is shown once; the database keeps its
 * 7-character prefix (to find it) and a bcrypt hash (to check it). Each key acts as its own user, a member of All Users
 * and of the key's group.
 */
public final class ApiKeyService {
    private static final int PREFIX_LENGTH = 7;
    private static final int KEY_LENGTH = 47;
    private static final int MAX_NAME_LENGTH = 254;
    /** Bound on remembered checks; past it the memory starts over (costing one bcrypt per key). */
    private static final int MAX_VERIFIED = 10_000;
    /** Failed keys from one address within an hour before it is throttled (sign-in's limit per address). */
    static final int FAILURE_THRESHOLD = 50;
    /** bcrypt checks of keys running at once, at most. */
    static final int MAX_CONCURRENT_HASHES = Math.max(2, Runtime.getRuntime().availableProcessors());
    private static final Logger log = LoggerFactory.getLogger(ApiKeyService.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Db db;
    private final Clock clock;
    /** SHA-256 of a key already checked → the bcrypt hash it was checked against, to skip bcrypt on every request. */
    private final Map<String, String> verified = new ConcurrentHashMap<>();
    private final boolean throttled;
    /** Failed keys per client address, as sign-in counts failed passwords per address. */
    private final Throttle failures;
    private final Semaphore hashing = new Semaphore(MAX_CONCURRENT_HASHES);
    private final LongAdder hashes = new LongAdder();

    public ApiKeyService(Db db, Clock clock) {
        this(db, clock, true);
    }

    /** {@code throttled}: whether failed keys are throttled per client address ({@code MB_DISABLE_SESSION_THROTTLE} off). */
    public ApiKeyService(Db db, Clock clock, boolean throttled) {
        this.db = db;
        this.clock = clock;
        this.throttled = throttled;
        this.failures = new Throttle("x-api-key", FAILURE_THRESHOLD, Duration.ofHours(1).toMillis(), clock);
    }

    /**
     * The active user behind a key sent from {@code address} (the client's IP, null when unknown), or null. In order of
     * cost: a key not of the generated shape is refused outright (no database, no bcrypt); a key already checked is
     * matched by its SHA-256 against the stored hash; an address past {@link #FAILURE_THRESHOLD} failed keys within
     * the hour gets no further bcrypt until its wait is over (the login throttle's rule: 15 s × over^1.5), so it can use
     * only keys already checked; everything else costs one bcrypt, run after the key's row was read and its
     * connection given back, never inside a transaction, and at most {@link #MAX_CONCURRENT_HASHES} at a time.
     */
    public User authenticate(String key, String address) {
        if (!wellFormed(key)) {
            return null;
        }
        String digest = sha256(key);
        String checkedAgainst = verified.get(digest);
        if (checkedAgainst == null && throttled && address != null && failures.secondsToWait(address) != null) {
            return null;
        }
        ApiKey row = db.with(ApiKeyMapper.class, m -> m.findApiKeyByPrefix(key.substring(0, PREFIX_LENGTH)));
        // A cached check counts only against the very hash it was made with: regenerating a key changes the hash.
        if (row == null || !row.keyHash.equals(checkedAgainst)) {
            Boolean matches = hashChecked(key, row);
            if (!Boolean.TRUE.equals(matches)) {
                if (matches != null && throttled && address != null) {
                    failures.record(address);
                }
                return null;
            }
            if (verified.size() >= MAX_VERIFIED) {
                verified.clear();
            }
            verified.put(digest, row.keyHash);
        }
        User user = db.with(UserMapper.class, m -> m.findUser(row.userId));
        return user != null && user.isActive ? user : null;
    }

    /**
     * Whether the key matches the row's hash: one bcrypt, or a useless one when there is no row (as Metabase does, so
     * the time does not tell whether a prefix exists). Null, without hashing, when the hashes in flight stay at their
     * bound for a second: a flood of guesses then costs the machine that bound, not every core.
     */
    private Boolean hashChecked(String key, ApiKey row) {
        boolean permitted;
        try {
            permitted = hashing.tryAcquire(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        if (!permitted) {
            return null;
        }
        try {
            hashes.increment();
            if (row == null) {
                Passwords.spendTime();
                return false;
            }
            return Passwords.verifyToken(key, row.keyHash);
        } finally {
            hashing.release();
        }
    }

    /**
     * The shape every key Quarry makes has: {@code mb_}, then the standard Base64 of 32 bytes (43 characters of its
     * alphabet and one {@code =} of padding). Metabase's own schema asks less (12 to 254 characters starting with
     * {@code mb_}, for keys supplied in its config files), which Quarry does not take.
     */
    static boolean wellFormed(String key) {
        if (key == null || key.length() != KEY_LENGTH || !key.startsWith("mb_") || key.charAt(KEY_LENGTH - 1) != '=') {
            return false;
        }
        for (int i = 3; i < KEY_LENGTH - 1; i++) {
            char c = key.charAt(i);
            boolean base64 = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/';
            if (!base64) {
                return false;
            }
        }
        return true;
    }

    /** bcrypt runs (real or useless) made by {@link #authenticate} since start: what a flood of guesses costs. */
    public long hashChecks() {
        return hashes.sum();
    }

    public List<Map<String, Object>> list() {
        return db.with(ApiKeyMapper.class, ApiKeyMapper::listApiKeys).stream().map(k -> view(k, null)).toList();
    }

    public long count() {
        return db.with(ApiKeyMapper.class, ApiKeyMapper::countApiKeys);
    }

    /**
     * Creates a key and the user it acts as (member of All Users and of {@code groupId}), in one transaction: an unknown
     * group (404) or a taken name (400) writes nothing.
     */
    public Map<String, Object> create(String name, long groupId, long creatorId) {
        checkNameLength(name);
        OffsetDateTime now = now();
        String[] key = new String[1];
        long id;
        try {
            id = db.tx(session -> {
                UserMapper users = session.getMapper(UserMapper.class);
                ApiKeyMapper keys = session.getMapper(ApiKeyMapper.class);
                Checks.found(users.findGroup(groupId));
                checkNameFree(keys, name, null);
                key[0] = keyWithUniquePrefix(keys);
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
                row.keyHash = Passwords.hashToken(key[0]);
                row.keyPrefix = key[0].substring(0, PREFIX_LENGTH);
                row.name = name;
                row.creatorId = creatorId;
                row.updatedById = creatorId;
                row.createdAt = now;
                row.updatedAt = now;
                keys.insertApiKey(row);
                return row.id;
            });
        } catch (PersistenceException e) {
            throw raceOnName(name, e);
        }
        log.info("API key {} \"{}\" created in group {} by user {}", id, name, groupId, creatorId);
        return view(find(id), key[0]);
    }

    /** Renames the key (and its user) and/or moves it to another group; null leaves a field as it is. */
    public Map<String, Object> update(long id, String name, Long groupId, long editorId) {
        if (name != null) {
            checkNameLength(name);
        }
        try {
            db.run(session -> {
                UserMapper users = session.getMapper(UserMapper.class);
                ApiKeyMapper keys = session.getMapper(ApiKeyMapper.class);
                ApiKey row = Checks.found(keys.findApiKey(id));
                boolean moveGroup = groupId != null && !groupId.equals(row.groupId);
                // Every check before any write.
                if (moveGroup) {
                    Checks.found(users.findGroup(groupId));
                }
                if (name != null) {
                    checkNameFree(keys, name, id);
                }
                OffsetDateTime now = now();
                if (name != null) {
                    keys.updateApiKeyName(id, name, editorId, now);
                    User user = users.findUser(row.userId);
                    user.firstName = name;
                    user.lastName = "";
                    user.updatedAt = now;
                    users.updateUser(user);
                }
                if (moveGroup) {
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
        } catch (PersistenceException e) {
            throw name == null ? e : raceOnName(name, e);
        }
        return view(find(id), null);
    }

    /** A new secret for the key: the old one stops working at once. Answers the key with the new secret, shown once. */
    public Map<String, Object> regenerate(long id, long editorId) {
        String key = db.tx(session -> {
            ApiKeyMapper keys = session.getMapper(ApiKeyMapper.class);
            Checks.found(keys.findApiKey(id));
            String fresh = keyWithUniquePrefix(keys);
            keys.updateApiKeySecret(id, Passwords.hashToken(fresh), fresh.substring(0, PREFIX_LENGTH), editorId, now());
            return fresh;
        });
        log.info("API key {} regenerated by user {}", id, editorId);
        return view(find(id), key);
    }

    /** Deletes the key; its user stays, deactivated, so history that names it still resolves. */
    public void delete(long id, long editorId) {
        db.run(session -> {
            ApiKeyMapper keys = session.getMapper(ApiKeyMapper.class);
            ApiKey row = Checks.found(keys.findApiKey(id));
            keys.deleteApiKey(id);
            session.getMapper(UserMapper.class).updateActive(row.userId, false);
        });
        log.info("API key {} deleted by user {}", id, editorId);
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

    private static void checkNameLength(String name) {
        if (name.length() > MAX_NAME_LENGTH) {
            throw ApiException.invalidField("name", "value must be a non-blank string of at most " + MAX_NAME_LENGTH + " characters.");
        }
    }

    /** Names are unique exactly as written (as in Metabase; "Key" and "key" are two names). */
    private static void checkNameFree(ApiKeyMapper keys, String name, Long self) {
        ApiKey other = keys.findApiKeyByName(name);
        if (other != null && !other.id.equals(self)) {
            throw nameTaken();
        }
    }

    private static ApiException nameTaken() {
        return ApiException.invalidField("name", "An API key with this name already exists.");
    }

    /** A write that lost a race on the unique name answers as the check would have; anything else goes on up. */
    private RuntimeException raceOnName(String name, PersistenceException e) {
        ApiKey other = db.with(ApiKeyMapper.class, m -> m.findApiKeyByName(name));
        return other != null ? nameTaken() : e;
    }

    /** A fresh key whose 7-character prefix no other key has (4 random characters: a clash is rare; retry). */
    private static String keyWithUniquePrefix(ApiKeyMapper keys) {
        for (int attempt = 0; attempt < 5; attempt++) {
            String key = newKey();
            if (keys.findApiKeyByPrefix(key.substring(0, PREFIX_LENGTH)) == null) {
                return key;
            }
        }
        throw new ApiException(409, "Could not generate a key with a unique prefix; please try again.");
    }

    /** The wire form, as Metabase presents a key; {@code unmasked} only right after create and regenerate. */
    private static Map<String, Object> view(ApiKey row, String unmasked) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("id", row.id);
        result.put("name", row.name);
        Map<String, Object> group = new LinkedHashMap<>();
        group.put("id", row.groupId);
        group.put("name", row.groupName);
        result.put("group", group);
        if (unmasked != null) {
            result.put("unmasked_key", unmasked);
        }
        result.put("masked_key", mask(row.keyPrefix));
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
