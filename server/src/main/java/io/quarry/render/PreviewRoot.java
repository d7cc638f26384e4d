package io.quarry.render;

import io.quarry.core.Caller;
import io.quarry.web.param.PosInt;
import jakarta.ws.rs.core.UriInfo;

/** What the three preview roots share: the card's preview for this caller, links based on this request. */
abstract class PreviewRoot {
    private final CardPreviews previews;
    private final Caller caller;
    private final UriInfo uri;

    PreviewRoot(CardPreviews previews, Caller caller, UriInfo uri) {
        this.previews = previews;
        this.caller = caller;
        this.uri = uri;
    }

    final CardPreviews.Preview preview(PosInt id) {
        return previews.preview(id.value(), caller, PreviewResource.requestSiteUrl(uri));
    }
}
