package io.quarry.qp.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Json;
import io.quarry.web.error.ApiException;
import jakarta.ws.rs.core.MultivaluedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Download bodies as JSON or form fields, and their 400s. */
class ExportRequestTest {
    private static final String QUERY = "{\"database\":1,\"type\":\"native\",\"native\":{\"query\":\"SELECT 1\"}}";

    private static JsonNode json(String text) throws Exception {
        return Json.read(text);
    }

    @Test
    void jsonBodiesTakeTheQueryAsAnObjectOrAString() throws Exception {
        ExportRequest object = ExportRequest.fromJson(json("{\"query\":" + QUERY + ",\"visualization_settings\":{},"
                + "\"format_rows\":true,\"pivot_results\":false}"));
        assertEquals(json(QUERY), object.query());
        assertTrue(object.options().formatRows());
        assertFalse(object.options().pivotResults());
        ExportRequest string = ExportRequest.fromJson(Json.MAPPER.valueToTree(Map.of("query", QUERY, "format_rows", "false",
                "csv_include_bom", "true", "visualization_settings", "{\"table.pivot\":false}")));
        assertEquals(json(QUERY), string.query());
        assertFalse(string.options().formatRows());
        assertTrue(string.options().csvIncludeBom());
        assertEquals(ExportRequest.Options.DEFAULT, ExportRequest.fromJson(json("{\"query\":" + QUERY + "}")).options());
        assertEquals(ExportRequest.Options.DEFAULT, ExportRequest.fromJson(json("{\"query\":" + QUERY + ",\"format_rows\":null}")).options());
    }

    @Test
    void formFieldsAreText() throws Exception {
        MultivaluedHashMap<String, String> form = new MultivaluedHashMap<>();
        form.add("query", QUERY);
        form.add("format_rows", "TRUE");
        form.add("pivot_results", "false");
        form.add("visualization_settings", "{}");
        ExportRequest request = ExportRequest.fromForm(form);
        assertEquals(json(QUERY), request.query());
        assertTrue(request.options().formatRows());
    }

    @Test
    void badFieldsAnswerOne400NamingEach() throws Exception {
        ApiException missing = assertThrows(ApiException.class, () -> ExportRequest.fromJson(json("{}")));
        assertEquals(400, missing.status());
        ApiException all = assertThrows(ApiException.class, () -> ExportRequest.fromJson(json(
                "{\"query\":\"{oops\",\"format_rows\":\"maybe\",\"pivot_results\":7,\"visualization_settings\":\"[\"}")));
        String body = Json.write(all.body());
        assertTrue(body.contains("\"query\":\"value must be a valid JSON string.\""), body);
        assertTrue(body.contains("\"format_rows\":\"value must be a valid boolean string ('true' or 'false').\""), body);
        assertTrue(body.contains("\"pivot_results\""), body);
        assertTrue(body.contains("\"visualization_settings\""), body);
        ApiException array = assertThrows(ApiException.class, () -> ExportRequest.fromJson(json("{\"query\":[1]}")));
        assertTrue(Json.write(array.body()).contains("\"query\""));
        assertThrows(ApiException.class, () -> ExportRequest.fromJson(json("[1]")));
        // a padded boolean string and a settings value that is no map are refused, as Body's accessors refuse them
        ApiException padded = assertThrows(ApiException.class, () -> ExportRequest.fromJson(json(
                "{\"query\":" + QUERY + ",\"format_rows\":\"TRUE \",\"visualization_settings\":[1]}")));
        String paddedBody = Json.write(padded.body());
        assertTrue(paddedBody.contains("\"format_rows\"") && paddedBody.contains("\"visualization_settings\""), paddedBody);
        // the query's own fields are typed too, named inside the query
        ApiException database = assertThrows(ApiException.class, () -> ExportRequest.fromJson(json(
                "{\"query\":{\"database\":\"1\",\"type\":\"native\",\"native\":{\"query\":7}}}")));
        String databaseBody = Json.write(database.body());
        assertTrue(databaseBody.contains("\"database\"") && databaseBody.contains("\"query\""), databaseBody);
    }

    @Test
    void downloadsDropTheCallersConstraints() throws Exception {
        ExportRequest request = ExportRequest.fromJson(json("{\"query\":{\"database\":1,\"type\":\"native\",\"native\":{\"query\":\"x\"},"
                + "\"constraints\":{\"max-results\":10},\"middleware\":{\"js-int-to-string?\":true,\"ignore-cached-results?\":true}},"
                + "\"format_rows\":true}"));
        JsonNode query = ExportResource.asDownload(request);
        assertFalse(query.has("constraints"));
        assertEquals("{\"ignore-cached-results?\":true,\"format-rows?\":true,\"pivot?\":false,\"process-viz-settings?\":true,"
                + "\"skip-results-metadata?\":true}", query.get("middleware").toString());
        assertTrue(request.query().has("constraints"), "the request itself is left alone");
    }
}
