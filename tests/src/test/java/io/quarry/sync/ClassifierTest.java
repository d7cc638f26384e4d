package io.quarry.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Semantic types from names and fingerprints, in Metabase's classifier order; what is set is never replaced. */
class ClassifierTest {
    private static Classifier.Result classify(String name, String baseType, List<?> values) {
        Map<String, Object> fp = Fingerprints.of(Fingerprints.kindOf(baseType, null), values);
        return Classifier.classify(name, baseType, null, null, true, fp);
    }

    private static List<Object> repeat(int n, java.util.function.IntFunction<Object> value) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(value.apply(i));
        }
        return out;
    }

    @Test
    void namesAndBaseTypes() {
        assertEquals("type/PK", Classifier.byName("ID", "type/BigInteger"));
        assertEquals("type/Latitude", Classifier.byName("LATITUDE", "type/Float"));
        assertEquals("type/Latitude", Classifier.byName("pickup_lat", "type/Decimal"));
        assertNull(Classifier.byName("LATITUDE", "type/Text"), "the base type must fit");
        assertEquals("type/Longitude", Classifier.byName("lng", "type/Float"));
        assertEquals("type/Longitude", Classifier.byName("home_longitude", "type/Float"));
        assertEquals("type/Name", Classifier.byName("NAME", "type/Text"));
        assertEquals("type/Name", Classifier.byName("firstname", "type/Text"));
        assertEquals("type/Name", Classifier.byName("LAST_NAME", "type/Text"));
        assertEquals("type/City", Classifier.byName("CITY", "type/Text"));
        assertEquals("type/Country", Classifier.byName("billing_country", "type/Text"));
        assertEquals("type/ZipCode", Classifier.byName("ZIP", "type/Text"));
        assertEquals("type/ZipCode", Classifier.byName("postal_code", "type/Integer"));
        assertEquals("type/URL", Classifier.byName("homepage_url", "type/Text"));
        assertEquals("type/ImageURL", Classifier.byName("avatar_url", "type/Text"));
        assertEquals("type/Category", Classifier.byName("status", "type/Text"));
        assertEquals("type/Category", Classifier.byName("payment_type", "type/Text"));
        assertEquals("type/Quantity", Classifier.byName("QUANTITY", "type/Integer"));
        assertEquals("type/Quantity", Classifier.byName("item_count", "type/BigInteger"));
        assertEquals("type/Discount", Classifier.byName("DISCOUNT", "type/Float"));
        assertEquals("type/Price", Classifier.byName("PRICE", "type/Float"));
        assertEquals("type/Price", Classifier.byName("unit_price", "type/Decimal"));
        assertEquals("type/Score", Classifier.byName("RATING", "type/Integer"));
        assertEquals("type/Company", Classifier.byName("VENDOR", "type/Text"));
        assertEquals("type/Source", Classifier.byName("SOURCE", "type/Text"));
        assertEquals("type/Title", Classifier.byName("TITLE", "type/Text"));
        assertEquals("type/Description", Classifier.byName("product_description", "type/Text"));
        assertEquals("type/Description", Classifier.byName("BODY", "type/Text"));
        assertEquals("type/Comment", Classifier.byName("comments", "type/Text"));
        assertEquals("type/CreationTimestamp", Classifier.byName("CREATED_AT", "type/DateTime"));
        assertEquals("type/CreationTimestamp", Classifier.byName("created_at", "type/DateTimeWithLocalTZ"));
        assertEquals("type/CreationDate", Classifier.byName("created_on", "type/Date"));
        assertEquals("type/CancelationTimestamp", Classifier.byName("CANCELED_AT", "type/DateTime"), "cancel");
        assertEquals("type/UpdatedTimestamp", Classifier.byName("updated_at", "type/DateTime"));
        assertEquals("type/JoinDate", Classifier.byName("join_date", "type/Date"));
        assertEquals("type/Birthdate", Classifier.byName("birthdate", "type/Date"));
        assertEquals("type/Birthdate", Classifier.byName("date_of_birth", "type/DateTime"));
        assertNull(Classifier.byName("BIRTH_DATE", "type/Date"), "as in Metabase, birth_date matches no pattern");
        assertNull(Classifier.byName("TOTAL", "type/Float"));
        assertNull(Classifier.byName("", "type/Text"));
    }

    @Test
    void fingerprintsFindEmailsUrlsStatesAndJson() {
        assertEquals("type/Email", classify("contact", "type/Text", repeat(100, i -> "user" + i + "@example.com")).semanticType());
        List<Object> mostlyEmails = repeat(100, i -> i < 94 ? "user" + i + "@example.com" : "n/a");
        assertEquals("list", classify("contact", "type/Text", mostlyEmails).hasFieldValues(), "100 short values");
        assertNull(classify("contact", "type/Text", mostlyEmails).semanticType(), "94 % is under the 95 % bar");
        assertEquals("type/URL", classify("link", "type/Text", repeat(50, i -> "https://example.com/" + i)).semanticType());
        assertEquals("type/ImageURL", classify("picture", "type/Text", repeat(50, i -> "https://img.example.com/" + i + ".png"))
                .semanticType());
        List<Object> states = repeat(100, i -> i < 72 ? List.of("CA", "NY", "TX", "WA").get(i % 4) : "Ontario " + i);
        assertEquals("type/State", classify("region", "type/Text", states).semanticType(), "70 % states is enough");
        assertEquals("type/SerializedJSON", classify("payload", "type/Text", repeat(40, i -> "{\"n\": " + i + "}")).semanticType());
        // the text fingerprint wins over the category classifier, as in Metabase
        assertEquals("type/State", classify("st", "type/Text", repeat(40, i -> i % 2 == 0 ? "CA" : "NY")).semanticType());
    }

    @Test
    void fewDistinctValuesMakeCategoriesAndLists() {
        Classifier.Result category = classify("CATEGORY", "type/Text", repeat(200, i -> List.of("Gizmo", "Widget", "Gadget").get(i % 3)));
        assertEquals("type/Category", category.semanticType());
        assertEquals("list", category.hasFieldValues());
        Classifier.Result ints = classify("level", "type/Integer", repeat(100, i -> i % 30));
        assertEquals("type/Category", ints.semanticType(), "30 distinct values is still a category");
        assertEquals("list", ints.hasFieldValues());
        Classifier.Result many = classify("level", "type/Integer", repeat(100, i -> i % 31));
        assertNull(many.semanticType());
        assertEquals("list", many.hasFieldValues(), "31 distinct: a list, not a category");
        Classifier.Result floats = classify("ratio", "type/Float", repeat(10, i -> i / 2.0));
        assertNull(floats.semanticType(), "floats are never categories");
        assertEquals("none", floats.hasFieldValues());
        Classifier.Result dates = classify("day", "type/Date", repeat(3, i -> java.time.LocalDate.of(2020, 1, i + 1)));
        assertNull(dates.semanticType());
        assertEquals("none", dates.hasFieldValues());
        Classifier.Result allNull = classify("nothing", "type/Text", Collections.nCopies(10, null));
        assertNull(allNull.semanticType(), "an all-null field is no category");
        Classifier.Result bools = classify("flag", "type/Boolean", List.of(true, false));
        assertEquals("type/Category", bools.semanticType());
        assertEquals("list", bools.hasFieldValues());
        // more than 1000 distinct: text is searched, numbers have no values
        assertEquals("search", classify("code", "type/Text", repeat(1001, i -> "c" + i)).hasFieldValues());
        assertEquals("list", classify("code", "type/Text", repeat(1000, i -> "c" + i)).hasFieldValues());
        assertEquals("none", classify("code", "type/Integer", repeat(1001, i -> i)).hasFieldValues());
        // values too long to cache
        assertEquals("search", classify("code", "type/Text", repeat(3, i -> "x".repeat(101) + i)).hasFieldValues());
    }

    @Test
    void longTextIsHiddenFromPreviewsAndNotCached() {
        Classifier.Result text = classify("notes", "type/Text", repeat(40, i -> "a long paragraph of text ".repeat(3) + i));
        assertFalse(text.previewDisplay());
        assertEquals("search", text.hasFieldValues());
        assertTrue(classify("notes", "type/Text", repeat(40, i -> "short " + i)).previewDisplay());
        Classifier.Result longCategory = classify("notes", "type/Text", repeat(40, i -> "a long paragraph of text ".repeat(3) + i % 3));
        assertEquals("type/Category", longCategory.semanticType());
        assertTrue(longCategory.previewDisplay(), "as in Metabase, only fields without a semantic type are hidden");
    }

    @Test
    void whatIsSetIsNeverReplaced() {
        Map<String, Object> emails = Fingerprints.of(Fingerprints.Kind.TEXT, repeat(10, i -> "u" + i + "@example.com"));
        Classifier.Result persons = Classifier.classify("EMAIL", "type/Text", "type/Name", null, true, emails);
        assertEquals("type/Name", persons.semanticType(), "a person's choice stays");
        Classifier.Result key = Classifier.classify("ID", "type/Text", "type/PK", null, true, emails);
        assertEquals("type/PK", key.semanticType());
        assertEquals("search", key.hasFieldValues(), "keys are never lists");
        Classifier.Result fk = Classifier.classify("USER_ID", "type/Integer", "type/FK", null, true,
                Fingerprints.of(Fingerprints.Kind.GLOBAL, List.of(1, 2, 3)));
        assertEquals("none", fk.hasFieldValues());
        Classifier.Result chosenValues = Classifier.classify("CATEGORY", "type/Text", null, "none", true,
                Fingerprints.of(Fingerprints.Kind.TEXT, List.of("a", "b")));
        assertEquals("none", chosenValues.hasFieldValues(), "has_field_values set by a person stays");
        assertEquals("type/Category", chosenValues.semanticType());
    }

    @Test
    void tablesGetEntityTypesFromTheirNames() {
        assertEquals("entity/TransactionTable", Classifier.entityType("ORDERS"));
        assertEquals("entity/ProductTable", Classifier.entityType("PRODUCTS"));
        assertEquals("entity/UserTable", Classifier.entityType("PEOPLE"));
        assertEquals("entity/UserTable", Classifier.entityType("ACCOUNTS"));
        assertEquals("entity/EventTable", Classifier.entityType("ANALYTIC_EVENTS"));
        assertEquals("entity/GenericTable", Classifier.entityType("REVIEWS"));
    }
}
