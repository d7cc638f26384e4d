package io.quarry.snippet;

import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface SnippetMapper {
    void insertSnippet(Snippet snippet);

    Snippet findSnippet(@Param("id") long id);

    Snippet findSnippetByName(@Param("name") String name);

    /** By name (case-insensitive). */
    List<Snippet> snippets(@Param("archived") boolean archived);

    int updateSnippet(Snippet snippet);

    /** The collection's namespace ("" for the default one), or null when there is no such collection. */
    String collectionNamespace(@Param("id") long id);
}
