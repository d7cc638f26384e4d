package io.quarry.qp.mbql;

import static io.quarry.qp.mbql.Clauses.cast;
import static io.quarry.qp.mbql.Clauses.describe;
import static io.quarry.qp.mbql.Clauses.invalid;
import static io.quarry.qp.mbql.Clauses.ref;

import io.quarry.driver.Sql;
import io.quarry.driver.SqlDialect;
import io.quarry.driver.TemporalUnit;
import io.quarry.qp.mbql.StageScope.Implicit;
import io.quarry.qp.mbql.StageScope.Join;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The columns a stage reads: fields of its table, of its joins and of tables reached through a foreign key
 * (implicit joins, added to the scope once each), columns of its source query, and its named expressions; each
 * bucketed by its temporal unit and binned as the reference asks.
 */
final class ColumnCompiler {
    private final StageScope scope;
    private final MbqlCompiler.Context ctx;
    private final SqlDialect d;

    ColumnCompiler(StageScope scope) {
        this.scope = scope;
        this.ctx = scope.ctx;
        this.d = scope.d;
    }

    /** A field or expression reference as a column (bucketed, binned), the way breakouts and fields use them. */
    Col column(Object clause) {
        if (!(clause instanceof List<?> l) || l.isEmpty()) {
            throw invalid("Expected a field reference, got " + describe(clause) + ".");
        }
        String op = String.valueOf(l.get(0));
        if (op.equals("field")) {
            return fieldColumn(l);
        }
        if (op.equals("expression")) {
            Map<String, Object> opts = l.size() > 2 && l.get(2) instanceof Map<?, ?> m ? cast(m) : Map.of();
            return scope.temporalBucketing.bucket(expressionColumn(String.valueOf(l.size() > 1 ? l.get(1) : null), opts), opts);
        }
        if (op.equals("aggregation")) {
            throw invalid("An aggregation reference can only be used in \"order-by\".");
        }
        throw invalid("Expected a field reference, got " + describe(clause) + ".");
    }

    private Col fieldColumn(List<?> clause) {
        Object idOrName = clause.size() > 1 ? clause.get(1) : null;
        Map<String, Object> opts = clause.size() > 2 && clause.get(2) instanceof Map<?, ?> m ? cast(m) : Map.of();
        if (idOrName == null || !(idOrName instanceof Number || idOrName instanceof String)) {
            throw invalid("A field reference needs a field id or a column name.");
        }
        Object sourceField = opts.get("source-field");
        String joinAlias = opts.get("join-alias") instanceof String s ? s : null;
        Col col;
        if (sourceField != null) {
            col = implicitColumn(idOrName, sourceField, opts.get("source-field-join-alias") instanceof String s ? s : null);
        } else if (joinAlias != null && scope.joins.containsKey(joinAlias)) {
            col = joinColumn(scope.joins.get(joinAlias), idOrName, opts);
        } else {
            col = mainColumn(idOrName, joinAlias, opts);
        }
        col = scope.temporalBucketing.bucket(col, opts);
        return scope.columnBinner.bin(col, opts);
    }

