package io.quarry.action;

import io.quarry.card.Card;
import io.quarry.core.Json;
import io.quarry.driver.SqlDialect;
import io.quarry.driver.StatementKind;
import io.quarry.qp.WarehouseSession;
import io.quarry.qp.Warehouses;
import io.quarry.qp.nativeq.Substitution;
import io.quarry.qp.nativeq.TagResolver;
import io.quarry.qp.nativeq.TemplateException;
import io.quarry.qp.nativeq.TemplateTag;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.MetadataService;
import io.quarry.warehouse.Table;
import io.quarry.web.error.ApiException;
import java.math.BigDecimal;
import java.sql.Clob;
import java.sql.SQLException;
import java.time.Clock;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Runs actions on the model's database: each run is one transaction on a write session of the query runner
 * ({@link Warehouses#write}: the engine's write policy checks every statement, the query timeout bounds it), every
 * value a bind parameter; only identifiers from Quarry's metadata (the model's table and its columns), quoted by the
 * engine's dialect, are written into SQL. Row implicit actions act on exactly one row, found by the table's single primary key;
 * bulk ones on a list of such rows in one transaction; anything else rolls back. A database error is a 400 with the database's message.
 */
public final class ActionRunner {
    private final DatabaseService databases;
    private final Warehouses warehouses;
    private final MetadataService metadata;
    private final Clock clock;

    public ActionRunner(DatabaseService databases, Warehouses warehouses, MetadataService metadata, Clock clock) {
        this.databases = databases;
        this.warehouses = warehouses;
        this.metadata = metadata;
        this.clock = clock;
    }

    /** The table an implicit action acts on, with its columns by parameter slug and its primary key. */
    private record Target(Database database, SqlDialect dialect, String table, Map<String, Field> bySlug, Field pk) {
        String pkSlug() {
            return slug(pk.name);
        }
    }

    /** Metabase's implicit parameter ids: the column name lower-cased, each run of other characters one underscore. */
    static String slug(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
    }

    // --- implicit actions ----------------------------------------------------------------------------------------

    /** 400 unless the model is a plain table (one source table, no clauses), which implicit actions need. */
    void requireSimpleModel(Card model) {
        Map<String, Object> query = ActionService.parseMap(model.datasetQuery);
        boolean simple = false;
        if (query.get("query") instanceof Map<?, ?> inner) {
            simple = inner.get("source-table") instanceof Number && inner.keySet().stream().allMatch(k -> k.equals("source-table"));
        } else if (query.get("stages") instanceof List<?> stages && stages.size() == 1 && stages.get(0) instanceof Map<?, ?> stage) {
            simple = stage.get("source-table") instanceof Number
                    && stage.keySet().stream().allMatch(k -> k.equals("source-table") || k.equals("lib/type"));
        }
        if (!simple || model.tableId == null) {
            throw ApiException.badRequest("Implicit actions are not supported for models with clauses.");
        }
    }

    /** The parameters an implicit action of this kind takes, as Metabase lists them. */
    List<Map<String, Object>> implicitParameters(Card model, String kind) {
        Target target = target(model);
        List<Map<String, Object>> out = new ArrayList<>();
        target.bySlug().forEach((slug, field) -> {
            boolean isPk = field == target.pk();
            if (kind.endsWith("/delete") && !isPk) {
                return;
            }
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("id", slug);
            p.put("slug", slug);
            p.put("display-name", field.displayName == null ? field.name : field.displayName);
            p.put("type", field.baseType == null ? "type/Text" : field.baseType);
            p.put("target", List.of("variable", List.of("template-tag", slug)));
            p.put("required", isPk && !kind.endsWith("/create"));
            p.put("is-auto-increment", field.databaseIsAutoIncrement);
            out.add(p);
        });
        return out;
    }

    Map<String, Object> implicit(Card model, String kind, Map<String, Object> parameters) {
        Target target = target(model);
        Prepared prepared = prepare(target, kind, parameters, "");
        return inTransaction(target.database(), StatementKind.WRITE_ROWS, session -> switch (kind) {
            case "row/create" -> Map.of("created-row", insert(session, target, prepared));
            case "row/update" -> Map.of("rows-updated", List.of(change(session, prepared, "update", "")));
            case "row/delete" -> Map.of("rows-deleted", List.of(change(session, prepared, "delete", "")));
            default -> throw ApiException.badRequest("Unknown implicit action kind " + kind);
        });
    }

    /**
     * A bulk implicit action: {@code rows} is the execute body's {@code parameters}, a non-empty list of maps (parameter
     * id to value), each one row as its row kind takes it. Every row is checked before any SQL runs, and all rows run
     * in one transaction: one failing row (a constraint, a row that does not exist) rolls back the whole action.
     * Results as Metabase's: {@code created-rows}, {@code rows-updated} (a count), {@code success}.
     */
    Map<String, Object> bulk(Card model, String kind, Object rows) {
        if (!(rows instanceof List<?> list) || list.isEmpty()) {
            throw ApiException.invalidField("parameters", "Bulk actions take a non-empty list of rows, each a map of parameter id to value.");
        }
        String rowKind = "row/" + kind.substring("bulk/".length());
        Target target = target(model);
        List<Prepared> prepared = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof Map<?, ?> row)) {
                throw ApiException.invalidField("parameters", "Row " + i + " is not a map of parameter id to value.");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> parameters = (Map<String, Object>) row;
            prepared.add(prepare(target, rowKind, parameters, "Row " + i + ": "));
        }
        return inTransaction(target.database(), StatementKind.WRITE_ROWS, session -> {
            switch (kind) {
                case "bulk/create" -> {
                    List<Map<String, Object>> created = new ArrayList<>();
                    for (Prepared p : prepared) {
                        created.add(insert(session, target, p));
                    }
                    return Map.of("created-rows", created);
                }
                case "bulk/update" -> {
                    int count = 0;
                    for (int i = 0; i < prepared.size(); i++) {
                        count += change(session, prepared.get(i), "update", "Row " + i + ": ");
                    }
                    return Map.of("rows-updated", count);
                }
                case "bulk/delete" -> {
                    for (int i = 0; i < prepared.size(); i++) {
                        change(session, prepared.get(i), "delete", "Row " + i + ": ");
                    }
                    return Map.of("success", true);
                }
                default -> throw ApiException.badRequest("Unknown implicit action kind " + kind);
            }
        });
    }

    /** One row's statement, checked and typed: its SQL, bind values and (when known) the primary key value. */
    private record Prepared(String sql, List<Object> values, Object key) {
    }

    private Prepared prepare(Target target, String kind, Map<String, Object> parameters, String rowLabel) {
        Set<String> unknown = new TreeSet<>(parameters.keySet());
        unknown.removeAll(target.bySlug().keySet());
        if (kind.equals("row/delete")) {
            unknown.addAll(parameters.keySet().stream().filter(k -> !k.equals(target.pkSlug())).toList());
        }
        if (!unknown.isEmpty()) {
            throw ApiException.badRequest(rowLabel + "No destination parameter found for #{" + String.join(" ", quoted(unknown))
                    + "}. Found: #{" + String.join(" ", quoted(kind.equals("row/delete") ? Set.of(target.pkSlug())
                    : target.bySlug().keySet())) + "}");
        }
        return switch (kind) {
            case "row/create" -> prepareCreate(target, parameters, rowLabel);
            case "row/update" -> prepareUpdate(target, parameters, rowLabel);
            case "row/delete" -> new Prepared("DELETE FROM " + target.table() + " WHERE "
                    + target.dialect().quote(target.pk().name) + " = ?", List.of(requirePk(target, parameters, rowLabel)), null);
            default -> throw ApiException.badRequest("Unknown implicit action kind " + kind);
        };
    }

    private Prepared prepareCreate(Target target, Map<String, Object> parameters, String rowLabel) {
        if (parameters.isEmpty()) {
            throw ApiException.badRequest(rowLabel + "Implicit parameters must be provided.");
        }
        List<String> columns = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        parameters.forEach((slug, value) -> {
            Field field = target.bySlug().get(slug);
            columns.add(target.dialect().quote(field.name));
            values.add(typed(field, slug, value));
        });
        String sql = "INSERT INTO " + target.table() + " (" + String.join(", ", columns) + ") VALUES ("
                + String.join(", ", java.util.Collections.nCopies(columns.size(), "?")) + ")";
        Object key = parameters.containsKey(target.pkSlug()) ? typed(target.pk(), target.pkSlug(), parameters.get(target.pkSlug())) : null;
        return new Prepared(sql, values, key);
    }

    private Prepared prepareUpdate(Target target, Map<String, Object> parameters, String rowLabel) {
        Object key = requirePk(target, parameters, rowLabel);
        List<String> sets = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        parameters.forEach((slug, value) -> {
            if (!slug.equals(target.pkSlug())) {
                Field field = target.bySlug().get(slug);
                sets.add(target.dialect().quote(field.name) + " = ?");
                values.add(typed(field, slug, value));
            }
        });
        if (sets.isEmpty()) {
            throw ApiException.badRequest(rowLabel + "Implicit parameters must be provided.");
        }
        values.add(key);
        String sql = "UPDATE " + target.table() + " SET " + String.join(", ", sets) + " WHERE "
                + target.dialect().quote(target.pk().name) + " = ?";
        return new Prepared(sql, values, key);
    }

    /** Runs an INSERT and reads the created row back by its key (given or generated). */
    private Map<String, Object> insert(WarehouseSession session, Target target, Prepared prepared) throws SQLException {
        Object generated = session.insert(prepared.sql(), prepared.values(), target.pk().name);
        Object key = prepared.key() != null ? prepared.key() : generated;
        return key == null ? Map.of() : selectRow(session, target, key);
    }

    /** Runs an UPDATE or DELETE of one row by key; a 400 (rolling the transaction back) unless exactly one row changed. */
    private int change(WarehouseSession session, Prepared prepared, String verb, String rowLabel) throws SQLException {
        int count = session.update(prepared.sql(), prepared.values(), false);
        exactlyOne(count, verb, rowLabel);
        return count;
    }

    /** The current values (by parameter slug) of the row a row/update or row/delete would act on. */
    Map<String, Object> prefill(Card model, Map<String, Object> parameters) {
        Target target = target(model);
        Object key = requirePk(target, parameters);
        return reading(target.database(), session -> {
            Map<String, Object> row = selectRow(session, target, key);
            if (row.isEmpty()) {
                throw ApiException.notFound();
            }
            Map<String, Object> bySlug = new LinkedHashMap<>();
            row.forEach((column, value) -> bySlug.put(slug(column), value));
            return bySlug;
        });
    }

    private static void exactlyOne(int count, String verb, String rowLabel) {
        if (count == 0) {
            throw ApiException.badRequest(rowLabel + "Sorry, the row you're trying to " + verb + " doesn't exist");
        }
        if (count > 1) {
            // thrown inside the transaction: it rolls back
            throw ApiException.badRequest(rowLabel + "Sorry, this would " + verb + " " + count + " rows, but you can only act on 1");
        }
    }

    private Object requirePk(Target target, Map<String, Object> parameters) {
        return requirePk(target, parameters, "");
    }

    private Object requirePk(Target target, Map<String, Object> parameters, String rowLabel) {
        Object value = parameters.get(target.pkSlug());
        if (value == null) {
            throw ApiException.badRequest(rowLabel + "Missing primary key parameter: \"" + target.pkSlug() + "\"");
        }
        return typed(target.pk(), target.pkSlug(), value);
    }

    private Map<String, Object> selectRow(WarehouseSession session, Target target, Object key) throws SQLException {
        String sql = "SELECT * FROM " + target.table() + " WHERE " + target.dialect().quote(target.pk().name) + " = ?";
        Map<String, Object> row = new LinkedHashMap<>();
        session.query(sql, List.of(key), false, 1, found -> {
            for (int i = 1; i <= found.columnCount(); i++) {
                row.put(found.label(i), plain(found.get(i)));
            }
        });
        return row;
    }

    private Target target(Card model) {
        requireSimpleModel(model);
        Database database = databases.require(model.databaseId);
        Table table = metadata.requireTable(model.tableId);
        List<Field> fields = metadata.fieldsByTable(List.of(table.id)).getOrDefault(table.id, List.of());
        Map<String, Field> bySlug = new LinkedHashMap<>();
        List<Field> pks = new ArrayList<>();
        for (Field field : fields) {
            if (!field.active || field.parentId != null) {
                continue;
            }
            if (bySlug.put(slug(field.name), field) != null) {
                throw ApiException.badRequest("Cannot execute implicit action on a table with ambiguous column names.");
            }
            if ("type/PK".equals(field.semanticType)) {
                pks.add(field);
            }
        }
        if (pks.size() != 1) {
            throw ApiException.badRequest("Must execute implicit action on a table with a single primary key.");
        }
        SqlDialect dialect = databases.driverOf(database).dialect();
        return new Target(database, dialect, dialect.qualify(table.schemaName, table.name), bySlug, pks.get(0));
    }

    /** A parameter value as the column's Java type; a 400 naming the parameter when it is not one. */
    private static Object typed(Field field, String slug, Object value) {
        if (value == null) {
            return null;
        }
        String type = field.effectiveType != null ? field.effectiveType : field.baseType == null ? "type/Text" : field.baseType;
        String text = String.valueOf(value).trim();
        try {
            return switch (type) {
                case "type/Integer", "type/BigInteger" -> value instanceof Number n && !(value instanceof Double || value instanceof Float)
                        ? new BigDecimal(n.toString()).toBigIntegerExact().longValueExact() : new BigDecimal(text).toBigIntegerExact().longValueExact();
                case "type/Float", "type/Decimal", "type/Number" -> new BigDecimal(text);
                case "type/Boolean" -> {
                    if (value instanceof Boolean b) {
                        yield b;
                    }
                    if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
                        throw new IllegalArgumentException("not a boolean");
                    }
                    yield Boolean.parseBoolean(text);
                }
                case "type/Date" -> LocalDate.parse(text.length() > 10 ? text.substring(0, 10) : text);
                case "type/DateTime", "type/DateTimeWithLocalTZ", "type/DateTimeWithTZ", "type/DateTimeWithZoneOffset", "type/Instant" ->
                        text.matches(".*([+-]\\d\\d:\\d\\d|Z)$") ? OffsetDateTime.parse(text) : LocalDateTime.parse(text);
                case "type/Time" -> LocalTime.parse(text);
                default -> value instanceof String s ? s : value instanceof Number || value instanceof Boolean ? text : Json.write(value);
            };
        } catch (ArithmeticException | NumberFormatException | DateTimeParseException e) {
            throw ApiException.invalidField(slug, "Not a valid value for " + field.name + " (" + type + "): " + text);
        } catch (IllegalArgumentException e) {
            throw ApiException.invalidField(slug, "Not a valid value for " + field.name + " (" + type + "): " + text);
        }
    }

    // --- query actions -------------------------------------------------------------------------------------------

    /** The parameters of a SQL action: one per template tag, with the tag's id (else its name) as parameter id. */
    static List<Map<String, Object>> queryParameters(Object datasetQuery) {
        List<Map<String, Object>> out = new ArrayList<>();
        if (datasetQuery instanceof Map<?, ?> query && query.get("native") instanceof Map<?, ?> nativeQuery
                && nativeQuery.get("template-tags") instanceof Map<?, ?> tags) {
            tags.forEach((name, tag) -> {
                Map<?, ?> t = tag instanceof Map<?, ?> m ? m : Map.of();
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("id", t.get("id") != null ? String.valueOf(t.get("id")) : String.valueOf(name));
                p.put("slug", String.valueOf(name));
                p.put("type", t.get("type") == null ? "text" : t.get("type"));
                p.put("target", List.of("variable", List.of("template-tag", String.valueOf(name))));
                p.put("required", Boolean.TRUE.equals(t.get("required")));
                out.add(p);
            });
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> query(long databaseId, Map<String, Object> datasetQuery, List<Object> parameters,
            Map<String, Object> visualizationSettings, Map<String, Object> given) {
        Map<String, Object> nativeQuery = datasetQuery.get("native") instanceof Map<?, ?> n ? (Map<String, Object>) n : Map.of();
        String sql = String.valueOf(nativeQuery.get("query"));
        Map<String, TemplateTag> tags = new LinkedHashMap<>();
        if (nativeQuery.get("template-tags") instanceof Map<?, ?> raw) {
            raw.forEach((name, tag) -> tags.put(String.valueOf(name),
                    TemplateTag.fromJson(String.valueOf(name), tag instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of())));
        }
        // parameter id -> tag name, from the action's parameters (their targets), else the tags themselves
        Map<String, String> tagOf = new LinkedHashMap<>();
        List<Object> declared = parameters.isEmpty() ? new ArrayList<>(queryParameters(datasetQuery)) : parameters;
        for (Object p : declared) {
            if (p instanceof Map<?, ?> param && param.get("id") != null) {
                String id = String.valueOf(param.get("id"));
                String tag = tagName(param.get("target"));
                tagOf.put(id, tag != null ? tag : id);
            }
        }
        Map<String, Object> fieldSettings = visualizationSettings.get("fields") instanceof Map<?, ?> f ? (Map<String, Object>) f : Map.of();
        Set<String> hidden = new LinkedHashSet<>();
        fieldSettings.forEach((id, settings) -> {
            if (settings instanceof Map<?, ?> s && Boolean.TRUE.equals(s.get("hidden"))) {
                hidden.add(id);
            }
        });
        Set<String> unknown = new TreeSet<>();
        for (String id : given.keySet()) {
            if (!tagOf.containsKey(id) || hidden.contains(id)) {
                unknown.add(id);
            }
        }
        if (!unknown.isEmpty()) {
            Set<String> found = new TreeSet<>(tagOf.keySet());
            found.removeAll(hidden);
            throw ApiException.badRequest("No destination parameter found for #{" + String.join(" ", quoted(unknown))
                    + "}. Found: #{" + String.join(" ", quoted(found)) + "}");
        }
        Map<String, Object> values = new LinkedHashMap<>();
        tagOf.forEach((id, tag) -> {
            Object value = given.get(id);
            if (value == null && fieldSettings.get(id) instanceof Map<?, ?> s) {
                value = s.get("defaultValue");
            }
            if (value != null) {
                values.put(tag, value);
            }
        });
        Substitution.Bound bound;
        try {
            bound = new TagResolver(tags, values, NO_SOURCES, LocalDateTime.now(clock), DayOfWeek.SUNDAY).fill(sql);
        } catch (TemplateException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        Database database = databases.require(databaseId);
        // a person's SQL: the engine allows one statement that changes rows, never as an H2 administrator
        return inTransaction(database, StatementKind.WRITE_ROWS,
                session -> Map.of("rows-affected", session.execute(bound.sql(), bound.params(), true)), "Error executing Action: ");
    }

    private static String tagName(Object target) {
        // ["variable", ["template-tag", "name"]] or ["dimension", ["template-tag", "name"]]
        if (target instanceof List<?> t && t.size() >= 2 && t.get(1) instanceof List<?> ref && ref.size() >= 2
                && "template-tag".equals(ref.get(0))) {
            Object name = ref.get(1);
            if (name instanceof Map<?, ?> m) {
                name = m.get("id");
            }
            return name == null ? null : String.valueOf(name);
        }
        return null;
    }

    /** Field filters, snippets and card references are not offered in actions: they resolve to nothing. */
    private static final TagResolver.Sources NO_SOURCES = new TagResolver.Sources() {
        @Override
        public TagResolver.Column column(long fieldId) {
            return null;
        }

        @Override
        public String snippet(String name) {
            return null;
        }

        @Override
        public Substitution.Bound card(long cardId) {
            return null;
        }
    };

    // --- the database --------------------------------------------------------------------------------------------

    private <T> T inTransaction(Database database, StatementKind kind, Warehouses.SessionWork<T> work) {
        return inTransaction(database, kind, work, "");
    }

    /** One transaction on a write session: committed when the work returns, rolled back when it throws (a 400 included). */
    private <T> T inTransaction(Database database, StatementKind kind, Warehouses.SessionWork<T> work, String errorPrefix) {
        try {
            return warehouses.write(database, kind, work);
        } catch (SQLException e) {
            throw databaseError(errorPrefix, e);
        }
    }

    /** A read of the model's database (prefilling a form). */
    private <T> T reading(Database database, Warehouses.SessionWork<T> work) {
        try {
            return warehouses.read(database, work);
        } catch (SQLException e) {
            throw databaseError("", e);
        }
    }

    /** The database's refusal as a 400 with its message. */
    private static ApiException databaseError(String prefix, SQLException e) {
        String message = prefix + (e.getMessage() == null ? e.toString() : e.getMessage());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("message", message);
        body.put("errors", Map.of());
        return new ApiException(400, message, body);
    }

    private static Object plain(Object value) throws SQLException {
        if (value instanceof java.sql.Timestamp t) {
            return t.toLocalDateTime();
        }
        if (value instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        if (value instanceof java.sql.Time t) {
            return t.toLocalTime();
        }
        if (value instanceof Clob clob) {
            return clob.getSubString(1, (int) Math.min(Integer.MAX_VALUE, clob.length()));
        }
        return value;
    }

    private static List<String> quoted(Set<String> names) {
        return names.stream().map(n -> "\"" + n + "\"").toList();
    }
}
