package io.quarry.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.Db;
import io.quarry.card.Card;
import io.quarry.card.CardService;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.driver.Feature;
import io.quarry.qp.run.QueryOutcome;
import io.quarry.qp.run.QueryRequest;
import io.quarry.qp.Warehouses;
import io.quarry.qp.run.QueryRunner;
import io.quarry.setting.Setting;
import io.quarry.setting.Settings;
import io.quarry.sync.Cron;
import io.quarry.user.User;
import io.quarry.user.UserService;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Model persistence (Metabase's {@code model_persistence}): the global and per-database switches, each model's
 * record and its state machine, and refreshes.
 *
 * <pre>
 *   (none) --persist--> creating --refresh ok--> persisted --refresh--> refreshing --ok--> persisted
 *                          |                         ^                      |
 *                          +--refresh fails--> error +------- refresh ok ---+--fails--> error (old table kept)
 *   any --unpersist card--> off (table dropped)      any --unpersist database / disable--> deletable --> dropped, row removed
 * </pre>
 *
 * A refresh runs the model's query through {@link QueryRunner#materialize} ({@code PERSISTENCE_REFRESH}) into a new
 * table that replaces the old one ({@link CacheTables}); a failure keeps the old table and records the message.
 * Refreshes run on {@code executor}, one at a time per model.
 */
public final class PersistenceService {
    private static final Logger log = LoggerFactory.getLogger(PersistenceService.class);
    public static final String CRON_SETTING = "persisted-model-refresh-cron-schedule";
    public static final String HOURS_SETTING = "persisted-model-refresh-interval-hours";
    public static final String ANCHOR_SETTING = "persisted-model-refresh-anchor-time";
    static final String DEFAULT_CRON = "0 0 0/6 * * ? *";
    private static final Set<Long> VALID_HOURS = Set.of(1L, 2L, 3L, 6L, 12L, 24L);
    static final String CRON_FORMAT = "Invalid cron schedule string. It should be formatted as: "
            + "<seconds> <minutes> <hours> <day of month> <month> <day of week> <year>";
    static final String CRON_YEAR = "Must be a valid cron string not specifying a year";

    private final Db db;
    private final Settings settings;
    private final DatabaseService databases;
    private final CardService cards;
    private final UserService users;
    private final QueryRunner runner;
    private final PersistedTables tables;
    private final CacheTables cacheTables;
    private final Executor executor;
    private final Clock clock;
    /** Models whose refresh is under way (one at a time per model). */
    private final Set<Long> refreshing = ConcurrentHashMap.newKeySet();

    PersistenceService(Db db, Settings settings, DatabaseService databases, Warehouses warehouses, CardService cards,
                       UserService users, QueryRunner runner, PersistedTables tables, Executor executor, Clock clock) {
        this.db = Objects.requireNonNull(db, "db is null");
        this.settings = Objects.requireNonNull(settings, "settings is null");
        this.databases = Objects.requireNonNull(databases, "databases is null");
        this.cards = Objects.requireNonNull(cards, "cards is null");
        this.users = Objects.requireNonNull(users, "users is null");
        this.runner = Objects.requireNonNull(runner, "runner is null");
        this.tables = Objects.requireNonNull(tables, "tables is null");
        this.cacheTables = new CacheTables(warehouses);
        this.executor = Objects.requireNonNull(executor, "executor is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        register(settings);
    }

    /** The refresh schedule settings (the cron string, and the older interval in hours it is built from when unset). */
    static void register(Settings settings) {
        if (settings.find(CRON_SETTING) != null) {
            return;
        }
        settings.register(
                Setting.of(CRON_SETTING, Setting.Type.STRING).visibility(Setting.Visibility.ADMIN)
                        .normalize(v -> validCron(String.valueOf(v), CRON_SETTING)).build(),
                Setting.of(HOURS_SETTING, Setting.Type.POSITIVE_INTEGER).visibility(Setting.Visibility.ADMIN).defaultValue(6L)
                        .normalize(v -> {
                            if (!(v instanceof Number n) || !VALID_HOURS.contains(n.longValue())) {
                                throw ApiException.invalidField(HOURS_SETTING, "Must be one of 1, 2, 3, 6, 12 or 24.");
                            }
                            return n.longValue();
                        }).build(),
                Setting.of(ANCHOR_SETTING, Setting.Type.STRING).visibility(Setting.Visibility.ADMIN).defaultValue("00:00")
                        .normalize(v -> {
                            if (!String.valueOf(v).matches("^([01][0-9]|2[0-3]):[0-5][0-9]$")) {
                                throw ApiException.invalidField(ANCHOR_SETTING, "Must be a time of day as HH:MM.");
                            }
                            return String.valueOf(v);
                        }).build());
    }

    /** A refresh cron as Metabase accepts it: seven parts, valid Quartz, and no year (it ends in {@code *}). */
    static String validCron(String cron, String field) {
        String trimmed = cron.strip();
        if (trimmed.split("\\s+").length != 7) {
            throw ApiException.invalidField(field, CRON_FORMAT);
        }
        if (!trimmed.endsWith("*") || !Cron.isValid(trimmed)) {
            throw ApiException.invalidField(field, CRON_YEAR);
        }
        return trimmed;
    }

    /**
     * The refresh schedule: the cron setting when set, else every {@code interval-hours} hours from the anchor time
     * (by default every 6 hours from midnight, Metabase's {@code 0 0 0/6 * * ? *}).
     */
    public String refreshCron() {
        String cron = settings.string(CRON_SETTING);
        if (cron != null) {
            return cron;
        }
        Long hours = settings.integer(HOURS_SETTING);
        String anchor = settings.string(ANCHOR_SETTING);
        int hour = anchor == null ? 0 : Integer.parseInt(anchor.substring(0, 2));
        int minute = anchor == null ? 0 : Integer.parseInt(anchor.substring(3, 5));
        long every = hours == null ? 6 : hours;
        return "0 " + minute + " " + (every >= 24 ? String.valueOf(hour) : (hour % every) + "/" + every) + " * * ? *";
    }

    // --- global switch --------------------------------------------------------------------------------------------

    public void enable() {
        settings.set(PersistedTables.GLOBAL_SETTING, true);
    }

    /** Off: every database's option removed, every model's table dropped and its record removed. */
    public void disable() {
        if (!tables.enabled()) {
            return;
        }
        settings.set(PersistedTables.GLOBAL_SETTING, false);
        for (Database database : databases.list()) {
            if (database.settings != null && database.settings.containsKey(PersistedTables.DATABASE_SETTING)) {
                Map<String, Object> patched = new LinkedHashMap<>(database.settings);
                patched.remove(PersistedTables.DATABASE_SETTING);
                database.settings = patched;
                databases.update(database);
            }
        }
        for (PersistedInfo info : db.with(PersistedInfoMapper.class, PersistedInfoMapper::allPersistedInfos)) {
            db.run(session -> session.getMapper(PersistedInfoMapper.class).deactivate(info.id, "deletable", now()));
        }
        prune();
    }

    public void setRefreshSchedule(String cron) {
        settings.set(CRON_SETTING, validCron(cron, "cron"));
    }

    // --- databases ------------------------------------------------------------------------------------------------

    /**
     * On for a database: the cache schema must be creatable and writable by its connection user (400 naming the
     * privilege when not); every model of the database gets a record and a first refresh. Already on: nothing changes.
     */
    public void persistDatabase(long databaseId, Long userId) {
        if (!tables.enabled()) {
            throw ApiException.badRequest("Persisting models is not enabled.");
        }
        Database database = databases.require(databaseId);
        requireSupported(database);
        if (PersistedTables.enabledFor(database)) {
            readyNewModels(databaseId, userId);
            return;
        }
        Map<String, Object> patched = new LinkedHashMap<>(database.settings == null ? Map.of() : database.settings);
        patched.put(PersistedTables.DATABASE_SETTING, true);
        database.settings = patched;
        // checked with the setting on (so the runner opens the database for writing), stored only when the check passed
        String problem = cacheTables.checkSchema(database, tables.schemaName(databaseId));
        if (problem != null) {
            throw ApiException.badRequest(problem);
        }
        databases.update(database);
        for (Long cardId : db.with(PersistedInfoMapper.class, m -> m.modelIdsOfDatabase(databaseId))) {
            PersistedInfo info = turnOn(cards.require(cardId), userId);
            refreshLater(info.id);
        }
    }

    /**
     * Models of a persisted database that have no record yet (made since persistence was switched on) get one and a
     * refresh, as Metabase's refresh task readies them; models switched off one by one stay off.
     */
    private void readyNewModels(long databaseId, Long userId) {
        for (Long cardId : db.with(PersistedInfoMapper.class, m -> m.modelIdsOfDatabase(databaseId))) {
            if (db.with(PersistedInfoMapper.class, m -> m.findPersistedInfoByCard(cardId)) == null) {
                refreshLater(turnOn(cards.require(cardId), userId).id);
            }
        }
    }

    /** Off for a database: its option removed, its models' tables dropped and their records removed. Already off: nothing. */
    public void unpersistDatabase(long databaseId) {
        Database database = databases.require(databaseId);
        if (!PersistedTables.enabledFor(database)) {
            return;
        }
        Map<String, Object> patched = new LinkedHashMap<>(database.settings);
        patched.remove(PersistedTables.DATABASE_SETTING);
        database.settings = patched;
        databases.update(database);
        for (PersistedInfo info : db.with(PersistedInfoMapper.class, m -> m.persistedInfosOfDatabase(databaseId))) {
            db.run(session -> session.getMapper(PersistedInfoMapper.class).deactivate(info.id, "deletable", now()));
        }
        prune();
    }

    private void requireSupported(Database database) {
        var driver = databases.findDriverOf(database);
        if (driver == null || !driver.features().contains(Feature.PERSIST_MODELS) || driver.persistedTables() == null) {
            throw ApiException.badRequest("Database does not support persisting");
        }
    }

    // --- models ---------------------------------------------------------------------------------------------------

    /** A model on: its record (creating) and a refresh. */
    public void persistCard(long cardId, Long userId) {
        Card card = cards.require(cardId);
        Database database = databases.require(card.databaseId);
        requireSupported(database);
        if (!tables.enabled() || !PersistedTables.enabledFor(database)) {
            throw ApiException.badRequest("Persisting models not enabled for database");
        }
        if (!"model".equals(card.cardType)) {
            throw ApiException.badRequest("Card is not a model");
        }
        PersistedInfo info = turnOn(card, userId);
        refreshLater(info.id);
    }

    /** A model off: its record stays, off and inactive; its table is dropped and queries run its query again. */
    public void unpersistCard(long cardId) {
        Card card = cards.require(cardId);
        if (!"model".equals(card.cardType)) {
            throw ApiException.badRequest("Card is not a model");
        }
        PersistedInfo info = db.with(PersistedInfoMapper.class, m -> m.findPersistedInfoByCard(cardId));
        if (info == null || "off".equals(info.state)) {
            return;
        }
        db.run(session -> session.getMapper(PersistedInfoMapper.class).deactivate(info.id, "off", now()));
        Database database = databases.find(info.databaseId);
        if (database != null) {
            cacheTables.drop(database, tables.schemaName(info.databaseId), info.tableName);
        }
    }

    /** A model's refresh, now (on the refresh threads). */
    public void refreshCard(long cardId) {
        Card card = cards.require(cardId);
        if (!"model".equals(card.cardType)) {
            throw ApiException.badRequest("Cannot refresh a non-model question");
        }
        if (card.archived) {
            throw ApiException.badRequest("Cannot refresh an archived model");
        }
        PersistedInfo info = Checks.found(db.with(PersistedInfoMapper.class, m -> m.findPersistedInfoByCard(cardId)));
        Database database = databases.require(card.databaseId);
        if (!tables.enabled() || !PersistedTables.enabledFor(database)) {
            throw ApiException.badRequest("Persisting models not enabled for database");
        }
        if ("off".equals(info.state) || "deletable".equals(info.state)) {
            throw ApiException.badRequest("The model is not persisted: persist it first.");
        }
        refreshLater(info.id);
    }

    /** The model's record, created or switched back on (creating, inactive until its first refresh). */
    private PersistedInfo turnOn(Card card, Long userId) {
        return db.tx(session -> {
            PersistedInfoMapper mapper = session.getMapper(PersistedInfoMapper.class);
            PersistedInfo info = mapper.findPersistedInfoByCard(card.id);
            if (info == null) {
                info = new PersistedInfo();
                info.databaseId = card.databaseId;
                info.cardId = card.id;
                info.questionSlug = PersistedTables.slug(card.name);
                info.tableName = PersistedTables.tableName(card.id, info.questionSlug);
                info.state = "creating";
                info.stateChangeAt = now();
                info.refreshBegin = now();
                info.creatorId = userId;
                mapper.insertPersistedInfo(info);
                return info;
            }
            if (Set.of("off", "deletable").contains(info.state)) {
                mapper.reactivate(info.id, userId, now());
            }
            return mapper.findPersistedInfo(info.id);
        });
    }

    // --- refresh --------------------------------------------------------------------------------------------------

    /** Refreshes on the refresh threads. */
    void refreshLater(long infoId) {
        executor.execute(() -> {
            try {
                refresh(infoId);
            } catch (RuntimeException e) {
                log.warn("Refreshing persisted model record {} failed", infoId, e);
            }
        });
    }

    /** Every model due a refresh (on, in a refreshable state, persistence on for its database): the scheduled job. */
    public void refreshAll() {
        if (!tables.enabled()) {
            return;
        }
        for (Database database : databases.list()) {
            if (PersistedTables.enabledFor(database)) {
                readyNewModels(database.id, null);
            }
        }
        for (PersistedInfo info : db.with(PersistedInfoMapper.class, PersistedInfoMapper::allPersistedInfos)) {
            if (!Set.of("creating", "persisted", "refreshing", "error").contains(info.state)) {
                continue;
            }
            Card card = cards.require(info.cardId);
            if (card.archived || !"model".equals(card.cardType)) {
                // an archived model (or one turned back into a question) keeps no table
                db.run(session -> session.getMapper(PersistedInfoMapper.class).deactivate(info.id, "deletable", now()));
                continue;
            }
            refresh(info.id);
        }
        prune();
    }

    /**
     * One refresh, on the calling thread: the model's query through the runner into a new table swapped in for the
     * old one; persisted with the new definition and hash, or error with the message (the old table kept). False
     * when it did not run (another refresh of the model under way, the record switched off, persistence off).
     */
    public boolean refresh(long infoId) {
        PersistedInfo info = db.with(PersistedInfoMapper.class, m -> m.findPersistedInfo(infoId));
        if (info == null || !refreshing.add(info.cardId)) {
            return false;
        }
        try {
            Card card = cards.require(info.cardId);
            Database database = databases.find(info.databaseId);
            if (!Set.of("creating", "persisted", "refreshing", "error").contains(info.state) || database == null
                    || !tables.enabled() || !PersistedTables.enabledFor(database) || card.archived || !"model".equals(card.cardType)) {
                return false;
            }
            JsonNode query = Json.MAPPER.readTree(card.datasetQuery);
            String hash = PersistedTables.queryHash(query);
            String begin = info.active ? "refreshing" : "creating";
            db.run(session -> session.getMapper(PersistedInfoMapper.class).beginRefresh(info.id, begin, now()));
            String schema = tables.schemaName(info.databaseId);
            List<CacheTables.BuiltColumn> built = new ArrayList<>();
            QueryOutcome outcome = runner.materialize(QueryRequest.refresh(new QueryRequest.SavedCard(card.id, card.databaseId), query),
                    (target, compiled) -> built.addAll(cacheTables.build(target, schema, info.tableName, compiled)));
            if (outcome instanceof QueryOutcome.Failed failed) {
                String message = failed.failure().getMessage();
                db.run(session -> session.getMapper(PersistedInfoMapper.class).refreshFailed(info.id, message, now()));
                log.info("Refreshing model {} failed: {}", card.id, message);
                return true;
            }
            String definition = Json.write(definition(info.tableName, built));
            int updated = db.tx(session -> session.getMapper(PersistedInfoMapper.class).refreshSucceeded(info.id, definition, hash, now()));
            if (updated == 0) {
                // switched off (or persistence disabled) while it ran: the table it built is nobody's
                cacheTables.drop(database, schema, info.tableName);
            }
            return true;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            db.run(session -> session.getMapper(PersistedInfoMapper.class).refreshFailed(info.id, e.getOriginalMessage(), now()));
            return true;
        } finally {
            refreshing.remove(info.cardId);
        }
    }

    private static Map<String, Object> definition(String table, List<CacheTables.BuiltColumn> columns) {
        List<Map<String, Object>> fields = new ArrayList<>();
        for (CacheTables.BuiltColumn c : columns) {
            Map<String, Object> field = new LinkedHashMap<>();
            field.put("field-name", c.name());
            field.put("base-type", c.baseType());
            fields.add(field);
        }
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("table-name", table);
        definition.put("field-definitions", fields);
        return definition;
    }

    /** Drops the tables of records marked deletable and removes the records (a table the database keeps is retried next time). */
    void prune() {
        for (PersistedInfo info : db.with(PersistedInfoMapper.class, PersistedInfoMapper::allPersistedInfos)) {
            if (!"deletable".equals(info.state)) {
                continue;
            }
            Database database = databases.find(info.databaseId);
            if (database == null || cacheTables.drop(database, tables.schemaName(info.databaseId), info.tableName)) {
                db.run(session -> session.getMapper(PersistedInfoMapper.class).deletePersistedInfo(info.id));
            }
        }
    }

    // --- reading --------------------------------------------------------------------------------------------------

    /** {@code GET /api/persist}: records of models not archived, newest refresh first, paged. */
    public Map<String, Object> list(Integer limit, Integer offset, Caller caller) {
        List<PersistedInfo> rows = db.with(PersistedInfoMapper.class, m -> m.listPersistedInfos(limit, offset));
        long total = db.with(PersistedInfoMapper.class, PersistedInfoMapper::countPersistedInfos);
        List<Map<String, Object>> data = new ArrayList<>();
        for (PersistedInfo info : rows) {
            data.add(view(info, caller));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("data", data);
        out.put("total", total);
        out.put("limit", limit);
        out.put("offset", offset);
        return out;
    }

    public Map<String, Object> get(long id, Caller caller) {
        return view(Checks.found(db.with(PersistedInfoMapper.class, m -> m.findPersistedInfo(id))), caller);
    }

    /** By card: 404 without a record, 403 unless the caller may read the model. */
    public Map<String, Object> getByCard(long cardId, Caller caller) {
        cards.requireReadable(cardId, caller);
        return view(Checks.found(db.with(PersistedInfoMapper.class, m -> m.findPersistedInfoByCard(cardId))), caller);
    }

    /** The record as the API shows it (no query hash, slug or state change time). */
    Map<String, Object> view(PersistedInfo info, Caller caller) {
        Card card = cards.require(info.cardId);
        Object collection = cards.views(List.of(card), caller).get(0).get("collection");
        Database database = databases.find(info.databaseId);
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", info.id);
        v.put("database_id", info.databaseId);
        v.put("card_id", info.cardId);
        v.put("table_name", info.tableName);
        v.put("active", info.active);
        v.put("state", info.state);
        v.put("error", info.error);
        v.put("refresh_begin", info.refreshBegin);
        v.put("refresh_end", info.refreshEnd);
        v.put("creator_id", info.creatorId);
        User creator = info.creatorId == null ? null : users.find(info.creatorId);
        v.put("creator", creator == null ? null : creator.summary().view());
        Object definition = null;
        if (info.definition != null) {
            try {
                definition = Json.read(info.definition);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                definition = null;
            }
        }
        v.put("definition", definition);
        v.put("card_name", card.name);
        v.put("card_archived", card.archived);
        v.put("card_type", card.cardType);
        v.put("database_name", database == null ? null : database.name);
        v.put("collection_id", card.collectionId);
        Map<?, ?> collectionView = collection instanceof Map<?, ?> m ? m : Map.of();
        v.put("collection_name", collectionView.get("name"));
        v.put("collection_authority_level", collectionView.get("authority_level"));
        v.put("schema_name", tables.schemaName(info.databaseId));
        v.put("next-fire-time", nextFireTime());
        return v;
    }

    private Object nextFireTime() {
        try {
            return Cron.parse(refreshCron()).nextAfter(ZonedDateTime.now(clock.withZone(ZoneOffset.UTC)))
                    .map(t -> t.toOffsetDateTime()).orElse(null);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private OffsetDateTime now() {
        return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
    }
}
