package io.quarry.collection;

import io.quarry.web.RecordsView;
import io.quarry.web.param.Paging;
import io.quarry.web.param.Validation;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.BoolStr;
import io.quarry.web.param.NonBlank;
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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code /api/collection}: collections, their items, the tree, the Root and the permission graph. */
@Path("collection")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class CollectionResource {
    private final CollectionService collections;
    private final CollectionItems items;
    private final CollectionTree tree;
    private final CollectionGraph graph;
    private final Caller caller;

    @Inject
    public CollectionResource(CollectionService collections, CollectionItems items, CollectionTree tree, CollectionGraph graph,
                              Caller caller) {
        this.collections = collections;
        this.items = items;
        this.tree = tree;
        this.graph = graph;
        this.caller = caller;
    }

    private static String ns(NonBlank namespace) {
        return namespace == null ? null : namespace.value();
    }

    @GET
    @Access(Access.Level.USER)
    public List<Map<String, Object>> list(@QueryParam("archived") BoolStr archived,
                                          @QueryParam("exclude-other-user-collections") BoolStr excludeOthers,
                                          @QueryParam("personal-only") BoolStr personalOnly,
                                          @QueryParam("namespace") NonBlank namespace) {
        return collections.list(caller, BoolStr.orDefault(archived, false), BoolStr.orDefault(excludeOthers, false),
                BoolStr.orDefault(personalOnly, false), ns(namespace));
    }

    @POST
    @Access(Access.Level.USER)
    public Map<String, Object> create(JsonNode json) {
        return collections.create(caller, json);
    }

    @GET
    @Path("tree")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> tree(@QueryParam("exclude-archived") BoolStr excludeArchived,
                                          @QueryParam("exclude-other-user-collections") BoolStr excludeOthers,
                                          @QueryParam("shallow") BoolStr shallow,
                                          @QueryParam("namespace") NonBlank namespace,
                                          @QueryParam("collection-id") PosInt collectionId) {
        return tree.tree(caller, BoolStr.orDefault(excludeArchived, false), BoolStr.orDefault(excludeOthers, false),
                BoolStr.orDefault(shallow, false), ns(namespace), collectionId == null ? null : collectionId.value());
    }

    @GET
    @Path("root")
    @Access(Access.Level.USER)
    public Map<String, Object> root(@QueryParam("namespace") NonBlank namespace) {
        CollectionService.Rights rights = collections.rights(caller, ns(namespace));
        if (!rights.rootRead()) {
            throw ApiException.forbidden();
        }
        return collections.root(ns(namespace), rights);
    }

    @GET
    @Path("root/items")
    @Access(Access.Level.USER)
    public Map<String, Object> rootItems(@QueryParam("models") List<String> models, @QueryParam("archived") BoolStr archived,
                                         @QueryParam("namespace") NonBlank namespace,
                                         @QueryParam("pinned_state") String pinnedState,
                                         @QueryParam("sort_column") String sortColumn,
                                         @QueryParam("sort_direction") String sortDirection,
                                         @QueryParam("limit") String limit, @QueryParam("offset") String offset) {
        return items.items(caller, null, ns(namespace),
                request(models, archived, pinnedState, sortColumn, sortDirection, limit, offset));
    }

    @GET
    @Path("trash")
    @Access(Access.Level.USER)
    public Map<String, Object> trash() {
        return collections.trashDetail(caller);
    }

    @GET
    @Path("graph")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> graph(@QueryParam("namespace") NonBlank namespace) {
        return graph.graph(ns(namespace));
    }

    @PUT
    @Path("graph")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> updateGraph(@QueryParam("namespace") NonBlank namespace,
                                           @QueryParam("skip_graph") BoolStr skipGraph,
                                           @QueryParam("skip-graph") BoolStr skipGraphKebab,
                                           @QueryParam("force") BoolStr force, JsonNode json) {
        boolean skip = BoolStr.orDefault(skipGraph, false) || BoolStr.orDefault(skipGraphKebab, false);
        return graph.update(caller.id(), json, ns(namespace), skip, BoolStr.orDefault(force, false));
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.USER)
    @RecordsView("collection")
    public Map<String, Object> get(@PathParam("id") PosInt id) {
        CollectionRow c = collections.require(id.value());
        CollectionService.Rights rights = collections.rights(caller, c.namespace);
        if (!rights.canRead(c)) {
            throw ApiException.forbidden();
        }
        return collections.detail(c, rights);
    }

    @GET
    @Path("{id}/items")
    @Access(Access.Level.USER)
    public Map<String, Object> collectionItems(@PathParam("id") PosInt id, @QueryParam("models") List<String> models,
                                               @QueryParam("archived") BoolStr archived,
                                               @QueryParam("pinned_state") String pinnedState,
                                               @QueryParam("sort_column") String sortColumn,
                                               @QueryParam("sort_direction") String sortDirection,
                                               @QueryParam("limit") String limit, @QueryParam("offset") String offset) {
        return items.items(caller, id.value(), null,
                request(models, archived, pinnedState, sortColumn, sortDirection, limit, offset));
    }

    @PUT
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> update(@PathParam("id") PosInt id, JsonNode json) {
        return collections.update(caller, id.value(), json);
    }

    /** Deletes a trashed collection and everything in it for good (superusers); the body is {@code 1}. */
    @DELETE
    @Path("{id}")
    @Access(Access.Level.USER)
    public int delete(@PathParam("id") PosInt id) {
        return collections.delete(caller, id.value());
    }

    private static CollectionItems.Request request(List<String> models, BoolStr archived, String pinnedState, String sortColumn,
                                                   String sortDirection, String limit, String offset) {
        Set<String> wanted = new LinkedHashSet<>(Validation.optEnumVector("models", models, CollectionItems.PARAM_VALUES));
        Validation.optEnum("pinned_state", pinnedState, "all", "is_pinned", "is_not_pinned");
        Validation.optEnum("sort_column", sortColumn, "name", "last_edited_at", "last_edited_by", "model");
        Validation.optEnum("sort_direction", sortDirection, "asc", "desc");
        Paging paging = Paging.of(limit, offset);
        return new CollectionItems.Request(wanted, BoolStr.orDefault(archived, false), pinnedState, sortColumn, sortDirection,
                paging);
    }
}
