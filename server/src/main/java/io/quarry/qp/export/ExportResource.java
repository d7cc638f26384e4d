package io.quarry.qp.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.qp.run.QueryRequest;
import io.quarry.qp.run.QueryRunner;
import io.quarry.qp.web.QueryResponder;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;

/**
 * {@code POST /api/dataset/:export-format}: runs an ad-hoc query and streams its rows as a CSV, JSON or XLSX file, or
 * as the normal result object ({@code api}), without the API's row limits (up to 1,048,575 rows). The body is JSON or
 * form-encoded ({@link ExportRequest}). A query that fails before its first row answers Metabase's failure body with
 * its 4xx status; an unknown format is an unknown endpoint (404), as Metabase's route only matches the four.
 */
@Path("dataset")
public final class ExportResource {
    private final QueryRunner runner;
    private final Caller caller;

    @Inject
    public ExportResource(QueryRunner runner, Caller caller) {
        this.runner = runner;
        this.caller = caller;
    }

    @POST
    @Path("{export-format: " + ExportFormat.PATH_PATTERN + "}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Access(Access.Level.USER)
    public Response exportJson(@PathParam("export-format") String format, JsonNode body) {
        return export(ExportFormat.of(format), ExportRequest.fromJson(body));
    }

    @POST
    @Path("{export-format: " + ExportFormat.PATH_PATTERN + "}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Access(Access.Level.USER)
    public Response exportForm(@PathParam("export-format") String format, MultivaluedMap<String, String> form) {
        return export(ExportFormat.of(format), ExportRequest.fromForm(form));
    }

    private Response export(ExportFormat format, ExportRequest request) {
        QueryRequest.Download download = new QueryRequest.Download(format, request.options(), "query_result");
        return QueryResponder.respond(runner.run(QueryRequest.download(caller, asDownload(request), null, download)));
    }

    /**
     * The query as a download runs it (Metabase's rules): the caller's constraints are dropped — a download is limited
     * only by the absolute maximum — and the middleware says how rows are written.
     */
    static ObjectNode asDownload(ExportRequest request) {
        ObjectNode query = request.query().deepCopy();
        query.remove("constraints");
        JsonNode ignoreCache = query.path("middleware").get("ignore-cached-results?");
        ObjectNode middleware = query.putObject("middleware");
        if (ignoreCache != null) {
            middleware.set("ignore-cached-results?", ignoreCache);
        }
        middleware.put("format-rows?", request.options().formatRows());
        middleware.put("pivot?", request.options().pivotResults());
        middleware.put("process-viz-settings?", true);
        middleware.put("skip-results-metadata?", true);
        return query;
    }
}
