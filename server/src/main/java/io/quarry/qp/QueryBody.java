package io.quarry.qp;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.warehouse.SavedQuestions;
import io.quarry.web.param.Body;

/**
 * The JSON types of a query's outer structure as the API receives it ({@code POST /api/dataset} and its siblings, a
 * download's {@code query}): {@code database} an integer > 0 (or the Saved Questions virtual database), {@code type} a
 * string, {@code native} a map with a string {@code query} and a map of {@code template-tags}, {@code query} a map whose
 * {@code source-table} is an integer > 0 or {@code "card__<id>"}, {@code parameters} a list of maps, {@code constraints}
 * a map. A value of the wrong type is a 400 naming the field, before the query is looked at any further; what the
 * values mean (an unknown database, bad SQL) stays the query processor's answer.
 */
public final class QueryBody {
    private QueryBody() {
    }

    /** Checks a whole request body that is a query; a 400 naming every field of the wrong type. */
    public static void check(JsonNode request) {
        Body.throwIfInvalid(check(Body.of(request)));
    }

    /**
     * Records the type errors of a query read as {@code body} (the whole body, or {@link Body#nested} of it) and
     * returns the bodies holding them, for {@link Body#throwIfInvalid(Body...)}.
     */
    public static Body[] check(Body body) {
        JsonNode database = body.get("database", Body.Kind.POS_INT);
        if (!(database.isIntegralNumber() && database.canConvertToLong() && database.asLong() == SavedQuestions.VIRTUAL_DATABASE_ID)) {
            body.optPosInt("database");
        }
        body.optString("type");
        body.optObjects("parameters", "sequence of maps");
        body.optMap("constraints");
        Body nativePart = body.get("native").isObject() ? body.nested("native") : null;
        if (nativePart == null) {
            body.optMap("native");
        } else {
            nativePart.optString("query");
            nativePart.optMap("template-tags");
        }
        Body inner = body.get("query").isObject() ? body.nested("query") : null;
        if (inner == null) {
            body.optMap("query");
        } else {
            JsonNode source = inner.get("source-table", Body.Kind.POS_INT);
            if (!(source.isTextual() && source.asText().matches("card__[1-9][0-9]{0,18}"))) {
                inner.optPosInt("source-table");
            }
        }
        return new Body[]{body, nativePart == null ? body : nativePart, inner == null ? body : inner};
    }
}
