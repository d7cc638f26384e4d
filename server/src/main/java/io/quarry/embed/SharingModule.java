package io.quarry.embed;

import io.quarry.card.CardService;
import io.quarry.dashboard.DashboardService;
import io.quarry.parameters.ParameterValues;
import io.quarry.publicsharing.PublicSharing;
import io.quarry.qp.run.QueryRunner;
import io.quarry.setting.Settings;
import java.time.Clock;

/**
 * What strangers may see: public links ({@link PublicSharing}) and signed embeds ({@link EmbedTokens}), which run the
 * shared cards and dashboards through the query runner with the cards' own rights. It lives in {@code embed} because
 * signed embeds are built on public sharing ({@code embed} uses {@code publicsharing}, never the other way round).
 */
public record SharingModule(PublicSharing publicSharing, EmbedTokens embedTokens) {
    public static SharingModule create(Settings settings, Clock clock, CardService cards, DashboardService dashboards,
            QueryRunner runner, ParameterValues parameterValues) {
        return new SharingModule(new PublicSharing(settings, cards, dashboards, runner, parameterValues),
                new EmbedTokens(settings, clock));
    }
}
