package io.quarry.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TypesTest {
    @Test
    void isaFollowsEveryChainOfParents() {
        assertTrue(Types.isa("type/BigInteger", "type/Number"));
        assertTrue(Types.isa("type/City", "type/Category"));
        assertTrue(Types.isa("type/City", "type/Location"));
        assertTrue(Types.isa("type/CreationTimestamp", "type/Temporal"));
        assertTrue(Types.isa("type/Instant", "type/DateTime"));
        assertTrue(Types.isa("type/PK", "type/PK"));
        assertFalse(Types.isa("type/Integer", "type/BigInteger"));
        assertFalse(Types.isa("type/Nope", "type/*"));
        assertFalse(Types.isa(null, "type/*"));
    }

    @Test
    void semanticTypesAreSemanticOrRelationTypes() {
        for (String ok : new String[]{"type/PK", "type/FK", "type/Category", "type/Email", "type/Name", "type/Price", "type/Latitude",
                "type/CreationTimestamp", "type/Description", "type/SerializedJSON", "type/Quantity", "type/Birthdate"}) {
            assertTrue(Types.isSemanticOrRelation(ok), ok);
        }
        for (String bad : new String[]{"type/Integer", "type/Text", "type/*", "type/DateTime", "Coercion/UNIXSeconds->DateTime",
                "PK", "type/pk", ""}) {
            assertFalse(Types.isSemanticOrRelation(bad), bad);
        }
        assertTrue(Types.isEntityType("entity/GenericTable"));
        assertTrue(Types.isEntityType("entity/EventTable"));
        assertFalse(Types.isEntityType("entity/Nope"));
        assertTrue(Types.isCoercionStrategy("Coercion/ISO8601->Temporal"));
        assertFalse(Types.isCoercionStrategy("type/Text"));
    }

    @Test
    void coercionsApplyToTheirBaseTypesOnly() {
        assertEquals("type/Instant", Types.coercedType("Coercion/UNIXSeconds->DateTime", "type/BigInteger"), "descendants of Integer");
        assertEquals("type/Instant", Types.coercedType("Coercion/UNIXMilliSeconds->DateTime", "type/Decimal"));
        assertNull(Types.coercedType("Coercion/UNIXSeconds->DateTime", "type/Text"));
        assertEquals("type/DateTime", Types.coercedType("Coercion/ISO8601->DateTime", "type/Text"));
        assertEquals("type/Date", Types.coercedType("Coercion/DateTime->Date", "type/DateTimeWithLocalTZ"));
        assertEquals("type/Float", Types.coercedType("Coercion/String->Float", "type/Text"));
        assertNull(Types.coercedType("Coercion/String->Float", "type/UUID"), "not inherited by descendants");
        assertNull(Types.coercedType("Coercion/ISO8601->Temporal", "type/Text"), "abstract strategies have no result");
    }

    @Test
    void hasFieldValuesIsInferredWhenUnset() {
        Field text = new Field();
        text.baseType = "type/Text";
        text.effectiveType = "type/Text";
        assertEquals("search", MetadataViews.hasFieldValues(text));
        Field number = new Field();
        number.baseType = "type/Integer";
        assertEquals("none", MetadataViews.hasFieldValues(number));
        number.hasFieldValues = "auto-list";
        assertEquals("list", MetadataViews.hasFieldValues(number));
        number.hasFieldValues = "search";
        assertEquals("search", MetadataViews.hasFieldValues(number));
    }

    @Test
    void usageCountsZeroForEveryModelUntilAModuleCounts() {
        DatabaseUsage usage = new DatabaseUsage();
        assertEquals(Map.of("question", 0L, "dataset", 0L, "metric", 0L, "segment", 0L), usage.usage(1));
        usage.register("segment", db -> db * 2);
        assertEquals(6L, usage.usage(3).get("segment"));
    }
}
