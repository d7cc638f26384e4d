package io.quarry.card;

import java.time.OffsetDateTime;
import org.apache.ibatis.annotations.Param;

public interface CardMapper {
    void insertCard(Card card);

    Card findCard(@Param("id") long id);

    /** Cards of a type ({@code question}, {@code model}, {@code metric}) on a database, archived ones excluded. */
    long countCardsOfDatabase(@Param("databaseId") long databaseId, @Param("type") String type);

    int touchCard(@Param("id") long id, @Param("at") OffsetDateTime at);
}
