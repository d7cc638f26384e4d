package io.quarry.search;

import java.util.List;

/**
 * The bind values of one search in SQL (see SearchMapper.xml): what to match, how to rank, which filters and which
 * rights apply. A null list or flag means "not applied".
 */
public final class SearchQuery {
    /** The normalised query (lower case, single spaces), or null for no text match (every row, score 0). */
    public String q;
    /** {@code q} escaped for LIKE, followed by {@code %}: the name-prefix tier. */
    public String qPrefix;
    /** {@code %word%} LIKE patterns (escaped), one per word; every one must match. */
    public List<String> patterns;
    /** Per word, a regular expression matching the word's letters and digits at the start of a word of the name; null when
     * some word has none (then no name is a word-prefix match). */
    public List<String> wordStarts;
    /** The same for PostgreSQL's regular expressions. */
    public List<String> wordStartsPg;

    public boolean cards;
    /** Card models wanted among card, dataset, metric (as Metabase names them). */
    public List<String> cardModels;
    public boolean dashboards;
    public boolean collections;
    public boolean tables;
    public boolean segments;
    public boolean snippets;
    public boolean databases;

    public boolean archived;
    public Long collection;
    /** {@code %/<collection>/%}: descendants of {@code collection} by location. */
    public String collectionLike;
    public Long tableDbId;
    public List<Long> createdBy;

    /** False for superusers (and callers who may read every collection): no collection filter. */
    public boolean filterCollections;
    public boolean rootReadable;
    /** False for superusers: snippets need the snippets Root (no collection) or a readable collection. */
    public boolean filterSnippets;
    public boolean snippetRootReadable;
    public Long[] readableCollections;
    /** False for superusers: no data-permission filter. */
    public boolean filterData;
    public Long[] readableDatabases;

    public Integer limit;
    public Integer offset;
}
