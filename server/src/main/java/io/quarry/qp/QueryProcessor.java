package io.quarry.qp;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;
import io.quarry.core.Clocks;
import io.quarry.core.Json;
import io.quarry.driver.Driver;
import io.quarry.qp.mbql.MbqlQueries;
import io.quarry.qp.mbql.MbqlReferences.CardQuery;
import io.quarry.qp.mbql.MbqlReferences;
import io.quarry.qp.nativeq.Substitution;
import io.quarry.qp.nativeq.TagResolver;
import io.quarry.qp.nativeq.TemplateException;
import io.quarry.qp.nativeq.TemplateTag;
import io.quarry.setting.Settings;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.MetadataService;
import io.quarry.warehouse.SavedQuestions;
import io.quarry.warehouse.Table;
import java.sql.Statement;
import java.time.Clock;
import java.time.DayOfWeek;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * The query pipeline every caller goes through, as explicit stages: normalise the request → resolve references
 * (snippets, card tags) → check the caller's data permissions → compile to SQL with bind parameters → execute with a
 * timeout → stream rows to the requested format. {@link #prepare} runs everything up to compilation ({@link #resolve},
 * {@link #checkPermissions}, {@link #compile(Resolved, Caller, Purpose, boolean)}); {@link #open} executes. Each stage is
 * its own class (QueryNormalizer, TagResolver, QueryExecutor, the writers). HTTP requests run queries through
 * {@link io.quarry.qp.run.QueryRunner}, whose around-steps call these stages.
 */
public final class QueryProcessor {
    /** Metabase's absolute cap: the rows an Excel sheet holds, less its header. */
    public static final long ABSOLUTE_MAX_ROWS = 1_048_575;

    /** Why a query runs: the API response caps rows (2,000 / 10,000), downloads only at the absolute maximum. */
    public enum Purpose { API, EXPORT }

    private final DatabaseService databases;
    private final QueryExecutor executor;
    private final MetadataService metadata;
    private final Settings settings;
    private final Clock clock;
    private final int timeoutSeconds;
    private final MbqlQueries mbql;
    private final Lookups lookups;

    private final QueryTimers timers;

    public QueryProcessor(DatabaseService databases, QueryExecutor executor, QueryTimers timers, MetadataService metadata, Settings settings,
                          Clock clock, int timeoutSeconds, Lookups lookups) {
        this.lookups = Objects.requireNonNull(lookups, "lookups is null");
        this.databases = databases;
        this.executor = executor;
        this.timers = timers;
        this.metadata = metadata;
        this.settings = settings;
        this.clock = clock;
        this.timeoutSeconds = timeoutSeconds;
        this.mbql = new MbqlQueries(metadata, databases, executor.warehouses(), settings, clock);
    }

    /**
     * The timers of executing queries: the keep-alive newlines written to the clients of queries still executing after a
     * second (see {@code io.quarry.qp.run.ExecuteWithKeepAlive}; the queries themselves execute on the request threads)
     * and the queries' timeouts. Stopped when Quarry stops.
     */
    public QueryTimers timers() {
        return timers;
    }

    /** Stops the timers' threads (undeploying must not leave threads of the webapp behind). */
    public void close() {
        timers.close();
    }

    /** Whether a caller may read a saved card (its collection's rights); implemented by the cards module. */
    public interface CardAccess {
        boolean canRead(Caller caller, long cardId);
    }

    /**
     * The data permission check, implemented by the permissions module: whether the caller may run the query
     * (ad-hoc native SQL, ad-hoc structured, saved question). The processor answers a refusal with a
     * MISSING_PERMISSIONS failure.
     */
    public interface Permissions {
        boolean mayRun(Caller caller, long databaseId, boolean nativeQuery, boolean savedCard);
    }

    /** Metabase's message when data permissions refuse a query. */
    public static final String NO_QUERY_PERMISSION = "You do not have permissions to run this query.";

    /**
     * The read-only look-ups the processor compiles references with and checks rights by, built before it by the
     * modules that own them: saved questions ({@code {{#123}}} in native SQL, {@code card__123} sources in MBQL) and
     * who may read them, segments' filter clauses ({@code ["segment", id]}), snippets' SQL by name
     * ({@code {{snippet: name}}}), and the data permission check.
     */
    public record Lookups(LongFunction<CardQuery> cards, CardAccess cardAccess, LongFunction<Object> segments,
                          Function<String, String> snippets, Permissions permissions) {
        public Lookups {
            Objects.requireNonNull(cards, "cards is null");
            Objects.requireNonNull(cardAccess, "cardAccess is null");
            Objects.requireNonNull(segments, "segments is null");
            Objects.requireNonNull(snippets, "snippets is null");
            Objects.requireNonNull(permissions, "permissions is null");
        }
    }

    /**
     * One compilation of a query and, recursively, of the cards it refers to. {@code reader}: the caller of an ad-hoc
     * query, whose card references must be readable to them (null for a saved question, which runs with its own
     * rights, and for superusers); {@code depth}: how deep in card references this compilation is (a card that
     * refers to itself, maybe through others, stops at depth 10).
     */
    private final class Compilation implements MbqlReferences {
        private static final int MAX_DEPTH = 10;
        private final Caller reader;
        private final int depth;

        Compilation(Caller reader, int depth) {
            this.reader = reader;
            this.depth = depth;
        }

        /** A persisted model's own query: read from its table (a structured one only with exactly its columns). */
        CompiledQuery compileReading(Query query, Database database, MbqlReferences.PersistedTable table) {
            if (query.type() == Query.Type.MBQL) {
                return mbql.compile(query, database, this, table);
            }
            String qualified = databases.driverOf(database).dialect().qualify(table.schema(), table.table());
            return new CompiledQuery("SELECT * FROM " + qualified, List.of(), List.of());
        }

        CompiledQuery compile(Query query, Database database) {
            if (query.type() == Query.Type.MBQL) {
                return mbql.compile(query, database, this);
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
                        new Sources(this, database, driver), Clocks.utcLocalNow(clock), firstDayOfWeek())
                        .fill(query.nativeSql());
                return new CompiledQuery(bound.sql(), bound.params(), List.of(), true);
            } catch (TemplateException e) {
                throw new QueryFailure(e.missingParameter() ? QueryFailure.Type.MISSING_REQUIRED_PARAMETER
                        : QueryFailure.Type.INVALID_QUERY, e.getMessage());
            }
        }

        @Override
        public CardQuery card(long cardId) {
            CardQuery card = readableCard(cardId);
            // a persisted model is read from its table: its tags were filled in when the table was built
            return card == null || card.persisted() != null ? card : withTagsFilledIn(card);
        }

        @Override
        public Object segment(long segmentId) {
            return lookups.segments().apply(segmentId);
        }

        @Override
        public Object metric(long metricId) {
            return null;
        }

        /**
         * An ad-hoc query may use a saved card ({@code card__N}, {@code {{#N}}}) only when its caller may read that
         * card, as in Metabase; a saved question runs with its own rights (its source cards are not checked again).
         */
        private CardQuery readableCard(long cardId) {
            CardQuery card = lookups.cards().apply(cardId);
            if (card != null && reader != null && !lookups.cardAccess().canRead(reader, cardId)) {
                throw new QueryFailure(QueryFailure.Type.MISSING_PERMISSIONS, "You do not have permissions to view Card " + cardId + ".");
            }
            return card;
        }

        /**
         * A native card used as the source of a structured query: its template tags (snippets, card references,
         * variables with their defaults, optional clauses without a value dropped) are filled in here, so the
         * structured compiler gets plain SQL and its bind values ({@code native.params}, in order). A required variable
         * without a default fails the query as it would fail the card itself.
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
        Substitution.Bound compileCard(long cardId, Database database) {
            CardQuery card = readableCard(cardId);
            if (card == null) {
                return null;
            }
            if (card.databaseId() != database.id) {
                throw new TemplateException("Card " + cardId + " queries another database.");
            }
            try {
                Query query = QueryNormalizer.normalize(Json.MAPPER.valueToTree(card.datasetQuery()));
                if (card.persisted() != null) {
                    // a persisted model: a native one's table has the columns of its query, in order; a structured one's
                    // is read only when it has exactly the query's columns, as for a card__N source
                    if (depth >= MAX_DEPTH) {
                        throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, "Card references nest too deeply (does a card refer to itself?).");
                    }
                    CompiledQuery compiled = new Compilation(reader, depth + 1).compileReading(query, database, card.persisted());
                    return new Substitution.Bound(compiled.sql(), compiled.params());
                }
                CompiledQuery compiled = compileNested(query, database);
                return new Substitution.Bound(compiled.sql(), compiled.params());
            } catch (QueryFailure failure) {
                throw new TemplateException("Card " + cardId + ": " + failure.getMessage());
            }
        }

        /** Compiles the query of a referenced card one level deeper. */
        private CompiledQuery compileNested(Query query, Database database) {
            if (depth >= MAX_DEPTH) {
                throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, "Card references nest too deeply (does a card refer to itself?).");
            }
            return new Compilation(reader, depth + 1).compile(query, database);
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
                    card = lookups.cards().apply(Long.parseLong(s.substring("card__".length())));
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

    /**
     * A request normalised, with the database it runs on (not yet checked against the caller's rights);
     * {@code usesNative}: any part of it is SQL (a native query, a native stage or join source, a native card it uses),
     * see {@link NativeParts}.
     */
    public record Resolved(Query query, Database database, boolean usesNative) {
    }

    public Prepared prepare(JsonNode request, Caller caller, Purpose purpose) {
        return prepare(request, caller, purpose, false);
    }

    /**
     * As {@link #prepare(JsonNode, Caller, Purpose)}; {@code savedCard}: the query is a saved question's, run as saved.
     * The stages one by one: {@link #resolve}, {@link #checkPermissions}, {@link #compile(Resolved, Caller, Purpose, boolean)}.
     */
    public Prepared prepare(JsonNode request, Caller caller, Purpose purpose, boolean savedCard) {
        Resolved resolved = resolve(request);
        checkPermissions(caller, resolved, savedCard);
        return compile(resolved, caller, purpose, savedCard);
    }

    /** Normalises the request and finds its database; a missing database is an invalid query. */
    public Resolved resolve(JsonNode request) {
        Query query = onSourceCardDatabase(QueryNormalizer.normalize(request));
        Database database = databases.findShared(query.databaseId());
        if (database == null) {
            throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, "Database " + query.databaseId() + " does not exist.");
        }
        return new Resolved(query, database, query.type() == Query.Type.NATIVE || NativeParts.in(query.mbql(), lookups.cards()));
    }

    /**
     * Data permissions: signed-in callers only, then the permission graph's verdict. A query any part of which is SQL
     * (a native stage or join source, a native card it uses) needs native query rights, as a native query does; a saved
     * question runs with its own rights (checked when it was saved).
     */
    public void checkPermissions(Caller caller, Resolved resolved, boolean savedCard) {
        if (!caller.authenticated()
                || !lookups.permissions().mayRun(caller, resolved.database().id, resolved.usesNative(), savedCard)) {
            throw new QueryFailure(QueryFailure.Type.MISSING_PERMISSIONS, NO_QUERY_PERMISSION);
        }
    }

    /**
     * Compiles a resolved query with the caller's rights: an ad-hoc query's card references must be readable to a
     * caller who is not a superuser; a saved question's are not checked again.
     */
    public Prepared compile(Resolved resolved, Caller caller, Purpose purpose, boolean savedCard) {
        return compile(resolved, caller, purpose, savedCard, null);
    }

    /**
     * As {@link #compile(Resolved, Caller, Purpose, boolean)}; {@code ownCardId}: the saved card whose own query this
     * is, run as it is saved (no parameter values). When that card is a persisted model read from its table (see
     * {@link Lookups#cards}), its structured query reads the table where the table has exactly its columns, and its
     * native query reads the table, as Metabase reads a persisted model's table when the model itself runs.
     */
    public Prepared compile(Resolved resolved, Caller caller, Purpose purpose, boolean savedCard, Long ownCardId) {
        Caller reader = !savedCard && !caller.superuser() ? caller : null;
        Query query = resolved.query();
        MbqlReferences.PersistedTable persisted = null;
        if (ownCardId != null && (query.parameters() == null || query.parameters().isEmpty())) {
            CardQuery card = lookups.cards().apply(ownCardId);
            persisted = card == null || card.databaseId() != resolved.database().id ? null : card.persisted();
        }
        Compilation compilation = new Compilation(reader, 0);
        CompiledQuery compiled = persisted == null ? compilation.compile(query, resolved.database())
                : compilation.compileReading(query, resolved.database(), persisted);
        return new Prepared(query, resolved.database(), compiled.authored(resolved.usesNative()), rowLimit(query, purpose));
    }

    /** Compiles a query without a caller (its card references are not checked), as the pivot subsets are. */
    public CompiledQuery compile(Query query, Database database) {
        boolean authored = query.type() == Query.Type.NATIVE || NativeParts.in(query.mbql(), lookups.cards());
        return new Compilation(null, 0).compile(query, database).authored(authored);
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
        private final Compilation compilation;
        private final Database database;
        private final Driver driver;

        Sources(Compilation compilation, Database database, Driver driver) {
            this.compilation = compilation;
            this.database = database;
            this.driver = driver;
        }

        @Override
        public TagResolver.Column column(long fieldId) {
            Field field = metadata.findField(fieldId);
            Table table = field == null ? null : metadata.findTable(field.tableId);
            if (table == null || !table.dbId.equals(database.id)) {
                return null;
            }
            String sql = driver.dialect().qualify(table.schemaName, table.name) + "." + driver.dialect().quote(field.name);
            return new TagResolver.Column(sql, field.effectiveType != null ? field.effectiveType : field.baseType);
        }

        @Override
        public String snippet(String name) {
            return lookups.snippets().apply(name);
        }

        @Override
        public Substitution.Bound card(long cardId) {
            return compilation.compileCard(cardId, database);
        }
    }
}
