package io.quarry.assistant;

import java.time.OffsetDateTime;
import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface FeedbackMapper {
    /** A stored piece of feedback. */
    final class Feedback {
        public Long id;
        public Long userId;
        public String feedbackType;
        public String entityType;
        public String prompt;
        public String generatedSql;
        public String message;
        public String payload;
        public OffsetDateTime createdAt;
    }

    int insertFeedback(Feedback feedback);

    /** Newest first. */
    List<Feedback> listFeedback(@Param("limit") int limit, @Param("offset") int offset);

    long countFeedback();
}
