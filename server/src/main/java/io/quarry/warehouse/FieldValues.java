package io.quarry.warehouse;

import java.time.OffsetDateTime;

/** A row of metabase_fieldvalues: the distinct values of a low-cardinality field (JSON arrays as text). */
public final class FieldValues {
    public Long id;
    public Long fieldId;
    public String fieldValues;
    public String humanReadableValues;
    public boolean hasMoreValues;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;
}
