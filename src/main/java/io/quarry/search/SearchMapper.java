package io.quarry.search;

import java.util.Collection;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/**
 * Search in SQL: {@link #counts} and {@link #page} match, filter (rights included), rank and page every searchable
 * model in one statement each; the per-model statements then read the full rows of the page's ids.
 */
public interface SearchMapper {
    /** Hits per model (Metabase's model names). */
    List<SearchKey> counts(SearchQuery query);

    /** The ranked page: tier, recency, name, model order, id. */
    List<SearchKey> page(SearchQuery query);

    List<SearchRow> cards(@Param("ids") Collection<Long> ids);

    List<SearchRow> dashboards(@Param("ids") Collection<Long> ids);

    List<SearchRow> collections(@Param("ids") Collection<Long> ids);

    List<SearchRow> tables(@Param("ids") Collection<Long> ids);

    List<SearchRow> segments(@Param("ids") Collection<Long> ids);

    List<SearchRow> snippets(@Param("ids") Collection<Long> ids);

    List<SearchRow> databases(@Param("ids") Collection<Long> ids);
}
