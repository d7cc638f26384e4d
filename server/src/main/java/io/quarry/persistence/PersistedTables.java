package io.quarry.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.appdb.Db;
import io.quarry.appdb.RevisionCache;
import io.quarry.core.Json;
import io.quarry.driver.Driver;
import io.quarry.qp.mbql.MbqlReferences;
import io.quarry.setting.Settings;
import io.quarry.qp.Warehouses;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.SampleDatabaseService;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which models are read from their tables, and the names of those tables, as Metabase names them. Built before the
 * query processor ({@link PersistenceModule#tables}), which asks it about every saved card a query uses
 * ({@link #withTable}); the rest of persistence ({@link PersistenceService}) is built after the query runner it
 * refreshes through.
 *
 * <p>A model is read from its table when persistence is on (globally and for its database), its record is active
 * (a refresh built the table), in a state whose table is whole (persisted, or refreshing and error, which keep the
 * last good table), and the table was built from the model's current query (the hash of its {@code dataset_query}).
 */
public final class PersistedTables implements io.quarry.card.CardService.Persisted {
    public static final String GLOBAL_SETTING = "persisted-models-enabled";
    /** The database-local setting (in the database's {@code settings}). */
    public static final String DATABASE_SETTING = DatabaseService.PERSIST_MODELS_SETTING;
    static final Set<String> SERVING_STATES = Set.of("persisted", "refreshing", "error");

    private final Db db;
    private final Settings settings;
    private final DatabaseService databases;
    private final Warehouses warehouses;
    /**
     * The persisted records queries read, on every run of a saved card: every change to a record (a refresh, a state
     * change, a deletion) commits through the application database and so empties this cache. Shared, never changed.
     */
    private final RevisionCache<Long, PersistedInfo> infos;

    PersistedTables(Db db, Settings settings, DatabaseService databases, Warehouses warehouses) {
        this.warehouses = warehouses;
        this.db = Objects.requireNonNull(db, "db is null");
        this.settings = Objects.requireNonNull(settings, "settings is null");
        this.databases = Objects.requireNonNull(databases, "databases is null");
        this.infos = db.cache(10_000);
    }

    private PersistedInfo servingInfo(long cardId) {
        return infos.get(cardId, key -> db.with(PersistedInfoMapper.class, m -> m.findPersistedInfoByCard(key)));
    }

    /** Whether persistence is switched on for the whole instance. */
    public boolean enabled() {
        return settings.bool(GLOBAL_SETTING);
    }

    /** Whether persistence is switched on for the database (its own setting). */
    public static boolean enabledFor(Database database) {
        return database.settings != null && Boolean.TRUE.equals(database.settings.get(DATABASE_SETTING));
    }

    /**
     * The card's query, with the table to read instead when the card is a model read from its table; the card as it
     * is otherwise (and for null).
     */
    public MbqlReferences.CardQuery withTable(long cardId, MbqlReferences.CardQuery card) {
        if (card == null || card.datasetQuery() == null || !enabled()) {
            return card;
        }
        PersistedInfo info = servingInfo(cardId);
        if (!serving(info) || !queryHash(card.datasetQuery()).equals(info.queryHash)) {
            return card;
        }
        Database database = databases.findShared(info.databaseId);
        if (database == null || !enabledFor(database)) {
            return card;
        }
        return card.withPersisted(new MbqlReferences.PersistedTable(schemaName(info.databaseId), info.tableName, columns(info.definition)));
    }

    /** Whether a card is a model read from its table (the card JSON's {@code persisted}). */
    @Override
    public boolean isPersisted(long cardId) {
        if (!enabled()) {
            return false;
        }
        return serving(servingInfo(cardId));
    }

    /** A deleted card's table (and any half-built one) is dropped; its record goes with the card. */
    @Override
    public void dropTableOf(long cardId) {
        PersistedInfo info = db.with(PersistedInfoMapper.class, m -> m.findPersistedInfoByCard(cardId));
        Database database = info == null ? null : databases.find(info.databaseId);
        if (database != null) {
            new CacheTables(warehouses).drop(database, schemaName(info.databaseId), info.tableName);
        }
    }

    private static boolean serving(PersistedInfo info) {
        return info != null && info.active && info.queryHash != null && info.definition != null && SERVING_STATES.contains(info.state);
    }

    /**
     * The cache schema of a database: {@code metabase_cache_<first character of each group of site-uuid>_<id>}; for the
     * bundled Sample Database the schema its file comes with ({@link SampleDatabaseService#CACHE_SCHEMA}), since its
     * user may write there only.
     */
    public String schemaName(long databaseId) {
        Database database = databases.findShared(databaseId);
        if (database != null && database.isSample) {
            return SampleDatabaseService.CACHE_SCHEMA;
        }
        return schemaName(settings.string("site-uuid"), databaseId);
    }

    static String schemaName(String siteUuid, long databaseId) {
        StringBuilder prefix = new StringBuilder();
        for (String group : siteUuid.split("-")) {
            if (!group.isEmpty()) {
                prefix.append(group.charAt(0));
            }
        }
        return Driver.PERSISTED_MODELS_SCHEMA_PREFIX + prefix.toString().toLowerCase(Locale.ROOT) + "_" + databaseId;
    }

    /** The question slug: the card's name lower-cased, anything but letters and digits as {@code _}, at most 10 characters. */
    static String slug(String name) {
        String slug = (name == null ? "" : name).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
        return slug.length() > 10 ? slug.substring(0, 10) : slug;
    }

    /** A model's table: {@code model_<card id>_<slug>}. */
    static String tableName(long cardId, String slug) {
        return "model_" + cardId + "_" + slug;
    }

    /** Base64 of the SHA-256 of the query as canonical JSON (keys sorted), so that a stored query hashes the same every time. */
    public static String queryHash(Object datasetQuery) {
        JsonNode canonical = canonical(Json.MAPPER.valueToTree(datasetQuery));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(Json.MAPPER.writeValueAsString(canonical).getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException | com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode canonical(JsonNode node) {
        if (node.isObject()) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                sorted.put(e.getKey(), canonical(e.getValue()));
            }
            ObjectNode out = Json.MAPPER.createObjectNode();
            sorted.forEach(out::set);
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = Json.MAPPER.createArrayNode();
            node.forEach(child -> out.add(canonical(child)));
            return out;
        }
        return node;
    }

    /** The column names of a stored definition, in order. */
    static List<String> columns(String definition) {
        List<String> names = new ArrayList<>();
        try {
            for (JsonNode field : Json.read(definition).path("field-definitions")) {
                names.add(field.path("field-name").asText());
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return List.of(); // matches no query's columns: the model runs its query
        }
        return names;
    }
}
