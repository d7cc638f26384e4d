package io.quarry.render;

import io.quarry.core.Caller;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /api/pulse/preview_card/:id} (HTML page), {@code /preview_card_info/:id} (JSON) and
 * {@code /preview_card_png/:id} (PNG): a card rendered as a subscription e-mail shows it ({@link CardPreviews}). A
 * caller without data rights sees the card's error rendering, as Metabase.
 *
 * <p>Each path is its own root resource, longer than {@code pulse}: Jersey matches the root with the most literal
 * characters first, so these win over a {@code @Path("pulse")} resource's {@code {id}} methods (PreviewRoutingTest).
 */
@Path("pulse/preview_card")
public final class PreviewResource extends PreviewRoot {
    /** Metabase's width of a preview PNG when none is asked for. */
    static final int PNG_WIDTH = 400;

    @Inject
    public PreviewResource(CardPreviews previews, Caller caller, @Context UriInfo uri) {
        super(previews, caller, uri);
    }

    @GET
    @Path("{id}")
    @Produces(MediaType.TEXT_HTML + ";charset=utf-8")
    @Access(Access.Level.USER)
    public String html(@PathParam("id") PosInt id) {
        CardPreviews.Preview p = preview(id);
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + Html.escape(p.card().path("name").asText(""))
                + "</title></head><body style=\"margin: 0;\">" + p.rendered().htmlWithDataUris() + "</body></html>";
    }

    /** Where this request came in, without {@code /api}: the link base when {@code site-url} is not set. */
    static String requestSiteUrl(UriInfo uri) {
        String base = uri.getBaseUri().toString().replaceAll("/+$", "");
        return base.endsWith("/api") ? base.substring(0, base.length() - 4) : base;
    }

    /** {@code {id, pulse_card_type, pulse_card_html, pulse_card_name, pulse_card_url, row_count, col_count}}. */
    @Path("pulse/preview_card_info")
    public static final class Info extends PreviewRoot {
        @Inject
        public Info(CardPreviews previews, Caller caller, @Context UriInfo uri) {
            super(previews, caller, uri);
        }

        @GET
        @Path("{id}")
        @Produces(MediaType.APPLICATION_JSON)
        @Access(Access.Level.USER)
        public Map<String, Object> info(@PathParam("id") PosInt id) {
            CardPreviews.Preview p = preview(id);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("id", id.value());
            out.put("pulse_card_type", p.pulseCardType());
            out.put("pulse_card_html", p.rendered().htmlWithDataUris());
            out.put("pulse_card_name", p.card().path("name").asText(null));
            out.put("pulse_card_url", p.url());
            out.put("row_count", p.result().failed() ? null : p.result().rowCount());
            out.put("col_count", p.result().failed() ? 0 : p.result().data().cols().size());
            return out;
        }
    }

    /** The card as a PNG, {@code width} pixels wide (400 when not given; kept between 100 and 4000). */
    @Path("pulse/preview_card_png")
    public static final class Png extends PreviewRoot {
        @Inject
        public Png(CardPreviews previews, Caller caller, @Context UriInfo uri) {
            super(previews, caller, uri);
        }

        @GET
        @Path("{id}")
        @Produces("image/png")
        @Access(Access.Level.USER)
        public byte[] png(@PathParam("id") PosInt id, @QueryParam("width") PosInt width) {
            // Metabase takes any positive width; a width no e-mail or chat client shows is drawn at the nearest sensible one
            int pixels = width == null ? PNG_WIDTH : (int) Math.max(100, Math.min(4000, width.value()));
            return preview(id).png(pixels);
        }
    }
}
