package io.quarry.render;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.card.Card;
import io.quarry.card.CardService;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.qp.run.QueryContext;
import io.quarry.qp.run.QueryRequest;
import io.quarry.qp.run.QueryRunner;
import io.quarry.setting.Settings;
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
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/pulse/preview_card/:id} (HTML page), {@code /preview_card_info/:id} (JSON) and
 * {@code /preview_card_png/:id} (PNG): a card rendered as a subscription e-mail shows it. The card must be readable by
 * the caller (404 unknown, 403 without collection rights); its query runs through the runner as the caller, in the
 * subscription context (no view counted), so a caller without data rights sees the card's error rendering, as Metabase.
 *
 * <p>Each path is its own root resource, longer than {@code pulse}: Jersey matches the root with the most literal
 * characters first, so these win over a {@code @Path("pulse")} resource's {@code {id}} methods.
 */
@Path("pulse/preview_card")
public final class PreviewResource {
    /** Metabase's width of a preview PNG when none is asked for. */
    static final int PNG_WIDTH = 400;

    private final Previews previews;

    @Inject
    public PreviewResource(CardService cards, QueryRunner runner, CardRenderer renderer, Settings settings, Caller caller,
                           @Context UriInfo uri) {
        this.previews = new Previews(cards, runner, renderer, settings, caller, uri);
    }

    @GET
    @Path("{id}")
    @Produces(MediaType.TEXT_HTML + ";charset=utf-8")
    @Access(Access.Level.USER)
    public String html(@PathParam("id") PosInt id) {
        Previewed p = previews.run(id.value());
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + Html.escape(p.card.path("name").asText(""))
                + "</title></head><body style=\"margin: 0;\">" + p.rendered().htmlWithDataUris() + "</body></html>";
    }

    /** {@code {id, pulse_card_type, pulse_card_html, pulse_card_name, pulse_card_url, row_count, col_count}}. */
    @Path("pulse/preview_card_info")
    public static final class Info {
        private final Previews previews;

        @Inject
        public Info(CardService cards, QueryRunner runner, CardRenderer renderer, Settings settings, Caller caller,
                    @Context UriInfo uri) {
            this.previews = new Previews(cards, runner, renderer, settings, caller, uri);
        }

        @GET
        @Path("{id}")
        @Produces(MediaType.APPLICATION_JSON)
        @Access(Access.Level.USER)
        public Map<String, Object> info(@PathParam("id") PosInt id) {
            Previewed p = previews.run(id.value());
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("id", id.value());
            out.put("pulse_card_type", p.result.failed() ? null : previews.renderer.pulseCardType(p.card, p.result.data()));
            out.put("pulse_card_html", p.rendered().htmlWithDataUris());
            out.put("pulse_card_name", p.card.path("name").asText(null));
            out.put("pulse_card_url", p.url);
            out.put("row_count", p.result.failed() ? null : p.result.rowCount());
            out.put("col_count", p.result.failed() ? 0 : p.result.data().cols().size());
            return out;
        }
    }

    /** The card as a PNG, {@code width} pixels wide (400 when not given; kept between 100 and 4000). */
    @Path("pulse/preview_card_png")
    public static final class Png {
        private final Previews previews;

        @Inject
        public Png(CardService cards, QueryRunner runner, CardRenderer renderer, Settings settings, Caller caller,
                   @Context UriInfo uri) {
            this.previews = new Previews(cards, runner, renderer, settings, caller, uri);
        }

        @GET
        @Path("{id}")
        @Produces("image/png")
        @Access(Access.Level.USER)
        public byte[] png(@PathParam("id") PosInt id, @QueryParam("width") PosInt width) {
            // Metabase takes any positive width; a width no e-mail or chat client shows is drawn at the nearest sensible one
            int pixels = width == null ? PNG_WIDTH : (int) Math.max(100, Math.min(4000, width.value()));
            Previewed p = previews.run(id.value());
            return p.result.failed() ? previews.renderer.errorPng(pixels) : previews.renderer.png(p.card, p.result.data(), pixels);
        }
    }

    /** A card, its result and its link. */
    private record Previewed(JsonNode card, CardResult result, String url, CardRenderer renderer) {
        RenderedCard rendered() {
            RenderOptions options = new RenderOptions(RenderOptions.EMAIL_WIDTH, RenderOptions.EMAIL_TABLE_ROWS, url);
            return result.failed() ? renderer.renderError(card, options) : renderer.render(card, result.data(), options);
        }
    }

    /** What the three endpoints share: the rights check, the run through the runner, the card's link. */
    private record Previews(CardService cards, QueryRunner runner, CardRenderer renderer, Settings settings, Caller caller,
                            UriInfo uri) {
        Previewed run(long id) {
            Card card = cards.requireReadable(id, caller);
            JsonNode json = Json.MAPPER.valueToTree(cards.views(List.of(card), caller).get(0));
            CardResult result = CardResult.of(runner.run(QueryRequest.savedCard(QueryContext.SUBSCRIPTION, caller,
                    new QueryRequest.SavedCard(card.id, card.databaseId), json.get("dataset_query"), null,
                    QueryRequest.CacheRules.NONE)));
            return new Previewed(json, result, siteUrl() + "/question/" + card.id, renderer);
        }

        /** {@code site-url}, else where this request came in (without {@code /api}). */
        private String siteUrl() {
            String site = settings.string("site-url");
            if (site == null || site.isBlank()) {
                site = uri.getBaseUri().toString();
            }
            site = site.replaceAll("/+$", "");
            return site.endsWith("/api") ? site.substring(0, site.length() - 4) : site;
        }
    }
}