    Col mainColumn(Object idOrName, String joinAlias, Map<String, Object> opts) {
        if (scope.table != null) {
            if (joinAlias != null) {
                throw invalid("No join has the alias \"" + joinAlias + "\".");
            }
            if (idOrName instanceof Number id) {
                Field f = scope.requireField(id);
                if (Objects.equals(f.tableId, scope.table.id)) {
                    return tableColumn(f);
                }
                Join only = null;
                for (Join j : scope.joins.values()) {
                    if (j.table() != null && Objects.equals(j.table().id, f.tableId)) {
                        if (only != null) {
                            throw invalid("Field " + id + " is in more than one join: name the join with \"join-alias\".");
                        }
                        only = j;
                    }
                }
                if (only != null) {
                    return joinColumn(only, id, opts);
                }
                throw invalid("Field " + id + " is not in a table of this query.");
            }
            String name = (String) idOrName;
            for (Field f : ctx.metadata().fields(scope.table.id)) {
                if (f.name.equals(name)) {
                    return tableColumn(f);
                }
            }
            throw invalid("The table " + scope.table.name + " has no column \"" + name + "\".");
        }
        if (scope.source.columns() == null) {
            if (!(idOrName instanceof String name)) {
                throw invalid("Columns of a native source query are referred to by name, not by field id.");
            }
            Col c = new Col();
            c.sql = scope.leaf(d.quote(StageCompiler.SOURCE) + "." + d.quote(name));
            c.name = name;
            c.alias = name;
            c.displayName = name;
            c.baseType = opts.get("base-type") instanceof String t ? t : MbqlTypes.ANY;
            c.effectiveType = c.baseType;
            c.fieldRef = ref("field", name, Map.of("base-type", c.baseType));
            return c;
        }
        OutColumn found = findColumn(scope.source.columns(), idOrName, joinAlias, TemporalUnit.of(opts.get("temporal-unit")));
        if (found == null) {
            throw invalid(idOrName instanceof Number ? "Field " + idOrName + " is not returned by the source query."
                    : "The source query returns no column \"" + idOrName + "\".");
        }
        List<Object> ref;
        if (idOrName instanceof Number) {
            Map<String, Object> refOpts = new LinkedHashMap<>();
            if (joinAlias != null) {
                refOpts.put("join-alias", joinAlias);
            }
            ref = ref("field", ((Number) idOrName).longValue(), refOpts.isEmpty() ? null : refOpts);
        } else {
            ref = ref("field", idOrName, Map.of("base-type", found.baseType));
        }
        return upstreamColumn(found, StageCompiler.SOURCE, null, ref);
    }

    /** The source column a reference means: by field id (and join), or by alias, then by name. */
    private static OutColumn findColumn(List<OutColumn> columns, Object idOrName, String joinAlias, TemporalUnit unit) {
        if (idOrName instanceof Number id) {
            OutColumn best = null;
            for (OutColumn c : columns) {
                if (c.field != null && c.field.id != null && c.field.id == id.longValue() && c.binningInfo == null
                        && Objects.equals(c.joinAlias, joinAlias)) {
                    if (best == null || c.unit == unit && best.unit != unit) {
                        best = c;
                    }
                }
            }
            if (best == null && joinAlias == null) {
                for (OutColumn c : columns) {
                    if (c.field != null && c.field.id != null && c.field.id == id.longValue()) {
                        return c;
                    }
                }
            }
            return best;
        }
        String name = (String) idOrName;
        for (OutColumn c : columns) {
            if (c.alias.equals(name)) {
                return c;
            }
        }
        for (OutColumn c : columns) {
            if (c.name.equals(name)) {
                return c;
            }
        }
        for (OutColumn c : columns) {
            if (c.alias.equalsIgnoreCase(name) || c.name.equalsIgnoreCase(name)) {
                return c;
            }
        }
        return null;
    }

    /** A column of a table in FROM, with the field's coercion applied. */
    Col tableColumn(Field f) {
        Col c = fromField(f, scope.tableSql);
        c.alias = f.name;
        c.fieldRef = ref("field", f.id, null);
        return c;
    }

    private Col fromField(Field f, String qualifier) {
        Col c = new Col();
        c.field = f;
        c.tableId = f.tableId;
        c.name = f.name;
        c.displayName = f.displayName == null ? f.name : f.displayName;
        c.baseType = f.baseType == null ? MbqlTypes.ANY : f.baseType;
        c.effectiveType = f.effectiveType == null ? c.baseType : f.effectiveType;
        c.semanticType = f.semanticType;
        c.sql = coerce(f, scope.leaf(qualifier + "." + d.quote(f.name)));
        if (f.coercionStrategy != null && Objects.equals(c.effectiveType, c.baseType)) {
            c.effectiveType = coercedType(f.coercionStrategy, c.baseType);
        }
        return c;
    }

