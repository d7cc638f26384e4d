package io.quarry.bookmark;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Json;
import io.quarry.web.param.Body;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /api/bookmark}: a user's bookmarks of cards, dashboards and collections, addressed as (model, id) pairs.
 * Only items the caller may read can be bookmarked and are listed; archived items drop out of the list.
 */
@Path("bookmark")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class BookmarkResource {
    static final String[] MODELS = {"card", "dashboard", "collection"};

    private final BookmarkService bookmarks;
    private final Caller caller;

    @Inject
    public BookmarkResource(BookmarkService bookmarks, Caller caller) {
        this.bookmarks = bookmarks;
        this.caller = caller;
    }

    @GET
    @Access(Access.Level.USER)
    public List<Map<String, Object>> list() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (BookmarkItem item : bookmarks.readable(caller)) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("id", item.type + "-" + item.itemId);
            v.put("type", item.type);
            v.put("item_id", item.itemId);
            v.put("name", item.name);
            v.put("description", item.description);
            v.put("archived", item.archived);
            if ("card".equals(item.type)) {
                v.put("display", item.display);
                v.put("card_type", item.cardType);
                v.put("dataset", "model".equals(item.cardType));
                v.put("collection_id", item.collectionId);
            } else if ("dashboard".equals(item.type)) {
                v.put("collection_id", item.collectionId);
            } else {
                v.put("authority_level", item.authorityLevel);
            }
            out.add(v);
        }
        return out;
    }

    /** Bookmarks a readable item: 404 when it does not exist, 403 without read rights, 400 when already bookmarked. */
    @POST
    @Path("{model}/{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> create(@PathParam("model") String model, @PathParam("id") PosInt id) {
        String kind = model(model);
        BookmarkItem stored = bookmarks.create(caller, kind, id.value());
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", stored.bookmarkId);
        v.put("user_id", caller.id());
        v.put(kind + "_id", id.value());
        v.put("created_at", stored.createdAt);
        return v;
    }

    @DELETE
    @Path("{model}/{id}")
    @Access(Access.Level.USER)
    public Response delete(@PathParam("model") String model, @PathParam("id") PosInt id) {
        String kind = model(model);
        bookmarks.delete(caller.id(), kind, id.value());
        return Response.noContent().build();
    }

    /** {@code {orderings: [{type, item_id}, ...]}}: the caller's own order of their bookmarks; 204. */
    @PUT
    @Path("ordering")
    @Access(Access.Level.USER)
    public Response ordering(JsonNode json) {
        Body body = Body.of(json);
        JsonNode orderings = body.get("orderings");
        List<BookmarkService.Position> rows = new ArrayList<>();
        if (!orderings.isArray()) {
            body.addError("orderings", "value must be an array.",
                    orderings.isNull() ? "missing required key, received: nil" : "should be a sequence, received: " + orderings);
        } else {
            for (JsonNode element : orderings) {
                Body item = Body.of(element.isObject() ? element : Json.object());
                String type = item.enumOf("type", false, MODELS);
                Long itemId = item.posInt("item_id");
                if (!element.isObject() || !item.valid()) {
                    body.addError("orderings", "value must be an array. Each value must be a map with type (card, dashboard or "
                            + "collection) and item_id (an integer greater than zero).", "invalid ordering, received: " + element);
                    break;
                }
                rows.add(new BookmarkService.Position(type, itemId));
            }
        }
        body.throwIfInvalid();
        bookmarks.reorder(caller.id(), rows);
        return Response.noContent().build();
    }

    private static String model(String raw) {
        Body body = Body.of(Json.object().put("model", raw));
        String model = body.enumOf("model", false, MODELS);
        body.throwIfInvalid();
        return model;
    }
}
