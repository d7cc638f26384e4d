package io.quarry.embed;

import io.quarry.publicsharing.PublicSharing;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Path;

/**
 * {@code /api/preview_embed/...} (v0.63's path): an administrator previews an embed before publishing it — the
 * object's {@code enable_embedding} is ignored and the parameter rules come from the token's {@code _embedding_params}.
 */
@Path("preview_embed")
@Access(Access.Level.SUPERUSER)
public final class PreviewEmbedResource extends EmbedEndpoints {
    @Inject
    public PreviewEmbedResource(EmbedTokens tokens, PublicSharing sharing) {
        super(tokens, sharing, true);
    }

    /** The spec's {@code /api/preview-embed/...}: the same endpoints. */
    @Path("preview-embed")
    @Access(Access.Level.SUPERUSER)
    public static final class Hyphen extends EmbedEndpoints {
        @Inject
        public Hyphen(EmbedTokens tokens, PublicSharing sharing) {
            super(tokens, sharing, true);
        }
    }
}
