package io.quarry.search;

import io.quarry.web.param.Paging;
import io.quarry.web.param.Validation;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.BoolStr;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code GET /api/search}: find cards, models, dashboards, collections, tables, segments, snippets by name. */
@Path("search")
@Produces(MediaType.APPLICATION_JSON)
public final class SearchResource {
    private final SearchService search;
    private final Caller caller;

    @Inject
    public SearchResource(SearchService search, Caller caller) {
        this.search = search;
        this.caller = caller;
    }

    @GET
    @Access(Access.Level.USER)
    public Map<String, Object> search(@QueryParam("q") String q, @QueryParam("models") List<String> models,
                                      @QueryParam("archived") BoolStr archived, @QueryParam("collection") PosInt collection,
                                      @QueryParam("table_db_id") PosInt tableDbId, @QueryParam("created_by") List<String> createdBy,
                                      @QueryParam("limit") String limit, @QueryParam("offset") String offset) {
        Set<String> wanted = new LinkedHashSet<>(Validation.optEnumVector("models", models, SearchService.MODELS));
        Set<Long> creators = new LinkedHashSet<>();
        for (String c : createdBy == null ? List.<String>of() : createdBy) {
            try {
                long id = Long.parseLong(c.trim());
                if (id <= 0) {
                    throw new NumberFormatException();
                }
                creators.add(id);
            } catch (NumberFormatException e) {
                throw ApiException.withErrors(400, Map.of("created_by", "nullable vector of value must be an integer greater than zero."),
                        Map.of("created_by", List.of("should be a positive int, received: \"" + c + "\"")));
            }
        }
        Paging paging = Paging.of(limit, offset);
        return search.search(caller, new SearchService.Request(q, wanted, BoolStr.orDefault(archived, false),
                collection == null ? null : collection.value(), tableDbId == null ? null : tableDbId.value(),
                creators, paging.limit(), paging.offset()));
    }
}
