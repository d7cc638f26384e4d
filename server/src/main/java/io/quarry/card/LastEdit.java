package io.quarry.card;

import java.time.OffsetDateTime;

/** Who changed a card last, and when (from its newest revision). */
public final class LastEdit {
    public Long modelId;
    public Long userId;
    public OffsetDateTime createdAt;
}
