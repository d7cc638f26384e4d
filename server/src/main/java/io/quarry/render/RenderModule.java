package io.quarry.render;

import io.quarry.card.CardService;
import io.quarry.qp.run.QueryRunner;
import io.quarry.setting.Settings;

/** The render module: cards as e-mail HTML and chart PNGs, and the previews of cards rendered that way. */
public record RenderModule(CardRenderer renderer, CardPreviews previews) {
    public static RenderModule create(CardService cards, QueryRunner runner, Settings settings) {
        CardRenderer renderer = new CardRenderer();
        return new RenderModule(renderer, new CardPreviews(cards, runner, renderer, settings));
    }
}
