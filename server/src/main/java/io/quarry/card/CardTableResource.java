package io.quarry.card;

import com.fasterxml.jackson.core.type.TypeReference;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.permission.DataPermissions;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.DatabaseViews;
import io.quarry.warehouse.SavedQuestions;
import io.quarry.web.param.BoolStr;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code /api/table/card__:id/...}: a saved question or model as the virtual table queries built on it read
 * (Metabase routes these apart from {@code /api/table/:id/...}). The card must exist (404) and be readable by the
 * caller (403); Metabase answers an empty 204 for both, Quarry the statuses its other endpoints answer.
 */
@Path("table")
@Produces(MediaType.APPLICATION_JSON)
public final class CardTableResource {
    private static final TypeReference<List<Map<String, Object>>> COLUMNS = new TypeReference<>() { };

    private final CardService cards;
    private final DatabaseService databases;
    private final DataPermissions dataPermissions;
    private final Caller caller;

    @Inject
    public CardTableResource(CardService cards, DatabaseService databases, DataPermissions dataPermissions, Caller caller) {
        this.cards = cards;
        this.databases = databases;
        this.dataPermissions = dataPermissions;
        this.caller = caller;
    }

    /**
     * The card's virtual table ({@code card__<id>}) with its result columns as fields, its collection's name as schema
     * ({@code Everything else} at the root), and its database when the caller may read it (null otherwise, as
     * Metabase does not leak it). PK and FK semantic types are cleared on columns without a real field id, except on
     * models; a metric carries its {@code dataset_query}. The {@code include_*} flags are accepted and ignored.
     */
    @GET
    @Path("card__{id}/query_metadata")
    @Access(Access.Level.USER)
    public Map<String, Object> queryMetadata(@PathParam("id") PosInt id,
                                             @QueryParam("include_sensitive_fields") BoolStr includeSensitiveFields,
                                             @QueryParam("include_hidden_fields") BoolStr includeHiddenFields,
                                             @QueryParam("include_editable_data_model") BoolStr includeEditableDataModel) {
        Card card = cards.requireReadable(id.value(), caller);
        boolean model = "model".equals(card.cardType);
        List<Map<String, Object>> columns = new ArrayList<>();
        for (Map<String, Object> column : columns(card.resultMetadata)) {
            Map<String, Object> c = new LinkedHashMap<>(column);
            Object semantic = c.get("semantic_type");
            boolean key = "type/PK".equals(semantic) || "type/FK".equals(semantic);
            if (key && !model && !(c.get("id") instanceof Number)) {
                c.put("semantic_type", null);
            }
            columns.add(c);
        }
        SavedQuestions.SourceCard source = new SavedQuestions.SourceCard(card.id, card.databaseId, card.name, card.description,
                cards.collectionName(card.collectionId), card.cardType, null, columns);
        Map<String, Object> table = SavedQuestions.table(source, true);
        table.put("entity_id", card.entityId);
        table.put("metrics", null);
        if ("metric".equals(card.cardType)) {
            table.put("dataset_query", CardService.parse(card.datasetQuery));
        }
        Map<String, Object> db = null;
        if (card.databaseId != null && dataPermissions.canRead(caller, card.databaseId)) {
            Database database = databases.find(card.databaseId);
            if (database != null) {
                db = DatabaseViews.view(database, databases.driverOf(database), caller);
                db.remove("details");
            }
        }
        table.put("db", db);
        return table;
    }

    /** A card's virtual table has no foreign keys: always {@code []} (a readable card; 404 and 403 as above). */
    @GET
    @Path("card__{id}/fks")
    @Access(Access.Level.USER)
    public List<Object> fks(@PathParam("id") PosInt id) {
        cards.requireReadable(id.value(), caller);
        return List.of();
    }

    private static List<Map<String, Object>> columns(String resultMetadata) {
        if (resultMetadata == null || resultMetadata.isBlank()) {
            return List.of();
        }
        try {
            List<Map<String, Object>> columns = Json.MAPPER.readValue(resultMetadata, COLUMNS);
            return columns == null ? List.of() : columns.stream().filter(Objects::nonNull).toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
