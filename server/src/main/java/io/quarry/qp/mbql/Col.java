package io.quarry.qp.mbql;

import io.quarry.driver.Sql;
import io.quarry.driver.TemporalUnit;
import io.quarry.warehouse.Field;
import java.util.List;
import java.util.Map;

/** A column as a stage sees it: its SQL, types, names and where it comes from. */
final class Col {
    Sql sql;
    /** Before its temporal unit was applied (date ranges compare this). */
    Sql raw;
    String baseType;
    String effectiveType;
    String semanticType;
    Field field;
    Long tableId;
    String name;
    String displayName;
    /** The desired SQL alias when selected. */
    String alias;
    List<Object> fieldRef;
    String joinAlias;
    Long fkFieldId;
    String implicitAlias;
    TemporalUnit unit;
    TemporalUnit upstreamUnit;
    Map<String, Object> binningInfo;
    boolean expression;

    OutColumn toOut(String source) {
        OutColumn o = new OutColumn();
        o.displayName = displayName;
        o.baseType = baseType;
        o.effectiveType = effectiveType;
        o.semanticType = semanticType;
        o.fieldRef = fieldRef;
        o.source = source;
        o.field = field;
        o.tableId = tableId;
        o.joinAlias = joinAlias;
        o.fkFieldId = fkFieldId;
        o.implicitAlias = implicitAlias;
        o.unit = unit;
        o.binningInfo = binningInfo;
        return o;
    }
}
