package io.quarry.qp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.qp.run.QueryRequest;
import io.quarry.qp.run.QueryRunner;
import io.quarry.qp.web.QueryResponder;
import io.quarry.warehouse.MetadataService;
import io.quarry.warehouse.Table;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import io.quarry.web.security.CallerFactory;
import jakarta.inject.Inject;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code GET /api/table/:id/data}: a table's rows as the data-model grid shows them, Metabase's {@code SELECT *} of the
 * table with the API's row limit, run through the query runner with the caller's data permissions (403), streamed
 * with status 202 like any query result. An unknown table is a 404 first; the query string is ignored, as Metabase
 * ignores it.
 */
@Path("table")
@Produces(MediaType.APPLICATION_JSON)
@Singleton
public final class TableDataResource {
    private final QueryRunner runner;
    private final MetadataService metadata;
    private final Provider<Caller> callers;

    @Inject
    public TableDataResource(QueryRunner runner, MetadataService metadata, Provider<Caller> callers) {
        this.runner = runner;
        this.metadata = metadata;
        this.callers = callers;
    }

    @GET
    @Path("{id}/data")
    @Access(Access.Level.USER)
    public Response data(@PathParam("id") PosInt id) {
        Table table = metadata.requireTable(id.value());
        ObjectNode query = Json.object();
        query.put("database", table.dbId).put("type", "query").putObject("query").put("source-table", table.id);
        return QueryResponder.respond(runner.run(QueryRequest.tableGrid(CallerFactory.current(callers), query)));
    }
}