    Col joinColumn(Join j, Object idOrName, Map<String, Object> opts) {
        if (j.table() != null) {
            Field f;
            if (idOrName instanceof Number id) {
                f = scope.requireField(id);
                if (!Objects.equals(f.tableId, j.table().id)) {
                    throw invalid("Field " + id + " is not in the table of the join \"" + j.alias() + "\".");
                }
            } else {
                f = null;
                for (Field candidate : ctx.metadata().fields(j.table().id)) {
                    if (candidate.name.equals(idOrName)) {
                        f = candidate;
                    }
                }
                if (f == null) {
                    throw invalid("The join \"" + j.alias() + "\" has no column \"" + idOrName + "\".");
                }
            }
            Col c = fromField(f, d.quote(j.alias()));
            c.displayName = j.alias() + " → " + c.displayName;
            c.alias = j.alias() + "__" + f.name;
            c.joinAlias = j.alias();
            c.fieldRef = ref("field", f.id, Map.of("join-alias", j.alias()));
            return c;
        }
        if (j.query().columns() == null) {
            if (!(idOrName instanceof String name)) {
                throw invalid("Columns of a native join are referred to by name, not by field id.");
            }
            Col c = new Col();
            c.sql = scope.leaf(d.quote(j.alias()) + "." + d.quote(name));
            c.name = name;
            c.alias = j.alias() + "__" + name;
            c.displayName = j.alias() + " → " + name;
            c.baseType = opts.get("base-type") instanceof String t ? t : MbqlTypes.ANY;
            c.effectiveType = c.baseType;
            c.joinAlias = j.alias();
            c.fieldRef = ref("field", name, Map.of("base-type", c.baseType, "join-alias", j.alias()));
            return c;
        }
        OutColumn found = findColumn(j.query().columns(), idOrName, null, TemporalUnit.of(opts.get("temporal-unit")));
        if (found == null) {
            throw invalid("The join \"" + j.alias() + "\" returns no column " + describe(idOrName) + ".");
        }
        Map<String, Object> refOpts = new LinkedHashMap<>();
        if (idOrName instanceof String) {
            refOpts.put("base-type", found.baseType);
        }
        refOpts.put("join-alias", j.alias());
        return upstreamColumn(found, j.alias(), j.alias(), ref("field", idOrName instanceof Number n ? (Object) n.longValue()
                : idOrName, refOpts));
    }

    /** A column of a subquery (the source query or a joined query), as this stage sees it. */
    Col upstreamColumn(OutColumn c, String qualifier, String joinAlias, List<Object> fieldRef) {
        Col col = new Col();
        col.sql = scope.leaf(d.quote(qualifier) + "." + d.quote(c.alias));
        col.field = c.field;
        col.tableId = c.tableId;
        col.name = c.name;
        col.displayName = joinAlias == null ? c.displayName : joinAlias + " → " + c.displayName;
        col.alias = joinAlias == null ? c.alias : joinAlias + "__" + c.alias;
        col.baseType = c.baseType;
        col.effectiveType = c.effectiveType;
        col.semanticType = c.semanticType;
        col.upstreamUnit = c.unit;
        col.unit = c.unit;
        col.binningInfo = c.binningInfo;
        col.joinAlias = joinAlias != null ? joinAlias : c.joinAlias;
        col.fkFieldId = joinAlias == null ? c.fkFieldId : null;
        col.implicitAlias = joinAlias == null ? c.implicitAlias : null;
        col.fieldRef = fieldRef;
        return col;
    }

    /**
     * The LEFT JOIN a field reference's {@code source-field} (and {@code source-field-join-alias}) needs: the foreign
     * key's column (never the inner column of a nest) equal to the target table's primary key.
     */
    Implicit implicitJoin(Object sourceFieldId, String fkJoinAlias) {
        if (!(sourceFieldId instanceof Number fkId)) {
            throw invalid("\"source-field\" must be the id of a foreign key field.");
        }
        Field fk = scope.requireField(fkId);
        if (fk.fkTargetFieldId == null) {
            throw invalid("Field " + fkId + " is not a foreign key.");
        }
        Field pk = scope.requireField(fk.fkTargetFieldId);
        Table target = scope.requireTable(pk.tableId);
        String alias = target.name + "__via__" + fk.name + (fkJoinAlias == null ? "" : "__via__" + fkJoinAlias);
        Implicit known = scope.implicitJoins.get(alias);
        if (known != null) {
            return known;
        }
        ColumnCompiler flat = scope.unnested().columnCompiler;
        Col fkCol = fkJoinAlias != null && scope.joins.containsKey(fkJoinAlias)
                ? flat.joinColumn(scope.joins.get(fkJoinAlias), fk.id, Map.of()) : flat.mainColumn(fk.id, fkJoinAlias, Map.of());
        return new Implicit(alias, target, pk, fkCol.sql);
    }

