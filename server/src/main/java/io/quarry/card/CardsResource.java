package io.quarry.card;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;
import io.quarry.web.param.Body;
import io.quarry.web.param.Patch;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/** {@code /api/cards}: Metabase's bulk endpoints for cards (the dashboards they are on, moving several at once). */
@Path("cards")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class CardsResource {
    static final String CARD_IDS = "sequence of value must be an integer greater than zero.";
    private static final String NULLABLE_POS_INT = "nullable value must be an integer greater than zero.";

    private final CardService cards;
    private final Caller caller;

    @Inject
    public CardsResource(CardService cards, Caller caller) {
        this.cards = cards;
        this.caller = caller;
    }

    /** {@code {"card_ids": [...]}} → {@code [{"card_id", "dashboards": [...]}]}, see {@link CardService#dashboardsOfCards}. */
    @POST
    @Path("dashboards")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> dashboards(JsonNode json) {
        Body body = Body.of(json);
        List<Long> ids = CardResource.cardIds(body, CARD_IDS, CARD_IDS);
        body.throwIfInvalid();
        return cards.dashboardsOfCards(ids, caller);
    }

    /**
     * {@code {"card_ids": [...], "collection_id"?: id|null, "dashboard_id"?: null}}: moves every card to the collection
     * (null = Root) in one transaction, all or nothing, with the rights of {@code PUT /api/card/:id} (write on each
     * card's collection and on the target); without {@code collection_id} nothing moves but the rights are checked.
     * Quarry has no dashboard questions (cards that live in a dashboard): a {@code dashboard_id} other than null is a 400.
     */
    @POST
    @Path("move")
    @Access(Access.Level.USER)
    public Map<String, Object> move(JsonNode json) {
        Body body = Body.of(json);
        List<Long> ids = CardResource.cardIds(body, CARD_IDS, CARD_IDS);
        Patch<Long> collectionId = Patch.of(body, "collection_id", Body::optPosInt);
        Long dashboardId = body.optPosInt("dashboard_id");
        if (dashboardId != null) {
            body.addError("dashboard_id", NULLABLE_POS_INT,
                    "Quarry has no dashboard questions: add the card to the dashboard with PUT /api/dashboard/:id, received: " + dashboardId);
        }
        body.throwIfInvalid();
        if (collectionId.present()) {
            cards.move(ids, collectionId.value(), caller);
        } else {
            for (Long id : new LinkedHashSet<>(ids)) {
                cards.requireWritable(id, caller);
            }
        }
        return Map.of("status", "success");
    }
}
