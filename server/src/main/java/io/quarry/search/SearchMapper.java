package io.quarry.search;

import java.util.List;
import org.apache.ibatis.annotations.Param;

/**
 * Reads every searchable model from its own table. {@code words} are lower-case {@code LIKE} patterns
 * ({@code %word%}) every name must match; an empty list matches everything.
 */
public interface SearchMapper {
    List<SearchRow> cards(@Param("words") List<String> words);

    List<SearchRow> dashboards(@Param("words") List<String> words);

    List<SearchRow> collections(@Param("words") List<String> words);

    /** Every collection of the default namespace (for the parents of results), whatever its name. */
    List<SearchRow> allCollections();

    List<SearchRow> tables(@Param("words") List<String> words);

    List<SearchRow> segments(@Param("words") List<String> words);

    List<SearchRow> snippets(@Param("words") List<String> words);

    List<SearchRow> databases(@Param("words") List<String> words);
}
