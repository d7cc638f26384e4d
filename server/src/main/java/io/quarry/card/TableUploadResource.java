package io.quarry.card;

import io.quarry.core.Caller;
import io.quarry.web.body.MultipartForm;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.Map;

/**
 * {@code POST /api/table/:id/append-csv} and {@code /replace-csv}: a multipart form with a CSV in {@code file} (an
 * optional {@code collection_id} part is ignored, as Metabase ignores it here) adds its rows to a table an upload
 * made, or replaces the table's rows by them; 204 when done. The checks of {@link CardUploads#requireMayUpdate} come
 * before a byte of the form is read; the form is read as an upload's ({@code max-upload-size-bytes}, 413 past it).
 * Errors are JSON {@code {"message"}}, as Metabase answers them here.
 */
@Path("table")
@Produces(MediaType.APPLICATION_JSON)
public final class TableUploadResource {
    private final CardUploads uploads;
    private final Caller caller;

    @Inject
    public TableUploadResource(CardUploads uploads, Caller caller) {
        this.uploads = uploads;
        this.caller = caller;
    }

    @POST
    @Path("{id}/append-csv")
    @Consumes(MediaType.WILDCARD)
    @Access(Access.Level.USER)
    public Response append(@PathParam("id") PosInt id, @Context HttpServletRequest request) {
        return update(id.value(), request, false);
    }

    @POST
    @Path("{id}/replace-csv")
    @Consumes(MediaType.WILDCARD)
    @Access(Access.Level.USER)
    public Response replace(@PathParam("id") PosInt id, @Context HttpServletRequest request) {
        return update(id.value(), request, true);
    }

    private Response update(long tableId, HttpServletRequest request, boolean replace) {
        uploads.requireMayUpdate(caller, tableId);
        long max = uploads.maxFileBytes();
        try {
            if (request.getContentLengthLong() > max + MultipartForm.OVERHEAD_BYTES) {
                throw CardUploadResource.tooLarge(max);
            }
            try (MultipartForm form = MultipartForm.read(request.getInputStream(), request.getContentType(), "file", max)) {
                if (form.file() == null) {
                    throw CardUploadResource.noFile();
                }
                uploads.update(caller, tableId, form.file(), replace);
                return Response.noContent().build();
            } catch (MultipartForm.TooLarge e) {
                throw CardUploadResource.tooLarge(max);
            } catch (MultipartForm.Malformed e) {
                throw CardUploadResource.noFile();
            } catch (IOException e) {
                throw ApiException.badRequest("The upload could not be read.");
            }
        } catch (ApiException e) {
            throw e.body() != null ? e : new ApiException(e.status(), e.getMessage(), Map.of("message", e.getMessage()));
        }
    }
}
