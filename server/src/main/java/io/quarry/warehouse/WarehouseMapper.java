package io.quarry.warehouse;

import java.util.Collection;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/** Statements over connected databases and their metadata (tables, fields, field values). */
public interface WarehouseMapper {
    // --- databases ---
    /** Writes {@link Database#storedDetails} (the service encrypts {@code details} into it first). */
    void insertDatabase(Database database);

    Database findDatabase(@Param("id") long id);

    List<Database> listDatabases();

    int updateDatabase(Database database);

    int updateDatabaseSyncStatus(@Param("id") long id, @Param("status") String status);

    int updateDatabaseVersion(@Param("id") long id, @Param("version") String version, @Param("timezone") String timezone);

    int deleteDatabase(@Param("id") long id);

    // --- tables ---
    void insertTable(Table table);

    Table findTable(@Param("id") long id);

    List<Table> listTables(@Param("dbId") Long dbId, @Param("activeOnly") boolean activeOnly);

    int updateTableMetadata(Table table);

    int updateTableSyncState(Table table);

    int markTableUploaded(@Param("id") long id);

    int updateTablesSyncStatus(@Param("dbId") long dbId, @Param("status") String status);

    // --- fields ---
    void insertField(Field field);

    Field findField(@Param("id") long id);

    List<Field> listFieldsOfTables(@Param("tableIds") Collection<Long> tableIds);

    List<Field> listFieldsReferencingTable(@Param("tableId") long tableId);

    int updateFieldCustomPosition(@Param("id") long id, @Param("position") int position);

    List<Field> listFieldsOfDatabase(@Param("dbId") long dbId);

    int updateFieldSyncState(Field field);

    int updateFieldMetadata(Field field);

    int updateFieldAnalysis(Field field);

    int updateFieldForeignKey(@Param("id") long id, @Param("targetId") Long targetId, @Param("semanticType") String semanticType);

    // --- field values ---
    FieldValues findFieldValues(@Param("fieldId") long fieldId);

    void insertFieldValues(FieldValues values);

    int updateFieldValues(FieldValues values);

    int deleteFieldValues(@Param("fieldId") long fieldId);

    int deleteFieldValuesOfDatabase(@Param("dbId") long dbId);

    // --- browsing and editing metadata (GET /api/database/:id/..., /api/table, /api/field) ---
    List<Table> listTablesByIds(@Param("ids") Collection<Long> ids);

    List<Field> listFieldsByIds(@Param("ids") Collection<Long> ids);

    /** Primary-key fields of the database's active tables. */
    List<Field> listPkFieldsOfDatabase(@Param("dbId") long dbId);

    /** Active, visible tables whose lower-cased name is LIKE {@code pattern} (backslash escapes), by name. */
    List<Table> autocompleteTables(@Param("dbId") long dbId, @Param("pattern") String pattern, @Param("limit") int limit);

    /** Active fields (not sensitive or retired) of active tables whose lower-cased name is LIKE {@code pattern}. */
    List<FieldSuggestion> autocompleteFields(@Param("dbId") long dbId, @Param("pattern") String pattern, @Param("limit") int limit);

    /** Everything a person may edit on a field (PUT /api/field/:id). */
    int updateFieldEdits(Field field);

    int updateFieldPosition(@Param("id") long id, @Param("position") int position);

    /** The cached values of every field of the database's tables. */
    List<FieldValues> listFieldValuesOfDatabase(@Param("dbId") long dbId);
}
