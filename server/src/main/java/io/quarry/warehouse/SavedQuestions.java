package io.quarry.warehouse;

import io.quarry.core.Caller;
import io.quarry.web.error.ApiException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The "Saved Questions" virtual database (id -1337): saved questions and models shown as tables, grouped into
 * "schemas" named after their collections, so that a client can pick a question as the source of a new query the way
 * it picks a table. The cards come from a {@link Source} the saved-question module provides (built after this module,
 * which it reads, so it is a constructor argument here). Everything is per caller: one sees only the cards one may read and query.
 */
public final class SavedQuestions {
    public static final long VIRTUAL_DATABASE_ID = -1337;
    /** The schema of cards that are in no collection (Metabase's name for the root collection here). */
    public static final String ROOT_SCHEMA = "Everything else";

    /** A card that can be the source of a query. */
    public record SourceCard(long id, Long databaseId, String name, String description, String collectionName, String type,
                             String moderatedStatus, List<Map<String, Object>> resultMetadata) {
    }

    /** Where cards come from. */
    public interface Source {
        /**
         * Cards of {@code type} ("question" also lists metrics, as Metabase does) usable as a query source that
         * {@code caller} may see, ordered by name.
         */
        List<SourceCard> cards(Caller caller, String type);

        boolean collectionExists(String name);

        /** Cards of one database matching a slug typed in a {@code {{#...}}} tag, as the caller may read them. */
        default List<Map<String, Object>> autocomplete(Caller caller, long databaseId, String query) {
            return List.of();
        }
    }

    private static final Source NONE = new Source() {
        @Override
        public List<SourceCard> cards(Caller caller, String type) {
            return List.of();
        }

        @Override
        public boolean collectionExists(String name) {
            return false;
        }
    };

    private volatile Source source;

    public SavedQuestions(Source cards) {
        this.source = Objects.requireNonNull(cards, "cards is null");
    }

    /** The virtual database with no tables. */
    public SavedQuestions() {
        this(NONE);
    }

    /** {@code GET /api/database/:id/card_autocomplete_suggestions}, from the cards module. */
    public List<Map<String, Object>> cardAutocomplete(Caller caller, long databaseId, String query) {
        return source.autocomplete(caller, databaseId, query);
    }

    /** Replaces where the cards come from (tests plug in a fixed source). */
    public void register(Source cards) {
        this.source = Objects.requireNonNull(cards);
    }

    /**
     * The virtual database as {@code GET /api/database?saved=true} lists it, or null when the caller has no card that
     * can be a source (Metabase lists it only then).
     */
    public Map<String, Object> listed(Caller caller, boolean withTables) {
        List<SourceCard> cards = source.cards(caller, "question");
        if (cards.isEmpty()) {
            return null;
        }
        Map<String, Object> db = database();
        if (withTables) {
            db.put("tables", cards.stream().map(card -> table(card, false)).toList());
        }
        return db;
    }

    /** The virtual database, optionally with the caller's tables (and their fields). */
    public Map<String, Object> database(Caller caller, boolean withTables, boolean withFields) {
        Map<String, Object> db = database();
        if (withTables) {
            db.put("tables", tables(caller, "question", withFields));
        }
        return db;
    }

    private static Map<String, Object> database() {
        Map<String, Object> db = new LinkedHashMap<>();
        db.put("name", "Saved Questions");
        db.put("id", VIRTUAL_DATABASE_ID);
        db.put("features", List.of("basic-aggregations"));
        db.put("is_saved_questions", true);
        return db;
    }

    public List<Map<String, Object>> tables(Caller caller, String type, boolean withFields) {
        return source.cards(caller, type).stream().map(card -> table(card, withFields)).toList();
    }

    /** The distinct schema (collection) names of the cards of {@code type}, case-insensitively sorted. */
    public List<String> schemas(Caller caller, String type) {
        LinkedHashSet<String> names = new LinkedHashSet<>();
        for (SourceCard card : source.cards(caller, type)) {
            names.add(schemaOf(card));
        }
        List<String> sorted = new ArrayList<>(names);
        sorted.sort(Comparator.comparing(s -> s.toLowerCase(Locale.ROOT)));
        return sorted;
    }

    /** The virtual tables of one schema; 404 when no collection has that name. */
    public List<Map<String, Object>> tablesOfSchema(Caller caller, String type, String schema) {
        if (!ROOT_SCHEMA.equals(schema) && !source.collectionExists(schema)) {
            throw ApiException.notFound();
        }
        return source.cards(caller, type).stream().filter(card -> schemaOf(card).equals(schema)).map(card -> table(card, false)).toList();
    }

    private static String schemaOf(SourceCard card) {
        return card.collectionName() == null ? ROOT_SCHEMA : card.collectionName();
    }

    /**
     * A card as a table of the virtual database: {@code id} {@code card__<id>}, its collection as schema, and with
     * {@code withFields} its result columns as fields ({@code ["field", name, {"base-type"}]} refs where no real id).
     */
    public static Map<String, Object> table(SourceCard card, boolean withFields) {
        Map<String, Object> t = new LinkedHashMap<>();
        String tableId = "card__" + card.id();
        t.put("id", tableId);
        t.put("db_id", card.databaseId());
        t.put("display_name", card.name());
        t.put("schema", schemaOf(card));
        t.put("moderated_status", card.moderatedStatus());
        t.put("description", card.description());
        t.put("type", card.type());
        if (withFields) {
            List<Map<String, Object>> fields = new ArrayList<>();
            for (Map<String, Object> column : card.resultMetadata() == null ? List.<Map<String, Object>>of() : card.resultMetadata()) {
                Map<String, Object> f = new LinkedHashMap<>(column);
                f.put("table_id", tableId);
                if (f.get("id") == null) {
                    Object baseType = column.get("base_type") == null ? "type/*" : column.get("base_type");
                    f.put("id", List.of("field", String.valueOf(column.get("name")), Map.of("base-type", baseType)));
                }
                fields.add(f);
            }
            t.put("fields", fields);
        }
        return t;
    }
}
