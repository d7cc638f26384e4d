package io.quarry.qp;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.Db;
import io.quarry.driver.Driver;
import io.quarry.qp.mbql.MbqlQueries;
import io.quarry.qp.mbql.MbqlReferences;
import io.quarry.qp.mbql.MbqlReferences.CardQuery;
import io.quarry.qp.nativeq.Substitution;
import io.quarry.qp.nativeq.TagResolver;
import io.quarry.qp.nativeq.TemplateException;
import io.quarry.qp.nativeq.TemplateTag;
import io.quarry.setting.Settings;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.SavedQuestions;
import io.quarry.warehouse.Table;
import io.quarry.warehouse.WarehouseMapper;
import io.quarry.core.Json;
import io.quarry.core.Caller;
import java.sql.Statement;
import java.time.Clock;
import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * The query pipeline every caller goes through, as explicit stages: normalise the request → resolve references
 * (snippets, card tags) → check the caller's data permissions → compile to SQL with bind parameters → execute with a
 * timeout → stream rows to the requested format. {@link #prepare} runs everything up to compilation; {@link #open}
 * executes. Each stage is its own class (QueryNormalizer, TagResolver, QueryExecutor, the writers).
 */
public final class QueryProcessor {
    /** Metabase's absolute cap: the rows an Excel sheet holds, less its header. */
    public static final long ABSOLUTE_MAX_ROWS = 1_048_575;

    /** Why a query runs: the API response caps rows (2,000 / 10,000), downloads only at the absolute maximum. */
    public enum Purpose { API, EXPORT }

    private final DatabaseService databases;
    private final QueryExecutor executor;
    private final Db db;
    private final Settings settings;
    private final Clock clock;
    private final int timeoutSeconds;
    private final MbqlQueries mbql;

    private final ExecutorService workers;

    public QueryProcessor(DatabaseService databases, QueryExecutor executor, Db db, Settings settings, Clock clock, int timeoutSeconds) {
        this.databases = databases;
        this.executor = executor;
        this.db = db;
        this.settings = settings;
        this.clock = clock;
        this.timeoutSeconds = timeoutSeconds;
        this.mbql = new MbqlQueries(db, databases, settings, clock);
        AtomicInteger threads = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "quarry-query-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Threads that execute statements while the request thread keeps the client's connection alive (see
     * {@link KeepAliveQuery}); idle ones end after a minute, all of them when Quarry stops.
     */
    public ExecutorService workers() {
        return workers;
    }

    /** Stops the statement threads (undeploying must not leave threads of the webapp behind). */
    public void close() {
        workers.shutdownNow();
    }

    /** The structured-query compiler (modules owning cards, segments and metrics plug their references in here). */
    public MbqlQueries mbql() {
        return mbql;
    }

    /** Saved questions, for {@code {{#123}}} in native SQL and {@code card__123} sources in MBQL; set by the cards module. */
    private volatile LongFunction<CardQuery> cards = id -> null;
    /** How deep card references are being compiled on this thread (a card that refers to itself must stop). */
    private static final ThreadLocal<int[]> CARD_DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    /** Segments' filter clauses for {@code ["segment", id]}; set by the segments module. */
    private volatile LongFunction<Object> segments = id -> null;
    /** Snippets' SQL by name for {@code {{snippet: name}}}; set by the snippets module. */
    private volatile Function<String, String> snippets = name -> null;

    public void useSegments(LongFunction<Object> lookup) {
        this.segments = lookup;
    }

    public void useSnippets(Function<String, String> lookup) {
        this.snippets = lookup;
    }

    /** Whether a caller may read a saved card (its collection's rights); set by the cards module. */
    public interface CardAccess {
        boolean canRead(Caller caller, long cardId);
    }

    private volatile CardAccess cardAccess = (caller, cardId) -> true;
    /** The caller of the ad-hoc query being compiled on this thread, whose card references must be readable to them. */
    private static final ThreadLocal<Caller> AD_HOC_CALLER = new ThreadLocal<>();

    public void useCardAccess(CardAccess access) {
        this.cardAccess = access;
    }

    /**
     * An ad-hoc query may use a saved card ({@code card__N}, {@code {{#N}}}) only when its caller may read that card,
     * as in Metabase; a saved question runs with its own rights (its source cards are not checked again).
     */
    private void requireReadableCard(long cardId) {
        Caller caller = AD_HOC_CALLER.get();
        if (caller != null && !cardAccess.canRead(caller, cardId)) {
            throw new QueryFailure(QueryFailure.Type.MISSING_PERMISSIONS, "You do not have permissions to view Card " + cardId + ".");
        }
    }

    public void useCards(LongFunction<CardQuery> lookup) {
        this.cards = lookup;
        mbql.useReferences(new MbqlReferences() {
            @Override
            public CardQuery card(long cardId) {
                CardQuery card = readableCard(cardId);
                return card == null ? null : withTagsFilledIn(card);
            }

            @Override
            public Object segment(long segmentId) {
                return segments.apply(segmentId);
            }

            @Override
            public Object metric(long metricId) {
                return null;
            }
        });
    }

    /**
     * A native card used as the source of a structured query: its template tags (snippets, card references, variables
     * with their defaults, optional clauses without a value dropped) are filled in here, so the structured compiler
     * gets plain SQL and its bind values ({@code native.params}, in order). A required variable without a default
     * fails the query as it would fail the card itself.
     */
    private CardQuery withTagsFilledIn(CardQuery card) {
        if (card.datasetQuery() == null) {
            return card;
        }
        Query query;
        try {
            query = QueryNormalizer.normalize(Json.MAPPER.valueToTree(card.datasetQuery()));
        } catch (QueryFailure | IllegalArgumentException e) {
            return card; // the structured compiler reports what it cannot use
        }
        if (query.type() != Query.Type.NATIVE || query.nativeSql() == null
                || (query.templateTags().isEmpty() && !query.nativeSql().contains("{{"))) {
            return card;
        }
        Database database = databases.find(card.databaseId());
        if (database == null) {
            return card;
        }
        CompiledQuery compiled = compileNested(query, database);
        Map<String, Object> nativePart = new LinkedHashMap<>();
        nativePart.put("query", compiled.sql());
        nativePart.put("params", new ArrayList<>(compiled.params()));
        Map<String, Object> filled = new LinkedHashMap<>();
        filled.put("database", card.databaseId());
        filled.put("type", "native");
        filled.put("native", nativePart);
        return new CardQuery(card.databaseId(), filled);
    }

    /** A card's query compiled to SQL for use as a subquery on {@code database}; null when there is no such card. */
    private Substitution.Bound compileCard(long cardId, Database database) {
        CardQuery card = readableCard(cardId);
        if (card == null) {
            return null;
        }
        if (card.databaseId() != database.id) {
            throw new TemplateException("Card " + cardId + " queries another database.");
        }
        try {
            CompiledQuery compiled = compileNested(QueryNormalizer.normalize(Json.MAPPER.valueToTree(card.datasetQuery())), database);
            return new Substitution.Bound(compiled.sql(), compiled.params());
        } catch (QueryFailure failure) {
            throw new TemplateException("Card " + cardId + ": " + failure.getMessage());
        }
    }

    /** A saved card by id (null when there is none), failing when the ad-hoc caller may not read it. */
    private CardQuery readableCard(long cardId) {
        CardQuery card = cards.apply(cardId);
        if (card != null) {
            requireReadableCard(cardId);
        }
        return card;
    }

    /** Compiles the query of a referenced card; a card that refers to itself (maybe through others) stops at depth 10. */
    private CompiledQuery compileNested(Query query, Database database) {
        int[] depth = CARD_DEPTH.get();
        if (depth[0] >= 10) {
            throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, "Card references nest too deeply (does a card refer to itself?).");
        }
        depth[0]++;
        try {
            return compile(query, database);
        } finally {
            depth[0]--;
        }
    }

    /**
     * A structured query on the Saved Questions virtual database (-1337) runs on the database of the saved question it
     * starts from, as in Metabase; any other query is returned as it is.
     */
    private Query onSourceCardDatabase(Query query) {
        if (query.databaseId() != SavedQuestions.VIRTUAL_DATABASE_ID || query.mbql() == null) {
            return query;
        }
        Object stage = query.mbql();
        while (stage instanceof Map<?, ?> inner) {
            if (inner.get("source-table") instanceof String s && s.startsWith("card__")) {
                CardQuery card;
                try {
                    card = cards.apply(Long.parseLong(s.substring("card__".length())));
                } catch (NumberFormatException e) {
                    return query;
                }
                return card == null ? query : new Query(card.databaseId(), query.type(), query.nativeSql(), query.templateTags(),
                        query.mbql(), query.parameters(), query.maxResults(), query.jsIntToString());
            }
            stage = inner.get("source-query");
        }
        return query;
    }

    /** A query compiled and ready to execute. */
    public record Prepared(Query query, Database database, CompiledQuery compiled, long rowLimit) {
    }

    public Prepared prepare(JsonNode request, Caller caller, Purpose purpose) {
        return prepare(request, caller, purpose, false);
    }

    /** As {@link #prepare(JsonNode, Caller, Purpose)}; {@code savedCard}: the query is a saved question's, run as saved. */
    public Prepared prepare(JsonNode request, Caller caller, Purpose purpose, boolean savedCard) {
        Query query = onSourceCardDatabase(QueryNormalizer.normalize(request));
        Database database = databases.find(query.databaseId());
        if (database == null) {
            throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, "Database " + query.databaseId() + " does not exist.");
        }
        checkPermissions(caller, database, query, savedCard);
        boolean checkCards = !savedCard && !caller.superuser();
        if (checkCards) {
            AD_HOC_CALLER.set(caller);
        }
        try {
            return new Prepared(query, database, compile(query, database), rowLimit(query, purpose));
        } finally {
            if (checkCards) {
                AD_HOC_CALLER.remove();
            }
        }
    }

    /**
     * The data permission check, plugged in by the permissions module: throws a {@link QueryFailure} of type
     * MISSING_PERMISSIONS when the caller may not run the query (ad-hoc native SQL, ad-hoc structured, saved question).
     */
    public interface Permissions {
        void check(Caller caller, long databaseId, boolean nativeQuery, boolean savedCard);
    }

    private volatile Permissions permissions = (caller, databaseId, nativeQuery, savedCard) -> { };

    public void usePermissions(Permissions permissions) {
        this.permissions = permissions;
    }

    /** Data permissions: signed-in callers only, then the permission graph's verdict. */
    private void checkPermissions(Caller caller, Database database, Query query, boolean savedCard) {
        if (!caller.authenticated()) {
            throw new QueryFailure(QueryFailure.Type.MISSING_PERMISSIONS, "You do not have permissions to run this query.");
        }
        permissions.check(caller, database.id, query.type() != Query.Type.MBQL, savedCard);
    }

    public CompiledQuery compile(Query query, Database database) {
        if (query.type() == Query.Type.MBQL) {
            return mbql.compile(query, database);
        }
        Driver driver = databases.driverOf(database);
        Map<String, TemplateTag> tags = new LinkedHashMap<>();
        query.templateTags().forEach((key, value) -> {
            if (value instanceof Map<?, ?> map) {
                @SuppressWarnings("unchecked")
                Map<String, Object> tag = (Map<String, Object>) map;
                tags.put(key, TemplateTag.fromJson(key, tag));
            }
        });
        try {
            Substitution.Bound bound = new TagResolver(tags, QueryNormalizer.tagValues(query.parameters()),
                    new Sources(database, driver), LocalDateTime.now(clock.withZone(ZoneOffset.UTC)), firstDayOfWeek())
                    .fill(query.nativeSql());
            if ("h2".equals(database.engine)) {
                H2Guard.check(bound.sql());
            }
            return new CompiledQuery(bound.sql(), bound.params(), List.of());
        } catch (TemplateException e) {
            throw new QueryFailure(e.getMessage().startsWith("You'll need") ? QueryFailure.Type.MISSING_REQUIRED_PARAMETER
                    : QueryFailure.Type.INVALID_QUERY, e.getMessage());
        }
    }

    public QueryExecutor.Cursor open(Prepared prepared) {
        return executor.open(prepared.database(), prepared.compiled(), prepared.rowLimit(), timeoutSeconds);
    }

    /** As {@link #open(Prepared)}, showing the statement to {@code onStatement} before it executes (to cancel it). */
    public QueryExecutor.Cursor open(Prepared prepared, Consumer<Statement> onStatement) {
        return executor.open(prepared.database(), prepared.compiled(), prepared.rowLimit(), timeoutSeconds, onStatement);
    }

    private long rowLimit(Query query, Purpose purpose) {
        long apiLimit = MbqlQueries.aggregatedOrLimited(query) ? aggregatedLimit() : unaggregatedLimit();
        return rowLimit(purpose, query.maxResults(), apiLimit);
    }

    /**
     * The rows a query may return: for the API the row-limit setting ({@code apiLimit}), for downloads the absolute
     * maximum; lowered by the query's own {@code constraints.max-results}; never above {@link #ABSOLUTE_MAX_ROWS}.
     */
    static long rowLimit(Purpose purpose, Long maxResults, long apiLimit) {
        long limit = purpose == Purpose.EXPORT ? ABSOLUTE_MAX_ROWS : apiLimit;
        if (maxResults != null && maxResults > 0) {
            limit = Math.min(limit, maxResults);
        }
        return Math.min(limit, ABSOLUTE_MAX_ROWS);
    }

    private long unaggregatedLimit() {
        Long limit = settings.integer("unaggregated-query-row-limit");
        return limit == null ? 2000 : limit;
    }

    /** Metabase's cap for structured queries that aggregate or carry their own limit. */
    private long aggregatedLimit() {
        Long limit = settings.integer("aggregated-query-row-limit");
        return limit == null ? 10000 : limit;
    }

    private DayOfWeek firstDayOfWeek() {
        String day = settings.string("start-of-week");
        return DayOfWeek.valueOf((day == null ? "sunday" : day).toUpperCase(Locale.ROOT));
    }

    /** Columns, snippets and cards for template tags, from Quarry's metadata; fields of other databases do not exist. */
    private final class Sources implements TagResolver.Sources {
        private final Database database;
        private final Driver driver;

        Sources(Database database, Driver driver) {
            this.database = database;
            this.driver = driver;
        }

        @Override
        public TagResolver.Column column(long fieldId) {
            return db.tx(session -> {
                WarehouseMapper mapper = session.getMapper(WarehouseMapper.class);
                Field field = mapper.findField(fieldId);
                Table table = field == null ? null : mapper.findTable(field.tableId);
                if (table == null || !table.dbId.equals(database.id)) {
                    return null;
                }
                String sql = driver.dialect().qualify(table.schemaName, table.name) + "." + driver.dialect().quote(field.name);
                return new TagResolver.Column(sql, field.effectiveType != null ? field.effectiveType : field.baseType);
            });
        }

        @Override
        public String snippet(String name) {
            return snippets.apply(name);
        }

        @Override
        public Substitution.Bound card(long cardId) {
            return compileCard(cardId, database);
        }
    }
}
