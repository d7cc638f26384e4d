package io.quarry.card;

import io.quarry.core.Caller;
import io.quarry.web.body.MultipartForm;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.ParamRule;
import io.quarry.web.param.Validation;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;

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

    /**
     * Checks the caller's rights on the uploads database before a byte of the form is read, then streams the form: the
     * file to a temporary file, at most {@code max-upload-size-bytes} (413 past it, by the declared length before
     * reading, or as soon as the streamed file passes it), deleted once the upload is done.
     */
    long upload(HttpServletRequest request) {
        uploads.requireMayUpload(caller);
        long max = uploads.maxFileBytes();
        if (request.getContentLengthLong() > max + MultipartForm.OVERHEAD_BYTES) {
            throw tooLarge(max);
        }
        try (MultipartForm form = MultipartForm.read(request.getInputStream(), request.getContentType(), "file", max)) {
            Long collectionId = null;
            String raw = form.field("collection_id");
            if (raw != null) {
                raw = raw.trim();
                if (!raw.isEmpty() && !raw.equals("null") && !raw.equals("root")) {
                    collectionId = Validation.parsePosInt(raw);
                    if (collectionId == null) {
                        throw Validation.invalid("collection_id", ParamRule.POS_INT, true, raw);
                    }
                }
            }
            if (form.file() == null) {
                throw noFile();
            }
            String filename = form.filename();
            return uploads.upload(caller, filename == null ? "upload.csv" : filename, form.file(), collectionId);
        } catch (MultipartForm.TooLarge e) {
            throw tooLarge(max);
        } catch (MultipartForm.Malformed e) {
            throw noFile();
        } catch (IOException e) {
            throw ApiException.badRequest("The upload could not be read.");
        }
    }

    static ApiException noFile() {
        return ApiException.badRequest("You must provide a CSV file in the \"file\" field.");
    }

    static ApiException tooLarge(long max) {
        String size = max % (1024 * 1024) == 0 ? max / (1024 * 1024) + " MB" : max + " bytes";
        return new ApiException(413, "The CSV file is too large (at most " + size + ").");
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
