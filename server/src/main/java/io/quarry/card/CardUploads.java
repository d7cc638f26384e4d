package io.quarry.card;

import io.quarry.appdb.ColumnLengths;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.driver.SqlDialect;
import io.quarry.driver.StatementKind;
import io.quarry.permission.DataPermissions;
import io.quarry.qp.WarehouseSession;
import io.quarry.qp.Warehouses;
import io.quarry.setting.Setting;
import io.quarry.setting.Settings;
import io.quarry.sync.SchemaSync;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.MetadataService;
import io.quarry.warehouse.Table;
import io.quarry.web.error.ApiException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CSV uploads: a CSV file becomes a typed table in the uploads database (settings {@code uploads-*}), synced, with a
 * model over it. A bad file is a 400 naming the problem; a failure after the table was made drops it again.
 */
public final class CardUploads {
    private static final Logger log = LoggerFactory.getLogger(CardUploads.class);
    /** PostgreSQL's identifier limit, the strictest of the supported targets. */
    static final int MAX_NAME = 63;
    static final int BATCH = 1000;
    static final String MAX_SIZE_SETTING = "max-upload-size-bytes";
    static final long DEFAULT_MAX_SIZE = 50L * 1024 * 1024;
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");

    private final MetadataService metadata;
    private final DatabaseService databases;
    private final Warehouses warehouses;
    private final SchemaSync schemaSync;
    private final CardService cards;
    private final Settings settings;
    private final DataPermissions permissions;
    private final Clock clock;

    public CardUploads(MetadataService metadata, DatabaseService databases, Warehouses warehouses, SchemaSync schemaSync,
                       CardService cards, Settings settings, DataPermissions permissions, Clock clock) {
        this.metadata = metadata;
        this.databases = databases;
        this.warehouses = warehouses;
        this.schemaSync = schemaSync;
        this.cards = cards;
        this.settings = settings;
        this.permissions = permissions;
        this.clock = clock;
    }

    /** The upload settings, registered with the others when cards start. */
    static void register(Settings settings) {
        if (settings.find("uploads-enabled") != null) {
            return;
        }
        settings.register(
                Setting.of("uploads-enabled", Setting.Type.BOOLEAN).visibility(Setting.Visibility.AUTHENTICATED).defaultValue(false).build(),
                Setting.of("uploads-database-id", Setting.Type.INTEGER).visibility(Setting.Visibility.AUTHENTICATED).build(),
                Setting.of("uploads-schema-name", Setting.Type.STRING).visibility(Setting.Visibility.AUTHENTICATED).build(),
                Setting.of("uploads-table-prefix", Setting.Type.STRING).visibility(Setting.Visibility.AUTHENTICATED).build(),
                // Metabase's fixed limit (its max-upload-size-bytes, 50 MB); here a setting (MB_MAX_UPLOAD_SIZE_BYTES)
                Setting.of(MAX_SIZE_SETTING, Setting.Type.POSITIVE_INTEGER).visibility(Setting.Visibility.ADMIN)
                        .defaultValue(DEFAULT_MAX_SIZE).build());
    }

    /**
     * Whether the database is where uploads go while uploads are on: Quarry may write to it then
     * ({@code io.quarry.qp.Warehouses}' write sessions).
     */
    public static boolean isUploadsDatabase(Settings settings, long databaseId) {
        return settings.find("uploads-enabled") != null && settings.bool("uploads-enabled")
                && Long.valueOf(databaseId).equals(settings.integer("uploads-database-id"));
    }

    /** The largest file an upload may send, in bytes. */
    public long maxFileBytes() {
        Long max = settings.integer(MAX_SIZE_SETTING);
        return max == null ? DEFAULT_MAX_SIZE : max;
    }

    /**
     * The uploads database, when the caller may upload into it: uploads on (400), the database there (400), and native
     * (SQL) rights on it (403), as Metabase asks, since an upload creates a table there. Checked before the form is read.
     */
    public Database requireMayUpload(Caller caller) {
        if (!settings.bool("uploads-enabled")) {
            throw ApiException.badRequest("Uploads are not enabled.");
        }
        Long databaseId = settings.integer("uploads-database-id");
        Database database = databaseId == null ? null : databases.find(databaseId);
        if (database == null) {
            throw ApiException.badRequest("The uploads database does not exist.");
        }
        if (!permissions.access(caller, database.id).canQueryNatively()) {
            throw ApiException.forbidden();
        }
        return database;
    }

