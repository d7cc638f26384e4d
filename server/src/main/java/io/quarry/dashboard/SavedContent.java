package io.quarry.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;

/**
 * What saving a transient dashboard ({@code POST /api/dashboard/save}) needs from the modules that own the content: new
 * cards made as {@code POST /api/card} makes them (validation, query rights, result metadata, history), and the
 * collection generated dashboards go to. Wired by the composition root, so the dashboard module names neither.
 */
public interface SavedContent {
    /** Creates a card from a {@code POST /api/card} body; its id. */
    long createCard(Caller caller, JsonNode card);

    /** Deletes a card {@link #createCard} made, when the save fails after it. */
    void deleteCard(Caller caller, long id);

    /**
     * The id of the caller's "Automatically Generated Dashboards" collection, made when missing: under Root for
     * superusers, under the caller's personal collection otherwise (Metabase's x-ray container).
     */
    long generatedDashboardsCollection(Caller caller);
}
