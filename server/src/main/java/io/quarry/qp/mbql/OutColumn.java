package io.quarry.qp.mbql;

import io.quarry.driver.TemporalUnit;
import io.quarry.qp.Column;
import io.quarry.warehouse.Field;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A column a compiled stage returns: its SQL alias (how the next stage refers to it), its name and display name as
 * {@code data.cols} shows them, its types, reference and origin (field, join, temporal unit, binning).
 */
final class OutColumn {
    /** The alias in the stage's SELECT. */
    String alias;
    /** The name in {@code data.cols} (unique in the result). */
    String name;
    String displayName;
    String baseType;
    String effectiveType;
    String semanticType;
    List<Object> fieldRef;
    /** fields, breakout, aggregation or native. */
    String source;
    /** The warehouse field the column shows, when it shows one (possibly bucketed). */
    Field field;
    Long tableId;
    /** The explicit join it came from. */
    String joinAlias;
    /** The foreign key of the implicit join it came from. */
    Long fkFieldId;
    /** The table alias of the implicit join it came from. */
    String implicitAlias;
    /** The temporal unit applied to it. */
    TemporalUnit unit;
    Map<String, Object> binningInfo;

    OutColumn copy() {
        OutColumn c = new OutColumn();
        c.alias = alias;
        c.name = name;
        c.displayName = displayName;
        c.baseType = baseType;
        c.effectiveType = effectiveType;
        c.semanticType = semanticType;
        c.fieldRef = fieldRef;
        c.source = source;
        c.field = field;
        c.tableId = tableId;
        c.joinAlias = joinAlias;
        c.fkFieldId = fkFieldId;
        c.implicitAlias = implicitAlias;
        c.unit = unit;
        c.binningInfo = binningInfo;
        return c;
    }

    /** The {@code data.cols} entry. */
    Column toColumn() {
        Map<String, Object> extra = new LinkedHashMap<>();
        if (field != null) {
            extra.put("description", field.description);
            extra.put("visibility_type", field.visibilityType);
            extra.put("coercion_strategy", field.coercionStrategy);
            extra.put("fk_target_field_id", field.fkTargetFieldId);
            extra.put("fingerprint", field.fingerprint);
            extra.put("settings", field.settings);
            extra.put("nfc_path", null);
            extra.put("parent_id", field.parentId);
        }
        if (joinAlias != null) {
            extra.put("source_alias", joinAlias);
        }
        if (fkFieldId != null) {
            extra.put("fk_field_id", fkFieldId);
            extra.put("source_alias", implicitAlias);
        }
        if (unit != null) {
            extra.put("unit", unit.key);
        }
        if (binningInfo != null) {
            extra.put("binning_info", binningInfo);
        }
        Long id = field == null ? null : field.id;
        return new Column(name, displayName, baseType, effectiveType == null ? baseType : effectiveType, semanticType, fieldRef,
                source, id, id == null ? null : tableId, field == null ? null : field.databaseType, extra);
    }
}
