package io.quarry.qp;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * {@code POST /api/dataset/query_metadata}: everything a client needs to show an ad-hoc query ({@link QueryMetadata}).
 */
@Path("dataset")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class QueryMetadataResource {
    private final QueryMetadata queryMetadata;
    private final Caller caller;

    @Inject
    public QueryMetadataResource(QueryMetadata queryMetadata, Caller caller) {
        this.queryMetadata = queryMetadata;
        this.caller = caller;
    }

    @POST
    @Path("query_metadata")
    @Access(Access.Level.USER)
    public Map<String, Object> queryMetadata(JsonNode request) {
        QueryBody.check(request);
        return queryMetadata.of(request, caller);
    }
}
