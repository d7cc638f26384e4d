package io.quarry.card;

import java.time.OffsetDateTime;
import org.apache.ibatis.annotations.Param;

public interface CardMapper {
    void insertCard(Card card);

    Card findCard(@Param("id") long id);

    int touchCard(@Param("id") long id, @Param("at") OffsetDateTime at);
}
