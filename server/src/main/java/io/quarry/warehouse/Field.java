package io.quarry.warehouse;

import java.time.OffsetDateTime;
import java.util.Map;

/** A row of metabase_field: a column of a table, with its types and what analysis learned about it. */
public final class Field {
    public Long id;
    public Long tableId;
    public String name;
    public String displayName;
    public String description;
    public String databaseType;
    public String baseType;
    public String effectiveType;
    public String semanticType;
    public String coercionStrategy;
    public Long fkTargetFieldId;
    public String visibilityType = "normal";
    /** {@code list}, {@code search}, {@code none}, or null (not analysed yet). */
    public String hasFieldValues;
    public boolean active = true;
    public int position;
    public int databasePosition;
    public int customPosition;
    public Long parentId;
    public boolean previewDisplay = true;
    public Map<String, Object> fingerprint;
    public int fingerprintVersion;
    public OffsetDateTime lastAnalyzed;
    public Map<String, Object> settings;
    public boolean databaseIsAutoIncrement;
    public boolean databaseRequired;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;
    /** Notes people write in the data model. */
    public String caveats;
    public String pointsOfInterest;
}