    /**
     * A field of another table reached through a foreign key ({@code source-field}), read through its LEFT JOIN, which
     * {@link ImplicitJoins} put in the scope before compiling.
     */
    private Col implicitColumn(Object idOrName, Object sourceFieldId, String fkJoinAlias) {
        Implicit join = implicitJoin(sourceFieldId, fkJoinAlias);
        if (!scope.implicitJoins.containsKey(join.alias())) {
            throw new IllegalStateException("The implicit join " + join.alias() + " was not collected before compiling.");
        }
        String alias = join.alias();
        Table target = join.target();
        Field fk = scope.requireField((Number) sourceFieldId);
        Number fkId = (Number) sourceFieldId;
        Field f;
        if (idOrName instanceof Number id) {
            f = scope.requireField(id);
            if (!Objects.equals(f.tableId, target.id)) {
                throw invalid("Field " + id + " is not in the table foreign key " + fkId + " points to.");
            }
        } else {
            f = null;
            for (Field candidate : ctx.metadata().fields(target.id)) {
                if (candidate.name.equals(idOrName)) {
                    f = candidate;
                }
            }
            if (f == null) {
                throw invalid("The table " + target.name + " has no column \"" + idOrName + "\".");
            }
        }
        Col c = fromField(f, d.quote(alias));
        String fkName = fk.displayName == null ? fk.name : fk.displayName;
        c.displayName = fkName.replaceAll("(?i)\\s+id$", "") + " → " + c.displayName;
        c.alias = alias + "__" + f.name;
        c.fkFieldId = fk.id;
        c.implicitAlias = alias;
        c.fieldRef = ref("field", f.id, Map.of("source-field", fk.id));
        return c;
    }

    Col expressionColumn(String name, Map<String, Object> opts) {
        if (!scope.expressions.containsKey(name)) {
            throw invalid("No expression named \"" + name + "\".");
        }
        if (scope.expanding.contains(name)) {
            throw invalid("The expression \"" + name + "\" refers to itself.");
        }
        Typed t = scope.expanding(name).expressionCompiler.expr(scope.expressions.get(name));
        Col c = new Col();
        c.sql = t.sql();
        c.name = name;
        c.alias = name;
        c.displayName = name;
        c.baseType = t.type();
        c.effectiveType = t.type();
        c.fieldRef = ref("expression", name);
        c.expression = true;
        return c;
    }

    private Sql coerce(Field f, Sql sql) {
        String strategy = f.coercionStrategy;
        if (strategy == null) {
            return sql;
        }
        return switch (strategy) {
            case "Coercion/UNIXSeconds->DateTime" -> d.unixSecondsToTimestamp(sql);
            case "Coercion/UNIXMilliSeconds->DateTime" -> d.unixSecondsToTimestamp(Sql.format("(%s / 1000.0)", sql));
            case "Coercion/UNIXMicroSeconds->DateTime" -> d.unixSecondsToTimestamp(Sql.format("(%s / 1000000.0)", sql));
            case "Coercion/UNIXNanoSeconds->DateTime" -> d.unixSecondsToTimestamp(Sql.format("(%s / 1000000000.0)", sql));
            case "Coercion/ISO8601->DateTime" -> d.toTimestamp(sql);
            case "Coercion/ISO8601->Date", "Coercion/DateTime->Date" -> d.toDate(sql);
            case "Coercion/String->Float" -> d.toFloat(sql);
            case "Coercion/String->Integer", "Coercion/Float->Integer" -> d.toInteger(sql);
            default -> throw invalid("The coercion " + strategy + " of the field " + f.name + " is not supported yet.");
        };
    }

    private static String coercedType(String strategy, String baseType) {
        if (strategy.endsWith("->DateTime")) {
            return MbqlTypes.DATE_TIME;
        }
        if (strategy.endsWith("->Date")) {
            return MbqlTypes.DATE;
        }
        if (strategy.endsWith("->Float")) {
            return MbqlTypes.FLOAT;
        }
        if (strategy.endsWith("->Integer")) {
            return MbqlTypes.INTEGER;
        }
        return baseType;
    }
}
