package io.quarry.card;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.web.param.Body;

/** The shapes of a card's {@code parameters} and {@code parameter_mappings}, with Metabase's messages. */
final class CardParameters {
    private CardParameters() {
    }

    static void check(Body body) {
        JsonNode parameters = body.get("parameters");
        if (!parameters.isNull() && !allHave(parameters, "id", "type")) {
            body.addError("parameters", "nullable sequence of parameter must be a map with :id and :type keys",
                    "invalid parameter, received: " + parameters);
        }
        JsonNode mappings = body.get("parameter_mappings");
        if (!mappings.isNull() && !allHave(mappings, "parameter_id", "target")) {
            body.addError("parameter_mappings", "nullable sequence of parameter_mapping must be a map with :parameter_id and :target keys",
                    "invalid parameter mapping, received: " + mappings);
        }
    }

    private static boolean allHave(JsonNode list, String a, String b) {
        if (!list.isArray()) {
            return false;
        }
        for (JsonNode item : list) {
            if (!item.isObject() || !item.has(a) || !item.has(b)) {
                return false;
            }
        }
        return true;
    }
}
