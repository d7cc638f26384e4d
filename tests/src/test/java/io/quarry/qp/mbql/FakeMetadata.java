package io.quarry.qp.mbql;

import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Hand-built metadata for compiler tests: tables and fields with chosen ids. */
final class FakeMetadata implements MbqlMetadata {
    private final Map<Long, Table> tables = new LinkedHashMap<>();
    private final Map<Long, Field> fields = new LinkedHashMap<>();
    private final Map<Long, double[]> ranges = new HashMap<>();
    int rangeLookups;

    Table table(long id, String schema, String name, String displayName) {
        Table t = new Table();
        t.id = id;
        t.dbId = 1L;
        t.schemaName = schema;
        t.name = name;
        t.displayName = displayName;
        tables.put(id, t);
        return t;
    }

    Field field(long id, long tableId, String name, String displayName, String baseType) {
        Field f = new Field();
        f.id = id;
        f.tableId = tableId;
        f.name = name;
        f.displayName = displayName;
        f.baseType = baseType;
        f.effectiveType = baseType;
        f.databaseType = "X";
        f.position = fields.size();
        fields.put(id, f);
        return f;
    }

    Field pk(long id, long tableId, String name) {
        Field f = field(id, tableId, name, "ID", "type/BigInteger");
        f.semanticType = "type/PK";
        return f;
    }

    Field fk(long id, long tableId, String name, String displayName, long target) {
        Field f = field(id, tableId, name, displayName, "type/Integer");
        f.semanticType = "type/FK";
        f.fkTargetFieldId = target;
        return f;
    }

    void range(long fieldId, double min, double max) {
        ranges.put(fieldId, new double[]{min, max});
    }

    @Override
    public Table table(long id) {
        return tables.get(id);
    }

    @Override
    public Field field(long id) {
        return fields.get(id);
    }

    @Override
    public List<Field> fields(long tableId) {
        List<Field> out = new ArrayList<>();
        for (Field f : fields.values()) {
            if (f.tableId == tableId && f.active) {
                out.add(f);
            }
        }
        return out;
    }

    @Override
    public double[] numberRange(Field field) {
        rangeLookups++;
        double[] fromFingerprint = WarehouseMetadata.fingerprintRange(field);
        return fromFingerprint != null ? fromFingerprint : ranges.get(field.id);
    }

    /**
     * A small shop: PRODUCTS (1) and ORDERS (2, FK PRODUCT_ID → PRODUCTS.ID), PEOPLE (3, FK from ORDERS.USER_ID), in
     * schema PUBLIC.
     */
    static FakeMetadata shop() {
        FakeMetadata m = new FakeMetadata();
        m.table(1, "PUBLIC", "PRODUCTS", "Products");
        m.pk(10, 1, "ID");
        m.field(11, 1, "TITLE", "Title", "type/Text").semanticType = "type/Title";
        m.field(12, 1, "CATEGORY", "Category", "type/Text").semanticType = "type/Category";
        m.field(13, 1, "PRICE", "Price", "type/Float");
        m.field(14, 1, "RATING", "Rating", "type/Float").semanticType = "type/Score";
        m.field(15, 1, "CREATED_AT", "Created At", "type/DateTime");
        m.table(2, "PUBLIC", "ORDERS", "Orders");
        m.pk(20, 2, "ID");
        m.fk(21, 2, "PRODUCT_ID", "Product ID", 10);
        m.fk(22, 2, "USER_ID", "User ID", 30);
        m.field(23, 2, "TOTAL", "Total", "type/Float");
        m.field(24, 2, "QUANTITY", "Quantity", "type/Integer").semanticType = "type/Quantity";
        m.field(25, 2, "CREATED_AT", "Created At", "type/DateTime").semanticType = "type/CreationTimestamp";
        m.field(26, 2, "DISCOUNT", "Discount", "type/Float");
        m.table(3, "PUBLIC", "PEOPLE", "People");
        m.pk(30, 3, "ID");
        m.field(31, 3, "NAME", "Name", "type/Text");
        m.field(32, 3, "BIRTH_DATE", "Birth Date", "type/Date");
        m.field(33, 3, "LATITUDE", "Latitude", "type/Float").semanticType = "type/Latitude";
        m.field(34, 3, "LONGITUDE", "Longitude", "type/Float").semanticType = "type/Longitude";
        m.field(35, 3, "PASSWORD", "Password", "type/Text").visibilityType = "sensitive";
        m.field(36, 3, "CREATED_AT_TS", "Created At Ts", "type/BigInteger").coercionStrategy = "Coercion/UNIXSeconds->DateTime";
        return m;
    }
}
