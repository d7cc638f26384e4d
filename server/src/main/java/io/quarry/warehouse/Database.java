package io.quarry.warehouse;

import java.time.OffsetDateTime;
import java.util.Map;

/** A row of metabase_database: a connected database. {@code details} is held decrypted; never serialise it raw. */
public final class Database implements Cloneable {
    public Long id;
    public String name;
    public String description;
    public String engine;
    /** Decrypted connection details; filled by {@link DatabaseService} from {@link #storedDetails}. */
    public Map<String, Object> details;
    /** The details column as stored: JSON, or AES-GCM ciphertext when an encryption key is configured. */
    public String storedDetails;
    public Map<String, Object> settings;
    public boolean isSample;
    public boolean isFullSync = true;
    public boolean isOnDemand;
    public boolean autoRunQueries = true;
    public Boolean refingerprint;
    public Integer cacheTtl;
    public String metadataSyncSchedule;
    public String cacheFieldValuesSchedule;
    public String timezone;
    public String dbmsVersion;
    public String initialSyncStatus = "incomplete";
    public String caveats;
    public String pointsOfInterest;
    public Long creatorId;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;

    /** A copy of this row with other settings (the rest shared), for asking the door as if they were stored. */
    public Database withSettings(Map<String, Object> otherSettings) {
        try {
            Database copy = (Database) clone();
            copy.settings = otherSettings;
            return copy;
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }
}
