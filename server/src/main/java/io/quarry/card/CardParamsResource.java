package io.quarry.card;

import io.quarry.web.param.NonBlank;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import io.quarry.web.error.ApiException;
import jakarta.ws.rs.QueryParam;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** {@code GET /api/card/:id/params/:key/values} and {@code .../search/:query}: possible values of a card parameter. */
@Path("card/{id}/params/{key}")
@Produces(MediaType.APPLICATION_JSON)
public final class CardParamsResource {
    private final CardService cards;
    private final CardParamValues values;
    private final Caller caller;

    @Inject
    public CardParamsResource(CardService cards, CardParamValues values, Caller caller) {
        this.cards = cards;
        this.values = values;
        this.caller = caller;
    }

    @GET
    @Path("values")
    @Access(Access.Level.USER)
    public Map<String, Object> values(@PathParam("id") PosInt id, @PathParam("key") NonBlank key) {
        Card card = cards.requireReadable(id.value(), caller);
        return values.values(card, key.value(), null, caller);
    }

    /**
     * The display name of one value of the parameter: {@code ["value"]} or {@code [value, "label"]} (see
     * {@link CardParamValues#remapping}). {@code value} is required and percent-decoded once more, as Metabase does.
     */
    @GET
    @Path("remapping")
    @Access(Access.Level.USER)
    public List<Object> remapping(@PathParam("id") PosInt id, @PathParam("key") NonBlank key, @QueryParam("value") String value) {
        if (value == null) {
            throw ApiException.withErrors(400, Map.of("value", "string"), Map.of("value", List.of("missing required key, received: nil")));
        }
        Card card = cards.requireReadable(id.value(), caller);
        return values.remapping(card, key.value(), percentDecoded(value), caller);
    }

    private static String percentDecoded(String value) {
        try {
            return URLDecoder.decode(value.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notEncoded) {
            return value;
        }
    }

    @GET
    @Path("search/{query}")
    @Access(Access.Level.USER)
    public Map<String, Object> search(@PathParam("id") PosInt id, @PathParam("key") NonBlank key, @PathParam("query") NonBlank query) {
        Card card = cards.requireReadable(id.value(), caller);
        return values.values(card, key.value(), query.value(), caller);
    }
}
