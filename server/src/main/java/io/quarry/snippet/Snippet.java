package io.quarry.snippet;

import java.time.OffsetDateTime;

/** A row of {@code native_query_snippet}: named SQL text that native queries include with {@code {{snippet: name}}}. */
public final class Snippet {
    public Long id;
    public String entityId;
    public String name;
    public String description;
    public String content;
    public Long creatorId;
    public boolean archived;
    /** A collection of the {@code snippets} namespace; null = that namespace's Root. */
    public Long collectionId;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;
}
