package io.quarry.warehouse;

import java.time.OffsetDateTime;

/** A row of metabase_table: a table (or view) found by sync. */
public final class Table {
    public Long id;
    public Long dbId;
    /** Null for engines without schemas. */
    public String schemaName;
    public String name;
    public String displayName;
    public String description;
    public String entityType;
    public String visibilityType;
    public boolean active = true;
    public String initialSyncStatus = "incomplete";
    public Long estimatedRowCount;
    public String fieldOrder = "database";
    public String caveats;
    public String pointsOfInterest;
    public boolean showInGettingStarted;
    /** Made by a CSV upload: only such tables take appended or replacing files. */
    public boolean isUpload;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;
}
