package io.quarry.embed;

import io.quarry.publicsharing.PublicSharing;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Path;

/** {@code /api/embed/...}: signed embeds, for anyone holding a token signed with {@code embedding-secret-key}. */
@Path("embed")
@Access(Access.Level.PUBLIC)
public final class EmbedResource extends EmbedEndpoints {
    @Inject
    public EmbedResource(EmbedTokens tokens, PublicSharing sharing) {
        super(tokens, sharing, false);
    }
}