    /** Creates the table and its model from the CSV in {@code file}, read as a stream twice; returns the model's id. */
    public long upload(Caller caller, String filename, Path file, Long collectionId) {
        Database database = requireMayUpload(caller);
        cards.requireCollectionWrite(caller, collectionId);
        if (filename == null || filename.isBlank()) {
            throw ApiException.badRequest("You must provide a CSV file in the \"file\" field.");
        }
        Shape csv;
        try (Reader in = reader(file)) {
            csv = shape(new Csv(in));
        } catch (IOException e) {
            throw ApiException.badRequest("The upload could not be read.");
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        String schema = settings.string("uploads-schema-name");
        schema = schema == null || schema.isBlank() ? null : schema;
        String prefix = settings.string("uploads-table-prefix");
        String tableName = tableName(prefix == null ? "" : prefix, filename);
        SqlDialect dialect = databases.driverOf(database).dialect();
        String qualified = schema == null ? dialect.quote(tableName) : dialect.qualify(schema, tableName);
        // engines whose DDL commits on its own (H2, MySQL) keep a created table when its rows fail: dropped below
        boolean[] created = {false};
        try {
            warehouses.write(database, StatementKind.WRITE_TABLES, session -> {
                session.update(createTable(qualified, csv, dialect), List.of(), false);
                created[0] = true;
                insertRows(session, qualified, csv, dialect, file);
                return null;
            });
            schemaSync.sync(database);
            String wantedSchema = schema;
            Table table = metadata.tables(database.id, true).stream()
                    .filter(t -> t.name.equalsIgnoreCase(tableName)
                            && (wantedSchema == null || wantedSchema.equalsIgnoreCase(t.schemaName)))
                    .findFirst().orElseThrow(() -> new IllegalStateException("The new table was not found by sync"));
            metadata.markUploaded(table.id);
            Map<String, Object> query = new LinkedHashMap<>();
            query.put("database", database.id);
            query.put("type", "query");
            query.put("query", Map.of("source-table", table.id));
            Card model = new Card();
            model.name = ColumnLengths.cut("report_card", "name", humanize(filename));
            model.display = "table";
            model.cardType = "model";
            model.datasetQuery = Json.write(query);
            model.queryType = "query";
            model.databaseId = database.id;
            model.tableId = table.id;
            model.collectionId = collectionId;
            model.visualizationSettings = "{}";
            model.parameters = "[]";
            model.parameterMappings = "[]";
            model.resultMetadata = cards.resultMetadata(query, null, true, caller);
            model.creatorId = caller.id();
            return cards.insert(model, caller).id;
        } catch (SQLException | RuntimeException e) {
            if (created[0]) {
                drop(database, qualified);
            }
            if (e instanceof ApiException api) {
                throw api;
            }
            log.warn("CSV upload into database {} failed", database.id, e);
            throw ApiException.badRequest("The CSV file could not be uploaded: " + e.getMessage());
        }
    }

    /**
     * Appends the CSV's rows to a table an upload made, or with {@code replace} replaces its rows by them, in one
     * transaction on the warehouse (all the rows or none). Metabase's checks and statuses, each error a JSON
     * {@code {"message"}}: the table (404), uploads on (422), the caller's rights as for an upload (403), the table made
     * by an upload (422), then the file: every column of the table present (order and case do not matter, 422 naming
     * the missing ones; columns the table lacks are refused too, Quarry adds none) and every value of the column's type
     * (422). Checked before the form is read: {@link #requireMayUpdate}.
     */
    public void update(Caller caller, long tableId, Path file, boolean replace) {
        try {
            Table table = requireMayUpdate(caller, tableId);
            Database database = databases.require(table.dbId);
            Shape csv;
            try (Reader in = reader(file)) {
                csv = shape(new Csv(in));
            } catch (IOException e) {
                throw ApiException.badRequest("The upload could not be read.");
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest(e.getMessage());
            }
            List<Field> fields = metadata.fieldsByTable(List.of(table.id)).get(table.id).stream()
                    .filter(f -> f.active && f.parentId == null && !f.name.equalsIgnoreCase("_mb_row_id")).toList();
            Map<String, Field> byName = new LinkedHashMap<>();
            fields.forEach(f -> byName.put(normalize(f.name), f));
            List<String> missing = byName.keySet().stream().filter(n -> !csv.columns().contains(n)).toList();
            List<String> extra = csv.columns().stream().filter(n -> !byName.containsKey(n)).toList();
            if (!missing.isEmpty() || !extra.isEmpty()) {
                List<String> parts = new ArrayList<>();
                if (!extra.isEmpty()) {
                    parts.add("The CSV file contains extra columns that are not in the table:\n- " + String.join("\n- ", extra));
                }
                if (!missing.isEmpty()) {
                    parts.add("The CSV file is missing columns that are in the table:\n- " + String.join("\n- ", missing));
                }
                throw new ApiException(422, String.join("\n\n", parts));
            }
            List<String> targetColumns = new ArrayList<>();
            List<CsvColumnType> targetTypes = new ArrayList<>();
            for (int c = 0; c < csv.columns().size(); c++) {
                Field field = byName.get(csv.columns().get(c));
                CsvColumnType type = typeOf(field.baseType);
                if (!csv.blankColumns().contains(c) && csv.types().get(c).widen(type) != type) {
                    throw new ApiException(422, "The CSV column \"" + csv.columns().get(c) + "\" has values that are not of the table's column type ("
                            + field.baseType + ").");
                }
                targetColumns.add(field.name);
                targetTypes.add(type);
            }
            Shape target = new Shape(targetColumns, targetTypes, csv.widths(), csv.rows(), csv.blankColumns());
            SqlDialect dialect = databases.driverOf(database).dialect();
            String qualified = table.schemaName == null ? dialect.quote(table.name) : dialect.qualify(table.schemaName, table.name);
            try {
                warehouses.write(database, StatementKind.WRITE_TABLES, session -> {
                    if (replace) {
                        session.update("DELETE FROM " + qualified, List.of(), false);
                    }
                    insertRows(session, qualified, target, dialect, file);
                    return null;
                });
            } catch (SQLException | RuntimeException e) {
                if (e instanceof ApiException api) {
                    throw api;
                }
                log.warn("CSV {} into table {} failed", replace ? "replacement" : "append", table.id, e);
                throw new ApiException(500, "There was an error uploading the file");
            }
        } catch (ApiException e) {
            throw e.body() != null ? e : new ApiException(e.status(), e.getMessage(), Map.of("message", e.getMessage()));
        }
    }

    /**
     * The table, when the caller may append to or replace it: it exists (404), uploads are on (422), it lies in the
     * uploads database (422: Quarry writes nowhere else), the caller may read it and write SQL there (403, as for an
     * upload), and an upload made it (422).
     */
    public Table requireMayUpdate(Caller caller, long tableId) {
        Table table = metadata.findTable(tableId);
        if (table == null) {
            throw json(404, "Not found.");
        }
        if (!settings.bool("uploads-enabled")) {
            throw json(422, "Uploads are not enabled.");
        }
        if (!isUploadsDatabase(settings, table.dbId)) {
            throw json(422, "The table is not in the uploads database.");
        }
        if (!permissions.access(caller, table.dbId).canQueryNatively()) {
            throw json(403, "You don't have permissions to do that.");
        }
        if (!table.isUpload) {
            throw json(422, "The table must be an uploaded table.");
        }
        return table;
    }

    private static ApiException json(int status, String message) {
        return new ApiException(status, message, Map.of("message", message));
    }

    /** The CSV type whose values a column of the base type holds. */
    private static CsvColumnType typeOf(String baseType) {
        if (baseType == null) {
            return CsvColumnType.TEXT;
        }
        return switch (baseType) {
            case "type/Boolean" -> CsvColumnType.BOOLEAN;
            case "type/BigInteger", "type/Integer" -> CsvColumnType.INTEGER;
            case "type/Float", "type/Decimal" -> CsvColumnType.FLOAT;
            case "type/Date" -> CsvColumnType.DATE;
            case "type/DateTime" -> CsvColumnType.DATETIME;
            default -> CsvColumnType.TEXT;
        };
    }

    private void drop(Database database, String qualified) {
        try {
            warehouses.write(database, StatementKind.WRITE_TABLES,
                    session -> session.update("DROP TABLE IF EXISTS " + qualified, List.of(), false));
        } catch (SQLException e) {
            log.warn("Could not drop the half-made upload table {}", qualified, e);
        }
    }

    /** What the whole file says about the table: its columns, their types and widths, and how many rows it has. */
    record Shape(List<String> columns, List<CsvColumnType> types, List<Integer> widths, long rows, Set<Integer> blankColumns) {
    }

    private static Reader reader(Path file) throws IOException {
        return new BufferedReader(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8), 64 * 1024);
    }

