package io.quarry.sync;

import io.quarry.warehouse.Database;
import io.quarry.warehouse.Field;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/**
 * Sync's own statements: set-based updates and the single-row updates sync sends in JDBC batches, so that a schema
 * of thousands of tables is written in a few round trips rather than one per row.
 */
public interface SyncMapper {
    /** Inserts a new field (its id comes back), with its first analysis when it has one already. */
    void insertField(Field field);

    int deactivateTables(@Param("ids") Collection<Long> ids, @Param("now") OffsetDateTime now);

    int deactivateFields(@Param("ids") Collection<Long> ids, @Param("now") OffsetDateTime now);

    /** Marks fields as primary keys unless they already have a semantic type. */
    int markPrimaryKeys(@Param("ids") Collection<Long> ids);

    /** Points a field at its foreign-key target; a semantic type a person chose other than type/FK is kept. */
    int setForeignKey(@Param("id") long id, @Param("targetId") long targetId);

    /** What analysis learned about one field. */
    int saveAnalysis(Field field);

    /**
     * A first analysis of fields whose table had no rows: only when they were analysed and their semantic type (the
     * name-based one, or the one they had) change, for many fields in one statement.
     */
    int saveAnalysisWithoutData(@Param("ids") Collection<Long> ids, @Param("semanticType") String semanticType,
                                @Param("now") OffsetDateTime now);

    /** Sets the initial sync status of a database's tables that have status {@code from} ({@code null}: all). */
    int setTablesSyncStatus(@Param("dbId") long dbId, @Param("from") String from, @Param("to") String to);

    /** Every database with only what scheduling needs: id, schedules, is_full_sync, is_on_demand. */
    List<Database> scheduleRows();

    /** One database's scheduling row, or null when it is gone. */
    Database scheduleRow(@Param("id") long id);

    /** The database a field belongs to, or null. */
    Long databaseOfField(@Param("fieldId") long fieldId);

    /** The ids of fields that have cached values, in a database. */
    List<Long> fieldsWithValues(@Param("dbId") long dbId);
}
