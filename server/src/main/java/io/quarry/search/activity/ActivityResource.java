package io.quarry.search.activity;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Body;
import io.quarry.web.param.BoolStr;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code /api/activity}: the caller's recently opened and picked items and their popular ones, as Metabase v0.63
 * serves them ({@code src/metabase/activity_feed/api.clj}). Only items the caller may still read are listed; archived
 * items are left out.
 */
@Path("activity")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class ActivityResource {
    /** The kinds {@code POST /recents} takes: a card of any type, a dashboard, table or collection. */
    private static final String[] RECENT_MODELS = {"card", "dataset", "metric", "dashboard", "table", "collection"};

    private final RecentViews views;
    private final Caller caller;

    @Inject
    public ActivityResource(RecentViews views, Caller caller) {
        this.views = views;
        this.caller = caller;
    }

    /** Deprecated in Metabase, still served: the items the caller opened, newest first. */
    @GET
    @Path("recent_views")
    @Access(Access.Level.USER)
    public Map<String, Object> recentViews() {
        return Map.of("recent_views", wire(views.recents(caller, RecentViews.VIEW)));
    }

    /** {@code context=views} and/or {@code context=selections} (one is required): the caller's recent items of them. */
    @GET
    @Path("recents")
    @Access(Access.Level.USER)
    public Map<String, Object> recents(@QueryParam("context") List<String> contexts,
                                       @QueryParam("include_metadata") BoolStr includeMetadata) {
        Set<String> wanted = new HashSet<>();
        for (String context : contexts) {
            switch (context) {
                case "views" -> wanted.add(RecentViews.VIEW);
                case "selections" -> wanted.add(RecentViews.SELECTION);
                default -> throw ApiException.invalidField("context", "value must be a sequence of views or selections.");
            }
        }
        if (wanted.isEmpty()) {
            throw ApiException.badRequest("context is required.");
        }
        List<Map<String, Object>> merged = new ArrayList<>();
        for (String context : wanted) {
            merged.addAll(views.recents(caller, context));
        }
        merged.sort((a, b) -> ((java.time.OffsetDateTime) b.get("viewed_at")).compareTo((java.time.OffsetDateTime) a.get("viewed_at")));
        Set<String> seen = new HashSet<>();
        merged.removeIf(item -> !seen.add(item.get("model") + "/" + item.get("id")));
        return Map.of("recents", wire(merged));
    }

    /**
     * {@code {model, model_id, context: "selection"}}: records that the caller picked an item (the data picker does).
     * 404 for an unknown item, 403 for one the caller may not read.
     */
    @POST
    @Path("recents")
    @Access(Access.Level.USER)
    public Response pick(JsonNode json) {
        Body body = Body.of(json);
        String model = body.enumOf("model", false, RECENT_MODELS);
        Long modelId = body.posInt("model_id");
        body.enumOf("context", false, RecentViews.SELECTION);
        body.throwIfInvalid();
        String stored = model.equals("dataset") || model.equals("metric") ? "card" : model;
        views.requireReadable(caller, stored, modelId);
        views.record(caller.id(), stored, modelId, RecentViews.SELECTION);
        return Response.noContent().build();
    }

    /** Up to 5 of the caller's most used items. */
    @GET
    @Path("popular_items")
    @Access(Access.Level.USER)
    public Map<String, Object> popularItems() {
        return Map.of("popular_items", wire(views.popular(caller)));
    }

    private static List<Map<String, Object>> wire(List<Map<String, Object>> items) {
        List<Map<String, Object>> out = new ArrayList<>(items.size());
        for (Map<String, Object> item : items) {
            out.add(RecentViews.wire(item));
        }
        return out;
    }
}
