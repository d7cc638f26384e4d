package io.quarry.assistant;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.assistant.SchemaSnapshot.FieldInfo;
import io.quarry.assistant.SchemaSnapshot.TableInfo;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PromptsTest {
    /** A thousand tables of twenty columns, two of them the ones a question is about, linked by a foreign key. */
    private static SchemaSnapshot wide() {
        List<TableInfo> tables = new ArrayList<>();
        long fieldId = 1;
        for (int t = 1; t <= 1000; t++) {
            String name = t == 700 ? "INVOICE_LINES" : t == 701 ? "CUSTOMERS" : "TABLE_" + t;
            List<FieldInfo> fields = new ArrayList<>();
            fields.add(new FieldInfo(fieldId++, t, "ID", "ID", "type/BigInteger", "type/PK", null, List.of()));
            for (int c = 1; c < 20; c++) {
                String column = t == 700 && c == 1 ? "AMOUNT" : "COLUMN_" + c;
                Long fk = t == 700 && c == 2 ? 701L * 20 - 19 : null;
                fields.add(new FieldInfo(fieldId++, t, t == 700 && c == 2 ? "CUSTOMER_ID" : column, column, "type/Integer",
                        fk != null ? "type/FK" : null, fk, t == 701 && c == 3 ? List.of("Gold", "Silver") : List.of()));
            }
            tables.add(new TableInfo(t, "PUBLIC", name, name.replace('_', ' '), null, fields));
        }
        return new SchemaSnapshot(1, "PostgreSQL", tables, null);
    }

    @Test
    void aWideSchemaKeepsTheRelevantTablesWithinTheBudget() {
        String prompt = Prompts.system(wide(), "total amount of invoice lines per customer", Prompts.SCHEMA_TOKEN_BUDGET);
        assertTrue(prompt.length() <= Prompts.SCHEMA_TOKEN_BUDGET * 4 + 1000, "length " + prompt.length());
        assertTrue(prompt.contains("CREATE TABLE \"PUBLIC\".\"INVOICE_LINES\""), prompt.substring(0, 2000));
        assertTrue(prompt.contains("CREATE TABLE \"PUBLIC\".\"CUSTOMERS\""), "the linked table comes along");
        assertTrue(prompt.contains("REFERENCES \"PUBLIC\".\"CUSTOMERS\"(\"ID\")"));
        assertTrue(prompt.contains("'Gold', 'Silver'"));
        assertTrue(prompt.contains("PostgreSQL"));
        assertTrue(prompt.contains("less related tables are not shown"));
        assertFalse(prompt.contains("\"TABLE_999\""));
    }
}
