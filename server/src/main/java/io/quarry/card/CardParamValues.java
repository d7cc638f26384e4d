package io.quarry.card;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.parameters.ParameterValues;
import io.quarry.web.error.ApiException;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The possible values of a card parameter: a static list, or the values of the field the parameter filters (see the
 * shared {@link ParameterValues}, which dashboard filters use too).
 */
public final class CardParamValues {
    static final int LIMIT = ParameterValues.LIMIT;

    private final ParameterValues values;

    CardParamValues(ParameterValues values) {
        this.values = values;
    }

    /**
     * {@code GET /api/card/:id/params/:key/remapping?value=}: the value with its display name, as Metabase answers it —
     * {@code [value, "label"]} from a static list's labelled pair or the parameter's field (its remapped values),
     * otherwise {@code [value]} (a card source never remaps). A key the card has no parameter for: 400.
     */
    List<Object> remapping(Card card, String paramKey, String value, Caller caller) {
        JsonNode parameter = null;
        JsonNode parameters = CardService.parse(card.parameters);
        if (parameters != null) {
            for (JsonNode p : parameters) {
                if (paramKey.equals(p.path("id").asText())) {
                    parameter = p;
                }
            }
        }
        if (parameter == null) {
            throw ApiException.badRequest("Card does not have a parameter with the ID " + Json.write(paramKey));
        }
        List<Object> remapped = null;
        if (ParameterValues.isStaticList(parameter)) {
            remapped = ParameterValues.staticListRemapping(parameter, value);
        } else if (!ParameterValues.isCardSource(parameter)) {
            Long fieldId = ParameterValues.fieldOf(parameter.path("target"), CardService.parse(card.datasetQuery));
            remapped = fieldId == null ? null : values.fieldRemapping(fieldId, value, caller);
        }
        return remapped != null ? remapped : new ArrayList<>(List.of(value));
    }

    Map<String, Object> values(Card card, String paramKey, String query, Caller caller) {
        JsonNode parameter = null;
        JsonNode parameters = CardService.parse(card.parameters);
        if (parameters != null) {
            for (JsonNode p : parameters) {
                if (paramKey.equals(p.path("id").asText())) {
                    parameter = p;
                }
            }
        }
        if (parameter == null) {
            throw ApiException.badRequest("Card does not have a parameter with the ID " + paramKey + ".");
        }
        if (ParameterValues.isStaticList(parameter)) {
            return ParameterValues.staticList(parameter, query);
        }
        Long fieldId = ParameterValues.fieldOf(parameter.path("target"), CardService.parse(card.datasetQuery));
        if (fieldId == null) {
            return ParameterValues.result(new ArrayList<>(), false);
        }
        return values.ofField(fieldId, query, caller);
    }
}
