package io.quarry.dashboard;

import io.quarry.collection.CollectionAccess.Visible;
import io.quarry.qp.mbql.QueryForms;
import java.util.LinkedHashMap;
import java.util.Map;

/** The JSON forms of dashboards and what they embed, with Metabase's keys. */
public final class DashboardViews {
    private DashboardViews() {
    }

    static Map<String, Object> dashboard(Dashboard d) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", d.id);
        v.put("entity_id", d.entityId);
        v.put("name", d.name);
        v.put("description", d.description);
        v.put("creator_id", d.creatorId);
        v.put("parameters", DashboardService.parse(d.parameters == null ? "[]" : d.parameters));
        v.put("points_of_interest", d.pointsOfInterest);
        v.put("caveats", d.caveats);
        v.put("show_in_getting_started", d.showInGettingStarted);
        v.put("collection_id", d.collectionId);
        v.put("collection_position", d.collectionPosition);
        v.put("archived", d.archived);
        v.put("archived_directly", d.archivedDirectly);
        v.put("enable_embedding", d.enableEmbedding);
        v.put("embedding_params", DashboardService.parse(d.embeddingParams));
        v.put("embedding_type", null);
        v.put("public_uuid", d.publicUuid);
        v.put("made_public_by_id", d.madePublicById);
        v.put("cache_ttl", d.cacheTtl);
        v.put("auto_apply_filters", d.autoApplyFilters);
        v.put("width", d.width);
        v.put("position", null);
        v.put("view_count", d.viewCount);
        v.put("last_viewed_at", d.lastViewedAt);
        v.put("initially_published_at", null);
        v.put("created_at", d.createdAt);
        v.put("updated_at", d.updatedAt);
        return v;
    }

    static Map<String, Object> dashcard(Dashcard dc, Map<String, Object> card, java.util.List<Map<String, Object>> series) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", dc.id);
        v.put("entity_id", dc.entityId);
        v.put("dashboard_id", dc.dashboardId);
        v.put("dashboard_tab_id", dc.dashboardTabId);
        v.put("card_id", dc.cardId);
        v.put("action_id", dc.actionId);
        v.put("row", dc.gridRow);
        v.put("col", dc.gridCol);
        v.put("size_x", dc.sizeX);
        v.put("size_y", dc.sizeY);
        v.put("parameter_mappings", DashboardService.parse(dc.parameterMappings == null ? "[]" : dc.parameterMappings));
        v.put("visualization_settings", DashboardService.parse(dc.visualizationSettings == null ? "{}" : dc.visualizationSettings));
        v.put("card", card);
        v.put("series", series);
        v.put("collection_authority_level", null);
        v.put("created_at", dc.createdAt);
        v.put("updated_at", dc.updatedAt);
        return v;
    }

    static Map<String, Object> tab(DashboardTab t) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", t.id);
        v.put("entity_id", t.entityId);
        v.put("dashboard_id", t.dashboardId);
        v.put("name", t.name);
        v.put("position", t.position);
        v.put("created_at", t.createdAt);
        v.put("updated_at", t.updatedAt);
        return v;
    }

    /** A card on a dashcard; one the caller may not read shows only its id, as in Metabase. */
    static Map<String, Object> card(CardRow c, Visible visible) {
        if (c == null) {
            return null;
        }
        if (!visible.canRead(c.collectionId)) {
            Map<String, Object> hidden = new LinkedHashMap<>();
            hidden.put("id", c.id);
            return hidden;
        }
        Map<String, Object> v = cardSummary(c);
        v.put("dataset_query", QueryForms.legacyJson(c.datasetQuery));
        v.put("visualization_settings", DashboardService.parse(c.visualizationSettings));
        v.put("result_metadata", DashboardService.parse(c.resultMetadata));
        v.put("parameters", DashboardService.parse(c.parameters == null ? "[]" : c.parameters));
        v.put("parameter_mappings", DashboardService.parse(c.parameterMappings == null ? "[]" : c.parameterMappings));
        v.put("can_write", visible.canWrite(c.collectionId));
        v.put("query_average_duration", null);
        return v;
    }

    static Map<String, Object> cardSummary(CardRow c) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", c.id);
        v.put("entity_id", c.entityId);
        v.put("name", c.name);
        v.put("description", c.description);
        v.put("display", c.display);
        v.put("type", c.cardType);
        v.put("query_type", c.queryType);
        v.put("database_id", c.databaseId);
        v.put("table_id", c.tableId);
        v.put("collection_id", c.collectionId);
        v.put("collection_position", c.collectionPosition);
        v.put("archived", c.archived);
        v.put("creator_id", c.creatorId);
        v.put("enable_embedding", c.enableEmbedding);
        v.put("public_uuid", c.publicUuid);
        v.put("cache_ttl", c.cacheTtl);
        v.put("created_at", c.createdAt);
        v.put("updated_at", c.updatedAt);
        return v;
    }

    /** A collection as hydrated on content ({@code null} row = the Root collection). */
    public static Map<String, Object> collection(CollectionRow c, Visible visible) {
        Map<String, Object> v = new LinkedHashMap<>();
        if (c == null) {
            v.put("id", "root");
            v.put("name", "Our analytics");
            v.put("authority_level", null);
            v.put("is_personal", false);
            v.put("can_write", visible.canWrite(null));
            return v;
        }
        v.put("id", c.id);
        v.put("entity_id", c.entityId);
        v.put("name", c.name);
        v.put("description", c.description);
        v.put("slug", c.slug);
        v.put("location", c.location);
        v.put("personal_owner_id", c.personalOwnerId);
        v.put("namespace", c.namespace);
        v.put("authority_level", c.authorityLevel);
        v.put("type", c.collectionType);
        v.put("archived", c.archived);
        v.put("created_at", c.createdAt);
        v.put("is_personal", c.personalOwnerId != null);
        v.put("effective_location", effectiveLocation(c.location, visible));
        v.put("can_write", visible.canWrite(c.id));
        return v;
    }

    private static String effectiveLocation(String location, Visible visible) {
        if (location == null) {
            return null;
        }
        StringBuilder out = new StringBuilder("/");
        for (String part : location.split("/")) {
            if (!part.isEmpty() && visible.canRead(Long.parseLong(part))) {
                out.append(part).append('/');
            }
        }
        return out.toString();
    }
}
