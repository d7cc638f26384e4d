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
import java.util.List;

/**
 * A saved card rendered for a person looking at it (the preview endpoints): the caller's read rights on the card (404
 * unknown, 403 without collection rights), its query through the runner as the caller in the subscription context (no
 * view counted, no result cache), and its link on {@code site-url}.
 */
public final class CardPreviews {
    private final CardService cards;
    private final QueryRunner runner;
    private final CardRenderer renderer;
    private final Settings settings;

    public CardPreviews(CardService cards, QueryRunner runner, CardRenderer renderer, Settings settings) {
        this.cards = cards;
        this.runner = runner;
        this.renderer = renderer;
        this.settings = settings;
    }

    /** A card as the API returns it, its result (or failure) and its link. */
    public record Preview(JsonNode card, CardResult result, String url, CardRenderer renderer) {
        /** The card as an e-mail shows it (600 px, the first 10 rows), its title linking to the card. */
        public RenderedCard rendered() {
            RenderOptions options = new RenderOptions(RenderOptions.EMAIL_WIDTH, RenderOptions.EMAIL_TABLE_ROWS, url);
            return result.failed() ? renderer.renderError(card, options) : renderer.render(card, result.data(), options);
        }

        /** The card as a PNG of this width; a failed query as Metabase's error card. */
        public byte[] png(int width) {
            return result.failed() ? renderer.errorPng(width) : renderer.png(card, result.data(), width);
        }

        /** Metabase's {@code pulse_card_type}; null when the query failed. */
        public String pulseCardType() {
            return result.failed() ? null : renderer.pulseCardType(card, result.data());
        }
    }

    /**
     * Runs the card for the caller. {@code requestSiteUrl} (where the request came in, without {@code /api}) makes the
     * link when the {@code site-url} setting is empty.
     */
    public Preview preview(long id, Caller caller, String requestSiteUrl) {
        Card card = cards.requireReadable(id, caller);
        JsonNode json = Json.MAPPER.valueToTree(cards.views(List.of(card), caller).get(0));
        CardResult result = CardResult.of(runner.run(QueryRequest.savedCard(QueryContext.SUBSCRIPTION, caller,
                new QueryRequest.SavedCard(card.id, card.databaseId), json.get("dataset_query"), null,
                QueryRequest.CacheRules.NONE)));
        String site = settings.string("site-url");
        if (site == null || site.isBlank()) {
            site = requestSiteUrl;
        }
        return new Preview(json, result, site.replaceAll("/+$", "") + "/question/" + card.id, renderer);
    }
}
