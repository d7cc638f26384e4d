package io.quarry.card;

import io.quarry.core.Caller;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.ParamRule;
import io.quarry.web.param.Validation;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.Part;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code POST /api/card/from-csv} (the spec's path) and {@code POST /api/upload/csv} (v0.55+): a multipart form with
 * the CSV in {@code file} and an optional {@code collection_id}; answers the new model's id.
 */
@Path("card")
@Produces(MediaType.APPLICATION_JSON)
public final class CardUploadResource {
    private final CardUploads uploads;
    private final Caller caller;

    @Inject
    public CardUploadResource(CardUploads uploads, Caller caller) {
        this.uploads = uploads;
        this.caller = caller;
    }

    @POST
    @Path("from-csv")
    @Consumes(MediaType.WILDCARD)
    @Access(Access.Level.USER)
    public long fromCsv(@Context HttpServletRequest request) {
        return upload(request);
    }

    /** The form is parsed by the servlet container (the api servlet's multipart-config in web.xml sets the limits). */
    long upload(HttpServletRequest request) {
        Part file;
        Part collection;
        try {
            file = request.getPart("file");
            collection = request.getPart("collection_id");
        } catch (IllegalStateException tooLarge) {
            throw ApiException.badRequest("The CSV file is too large (at most 50 MB).");
        } catch (ServletException | IOException notMultipart) {
            throw ApiException.badRequest("You must provide a CSV file in the \"file\" field.");
        }
        if (file == null) {
            throw ApiException.badRequest("You must provide a CSV file in the \"file\" field.");
        }
        Long collectionId = null;
        if (collection != null) {
            String raw = new String(bytes(collection), StandardCharsets.UTF_8).trim();
            if (!raw.isEmpty() && !raw.equals("null") && !raw.equals("root")) {
                collectionId = Validation.parsePosInt(raw);
                if (collectionId == null) {
                    throw Validation.invalid("collection_id", ParamRule.POS_INT, true, raw);
                }
            }
        }
        String filename = file.getSubmittedFileName();
        return uploads.upload(caller, filename == null ? "upload.csv" : filename, bytes(file), collectionId);
    }

    private static byte[] bytes(Part part) {
        try (InputStream in = part.getInputStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw ApiException.badRequest("The upload could not be read.");
        }
    }

    /** The v0.55+ path of the same upload. */
    @Path("upload")
    @Produces(MediaType.APPLICATION_JSON)
    public static final class Upload {
        private final CardUploadResource delegate;

        @Inject
        public Upload(CardUploads uploads, Caller caller) {
            this.delegate = new CardUploadResource(uploads, caller);
        }

        @POST
        @Path("csv")
        @Consumes(MediaType.WILDCARD)
        @Access(Access.Level.USER)
        public long uploadCsv(@Context HttpServletRequest request) {
            return delegate.upload(request);
        }
    }
}