    /** Parses and checks a text (small inputs, tests): {@link #shape(Csv)} of it. */
    static Shape parse(String text) {
        try {
            return shape(new Csv(new StringReader(text)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }

    /**
     * Reads the file row by row and checks it: a header, no blank or over-long names, every row as wide as the header;
     * keeps only the columns' types and widths, never the rows.
     */
    static Shape shape(Csv csv) throws IOException {
        List<String> header = csv.next();
        if (header == null) {
            throw ApiException.badRequest("The CSV file is empty.");
        }
        if (header.stream().allMatch(String::isBlank)) {
            throw ApiException.badRequest("The CSV file has no header row.");
        }
        List<String> columns = new ArrayList<>();
        Set<String> used = new HashSet<>(Set.of("_mb_row_id"));
        for (String raw : header) {
            String name = raw.trim();
            if (name.length() > MAX_NAME) {
                throw ApiException.badRequest("The column name \"" + name + "\" is too long (at most " + MAX_NAME + " characters).");
            }
            String normalized = normalize(name.isEmpty() ? "unnamed_column" : name);
            String unique = normalized;
            for (int i = 2; used.contains(unique); i++) {
                unique = normalized + "_" + i;
            }
            used.add(unique);
            columns.add(unique);
        }
        List<CsvColumnType> types = new ArrayList<>();
        List<Integer> widths = new ArrayList<>();
        for (int c = 0; c < columns.size(); c++) {
            types.add(null);
            widths.add(0);
        }
        long r = 0;
        for (List<String> row; (row = csv.next()) != null; r++) {
            if (row.size() != columns.size()) {
                throw ApiException.badRequest("Row " + (r + 2) + " of the CSV file has " + row.size() + " values, but the header has "
                        + columns.size() + " columns.");
            }
            for (int c = 0; c < row.size(); c++) {
                String value = row.get(c);
                widths.set(c, Math.max(widths.get(c), value.length()));
                if (!value.isBlank()) {
                    CsvColumnType type = CsvColumnType.of(value);
                    types.set(c, types.get(c) == null ? type : types.get(c).widen(type));
                }
            }
        }
        Set<Integer> blank = new HashSet<>();
        for (int c = 0; c < types.size(); c++) {
            if (types.get(c) == null) {
                blank.add(c);
                types.set(c, CsvColumnType.TEXT);
            }
        }
        return new Shape(columns, types, widths, r, blank);
    }

    static String createTable(String qualified, Shape csv, SqlDialect dialect) {
        StringBuilder sql = new StringBuilder("CREATE TABLE ").append(qualified).append(" (")
                .append(dialect.quote("_mb_row_id")).append(" BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY");
        for (int c = 0; c < csv.columns().size(); c++) {
            CsvColumnType type = csv.types().get(c);
            String sqlType = type == CsvColumnType.TEXT ? "VARCHAR(" + Math.max(255, csv.widths().get(c)) + ")" : type.sqlType;
            sql.append(", ").append(dialect.quote(csv.columns().get(c))).append(' ').append(sqlType);
        }
        return sql.append(')').toString();
    }

    /** Inserts the file's rows, read a second time as a stream, in batches of {@link #BATCH}. */
    private static void insertRows(WarehouseSession session, String qualified, Shape csv, SqlDialect dialect, Path file)
            throws SQLException {
        if (csv.rows() == 0) {
            return;
        }
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(qualified).append(" (");
        StringBuilder marks = new StringBuilder();
        for (int c = 0; c < csv.columns().size(); c++) {
            sql.append(c == 0 ? "" : ", ").append(dialect.quote(csv.columns().get(c)));
            marks.append(c == 0 ? "?" : ", ?");
        }
        sql.append(") VALUES (").append(marks).append(')');
        try (Reader in = reader(file)) {
            Csv rows = new Csv(in);
            rows.next();
            Iterable<List<Object>> typedRows = () -> new Iterator<>() {
                private List<String> next = read();

                private List<String> read() {
                    try {
                        return rows.next();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                @Override
                public boolean hasNext() {
                    return next != null;
                }

                @Override
                public List<Object> next() {
                    if (next == null) {
                        throw new NoSuchElementException();
                    }
                    List<Object> typed = new ArrayList<>(next.size());
                    for (int c = 0; c < next.size(); c++) {
                        typed.add(csv.types().get(c).value(next.get(c)));
                    }
                    next = read();
                    return typed;
                }
            };
            session.batch(sql.toString(), typedRows, BATCH);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Lower case letters, digits and underscores. */
    static String normalize(String name) {
        String n = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
        if (n.isEmpty()) {
            n = "column";
        }
        return Character.isDigit(n.charAt(0)) ? "_" + n : n;
    }

    /** {@code <prefix><file name>_<timestamp>}, within the identifier limit. */
    String tableName(String prefix, String filename) {
        String base = normalize(stripExtension(filename));
        String stamp = "_" + LocalDateTime.now(clock).format(STAMP);
        String cleanPrefix = prefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        int room = MAX_NAME - stamp.length() - cleanPrefix.length();
        if (room < 1) {
            throw ApiException.badRequest("The uploads table prefix is too long.");
        }
        if (base.length() > room) {
            base = base.substring(0, room);
        }
        return cleanPrefix + base + stamp;
    }

    private static String stripExtension(String filename) {
        String name = filename.replace('\\', '/');
        name = name.substring(name.lastIndexOf('/') + 1);
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    /** "my_sales-2024.csv" → "My Sales 2024". */
    static String humanize(String filename) {
        String[] words = stripExtension(filename).split("[_\\-\\s.]+");
        StringBuilder out = new StringBuilder();
        for (String w : words) {
            if (!w.isEmpty()) {
                out.append(out.length() == 0 ? "" : " ").append(Character.toUpperCase(w.charAt(0))).append(w.substring(1));
            }
        }
        return out.length() == 0 ? "Uploaded CSV" : out.toString();
    }
}
