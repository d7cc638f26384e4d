package io.quarry.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.Db;
import io.quarry.collection.CollectionAccess;
import io.quarry.parameters.ParameterValues;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.core.Caller;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The possible values of a dashboard filter, as Metabase's {@code GET /api/dashboard/:id/params/:key/values}:
 * a static list answers its values; a {@code card} source the distinct values of that card's column (falling back to
 * the mapped fields when the card is archived or lacks the column); otherwise the union of the values of every field
 * the parameter is mapped to through the dashcards' {@code parameter_mappings} (field targets and field-filter
 * template tags). Mappings to a column by name (nested queries) use that card's column values.
 *
 * <p>Linked filters: Metabase narrows the values by the other filters' values given as query parameters
 * ({@code ?other-param-id=value}); Quarry ignores those constraints and always answers the unconstrained values.
 *
 * <p>Built once by {@link DashboardModule}.
 */
public final class DashboardParamValues {
    private final Db db;
    private final CollectionAccess access;
    private final ParameterValues values;

    DashboardParamValues(Db db, CollectionAccess access, ParameterValues values) {
        this.db = db;
        this.access = access;
        this.values = values;
    }

    /** What the app DB says about one filter: the parameter, the mapped field ids and the by-name mappings. */
    private record Plan(JsonNode parameter, CardRow sourceCard, Set<Long> fieldIds, List<RefMapping> refs) {
    }

    private record RefMapping(CardRow card, JsonNode ref) {
    }

    Map<String, Object> values(Caller caller, long dashboardId, String paramKey, String query) {
        Plan plan = plan(caller, dashboardId, paramKey);
        JsonNode parameter = plan.parameter();
        if (ParameterValues.isStaticList(parameter)) {
            return ParameterValues.staticList(parameter, query);
        }
        if (ParameterValues.isCardSource(parameter) && plan.sourceCard() != null && !plan.sourceCard().archived) {
            CardRow card = plan.sourceCard();
            Map<String, Object> fromCard = values.ofCardColumn(card.id, card.databaseId,
                    parameter.path("values_source_config").path("value_field"), query, caller);
            if (fromCard != null) {
                return fromCard;
            }
        }
        if (!plan.fieldIds().isEmpty()) {
            return values.ofFields(plan.fieldIds(), query, caller);
        }
        List<Map<String, Object>> results = new ArrayList<>();
        for (RefMapping mapping : plan.refs()) {
            Checks.permitted(access.canRead(caller, mapping.card().collectionId));
            Map<String, Object> r = values.ofCardColumn(mapping.card().id, mapping.card().databaseId, mapping.ref(), query, caller);
            if (r != null) {
                results.add(r);
            }
        }
        if (!results.isEmpty()) {
            return ParameterValues.union(results);
        }
        throw ApiException.badRequest("Parameter \"" + paramKey + "\" does not have any Fields associated with it");
    }

    private Plan plan(Caller caller, long dashboardId, String paramKey) {
        return db.tx(session -> {
            DashboardMapper m = session.getMapper(DashboardMapper.class);
            Dashboard d = Checks.found(m.findDashboard(dashboardId));
            Checks.permitted(access.canRead(caller, d.collectionId));
            JsonNode parameter = null;
            JsonNode declared = DashboardService.parse(d.parameters);
            if (declared != null) {
                for (JsonNode p : declared) {
                    if (paramKey.equals(p.path("id").asText())) {
                        parameter = p;
                    }
                }
            }
            if (parameter == null) {
                throw ApiException.badRequest("Dashboard does not have a parameter with the ID \"" + paramKey + "\"");
            }
            CardRow sourceCard = null;
            if (ParameterValues.isCardSource(parameter)) {
                JsonNode cardId = parameter.path("values_source_config").path("card_id");
                sourceCard = cardId.canConvertToLong() ? m.findCard(cardId.asLong()) : null;
                if (sourceCard != null) {
                    Checks.permitted(access.canRead(caller, sourceCard.collectionId));
                }
            }
            record Mapped(Long cardId, JsonNode target) {
            }
            List<Mapped> mapped = new ArrayList<>();
            for (Dashcard dc : m.dashcardsOf(dashboardId)) {
                JsonNode mappings = DashboardService.parse(dc.parameterMappings);
                if (mappings == null) {
                    continue;
                }
                for (JsonNode mapping : mappings) {
                    if (!paramKey.equals(mapping.path("parameter_id").asText())) {
                        continue;
                    }
                    Long cardId = mapping.hasNonNull("card_id") ? Long.valueOf(mapping.path("card_id").asLong()) : dc.cardId;
                    if (cardId != null) {
                        mapped.add(new Mapped(cardId, mapping.path("target")));
                    }
                }
            }
            Map<Long, CardRow> cards = DashboardService.cardsById(m, mapped.stream().map(Mapped::cardId).toList());
            Set<Long> fieldIds = new LinkedHashSet<>();
            List<RefMapping> refs = new ArrayList<>();
            for (Mapped each : mapped) {
                CardRow card = cards.get(each.cardId());
                if (card == null) {
                    continue;
                }
                JsonNode target = each.target();
                Long fieldId = ParameterValues.fieldOf(target, DashboardService.parse(card.datasetQuery));
                if (fieldId != null) {
                    fieldIds.add(fieldId);
                } else if (ParameterValues.fieldRefByName(target) != null) {
                    refs.add(new RefMapping(card, ParameterValues.fieldRefByName(target)));
                }
            }
            return new Plan(parameter, sourceCard, fieldIds, refs);
        });
    }
}
