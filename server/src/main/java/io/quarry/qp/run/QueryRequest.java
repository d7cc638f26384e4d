package io.quarry.qp.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.core.Caller;
import io.quarry.qp.export.ExportFormat;
import io.quarry.qp.export.ExportRequest;
import java.util.Objects;

/**
 * One query to run, everything named: why it runs ({@link QueryContext}), who runs it (the caller, passed explicitly),
 * the query (ad-hoc, or a saved card's stored query), the caller's parameter values, the saved card it comes from (for
 * usage and failure bodies), the cache rules, and for a download its format. Validation of the HTTP request is the
 * resource's; this is what is left once it passed.
 *
 * @param query      the query as stored or sent; may be null (an empty body), which fails as an invalid query
 * @param parameters parameter values to set on the query; null (or JSON null) keeps the query's own
 * @param card       the saved card the query is from; null for an ad-hoc query
 * @param download   the download's format, options and file name; null for an API answer
 * @param pivot      run as a pivot table (every breakout subset and the grand total, as one result)
 */
public record QueryRequest(QueryContext context, Caller caller, JsonNode query, JsonNode parameters, SavedCard card,
                           CacheRules cacheRules, Download download, boolean pivot) {
    public QueryRequest {
        Objects.requireNonNull(context, "context is null");
        Objects.requireNonNull(caller, "caller is null");
        Objects.requireNonNull(cacheRules, "cacheRules is null");
        boolean trusted = context == QueryContext.PUBLIC || context == QueryContext.EMBED;
        boolean mayDownload = trusted || context == QueryContext.SUBSCRIPTION;
        if (!mayDownload && (context == QueryContext.EXPORT) != (download != null)) {
            throw new IllegalArgumentException("A download runs in the EXPORT context (or a public, embedded or subscription one)");
        }
        if (trusted && card == null) {
            throw new IllegalArgumentException("A public or embedded query is a saved card's");
        }
    }

    /** The saved card a query comes from: its usage is recorded, its database named in a failure. */
    public record SavedCard(long id, Long databaseId) {
    }

    /**
     * The result cache: a card's {@code cache_ttl} in hours (null: not cached) and the caller's {@code ignore_cache}
     * (skip reading the cache, not refreshing it).
     */
    public record CacheRules(boolean ignoreCache, Integer ttlHours) {
        public static final CacheRules NONE = new CacheRules(false, null);
    }

    /** A download: the format, its options, the file name's prefix ({@code query_result} for ad-hoc queries). */
    public record Download(ExportFormat format, ExportRequest.Options options, String filenamePrefix) {
    }

    /** An ad-hoc query answered as the API's result object. */
    public static QueryRequest adHoc(Caller caller, JsonNode query) {
        return new QueryRequest(QueryContext.AD_HOC, caller, query, null, null, CacheRules.NONE, null, false);
    }

    /** A table's rows for the data-model grid: the ad-hoc query {@code query} in {@link QueryContext#TABLE_GRID}. */
    public static QueryRequest tableGrid(Caller caller, JsonNode query) {
        return new QueryRequest(QueryContext.TABLE_GRID, caller, query, null, null, CacheRules.NONE, null, false);
    }

    /** A saved card's query (question or dashcard) with the caller's parameter values, answered as the API's result. */
    public static QueryRequest savedCard(QueryContext context, Caller caller, SavedCard card, JsonNode query,
                                         JsonNode parameters, CacheRules cacheRules) {
        return new QueryRequest(context, caller, query, parameters, Objects.requireNonNull(card, "card is null"), cacheRules,
                null, false);
    }

    /** A download of an ad-hoc query ({@code card} null) or of a saved card's. */
    public static QueryRequest download(Caller caller, JsonNode query, SavedCard card, Download download) {
        return new QueryRequest(QueryContext.EXPORT, caller, query, null, card, CacheRules.NONE, download, false);
    }

    /**
     * A saved card's query behind a public link or a signed embed: it runs with the card's own rights (Metabase runs
     * these as an administrator), anonymously, with the API's row limits, or as a download when {@code download} is set.
     */
    public static QueryRequest trusted(QueryContext context, SavedCard card, JsonNode query, JsonNode parameters,
                                       Download download) {
        if (context != QueryContext.PUBLIC && context != QueryContext.EMBED) {
            throw new IllegalArgumentException("Only public and embedded queries run with the card's own rights");
        }
        return new QueryRequest(context, Caller.ANONYMOUS, query, parameters, Objects.requireNonNull(card, "card is null"),
                CacheRules.NONE, download, false);
    }

    /**
     * A saved card's query sent by a subscription or alert: it runs with its creator's rights (as Metabase runs pulses
     * as their creator), as the API's result object or, when {@code download} is set, as an attachment.
     */
    public static QueryRequest subscription(Caller creator, SavedCard card, JsonNode query, Download download) {
        return new QueryRequest(QueryContext.SUBSCRIPTION, creator, query, null, Objects.requireNonNull(card, "card is null"),
                CacheRules.NONE, download, false);
    }

    /**
     * A persisted model's query for its refresh: no caller (it runs with the card's own rights, as Metabase refreshes
     * as an administrator), no parameters, no cache; run through {@link QueryRunner#materialize}.
     */
    public static QueryRequest refresh(SavedCard card, JsonNode query) {
        return new QueryRequest(QueryContext.PERSISTENCE_REFRESH, Caller.ANONYMOUS, query, null,
                Objects.requireNonNull(card, "card is null"), CacheRules.NONE, null, false);
    }

    /**
     * A query Quarry reads itself for the caller (not answered to a client): a card's result metadata
     * ({@link QueryContext#INTERNAL}, ad-hoc rights) or a filter's values ({@link QueryContext#PARAMETER_VALUES}, a
     * saved question's rights).
     */
    public static QueryRequest internal(QueryContext context, Caller caller, JsonNode query) {
        if (context != QueryContext.INTERNAL && context != QueryContext.PARAMETER_VALUES) {
            throw new IllegalArgumentException("Only internal and parameter-values queries are read for a caller");
        }
        return new QueryRequest(context, caller, query, null, null, CacheRules.NONE, null, false);
    }

    /** The values of a public link's or signed embed's filter, read with the shared object's rights. */
    public static QueryRequest sharedParameterValues(JsonNode query) {
        return new QueryRequest(QueryContext.SHARED_PARAMETER_VALUES, Caller.ANONYMOUS, query, null, null, CacheRules.NONE, null,
                false);
    }

    /**
     * Whether the query runs with its card's own rights rather than the caller's (public links, signed embeds, and the
     * values of their filters).
     */
    public boolean trusted() {
        return context == QueryContext.PUBLIC || context == QueryContext.EMBED || context == QueryContext.SHARED_PARAMETER_VALUES;
    }

    /** Whether the query is checked and compiled as a saved question's: a card's, or a filter's values. */
    boolean runsAsSaved() {
        return card != null || context == QueryContext.PARAMETER_VALUES || context == QueryContext.SHARED_PARAMETER_VALUES;
    }

    /** The same query run as a pivot table. */
    public QueryRequest asPivot() {
        return new QueryRequest(context, caller, query, parameters, card, cacheRules, download, true);
    }

    /** The query as it runs: with the caller's parameter values when there are any. */
    JsonNode effectiveQuery() {
        if (parameters == null || parameters.isNull() || parameters.isMissingNode()) {
            return query;
        }
        ObjectNode withParameters = ((ObjectNode) query).deepCopy();
        withParameters.set("parameters", parameters);
        return withParameters;
    }
}
