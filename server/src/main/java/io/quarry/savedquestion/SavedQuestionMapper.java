package io.quarry.savedquestion;

import java.util.Collection;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/** Reads report_card (and collection names) for the Saved Questions virtual database and card autocomplete. */
public interface SavedQuestionMapper {
    /** A card row as this module needs it. */
    final class CardRow {
        public long id;
        public String name;
        public String description;
        public Long databaseId;
        public Long collectionId;
        public String collectionName;
        public String cardType;
        public String queryType;
        public String datasetQuery;
        public String resultMetadata;
    }

    /** Non-archived cards of the given types that have result metadata, by lower-cased name. */
    List<CardRow> sourceCards(@Param("types") Collection<String> types);

    long countCollectionsNamed(@Param("name") String name);

    /**
     * Non-archived cards of a database, models first, newest first: {@code idPrefix} matches the id's text as a
     * prefix, {@code id} the id exactly, {@code namePattern} a LIKE pattern over the lower-cased name; null = unused.
     */
    List<CardRow> autocomplete(@Param("databaseId") long databaseId, @Param("idPrefix") String idPrefix,
                               @Param("id") Long id, @Param("namePattern") String namePattern);
}
