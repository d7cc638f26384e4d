package io.quarry.notification;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Json;
import io.quarry.web.param.Body;
import io.quarry.web.param.Validation;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the {@code cards}, {@code channels} and {@code parameters} of pulse and alert bodies with Metabase's messages.
 * Every problem is recorded on the body (one 400 naming each bad field); nothing here touches the database.
 */
final class PulseBodies {
    static final String CARD_RULE = "value must be a map with the keys `id`, `include_csv`, `include_xls`, and `dashboard_card_id`.";
    static final String CHANNELS_RULE = "value must be a non-empty sequence of channel maps.";
    static final String PARAMETERS_RULE = ":parameters must be a sequence of maps with String :id keys";
    static final List<String> CHANNEL_TYPES = List.of("email", "slack", "http");

    private PulseBodies() {
    }

    /** A card entry of a body. */
    record CardSpec(long id, boolean includeCsv, boolean includeXls, boolean formatRows, boolean pivotResults, Long dashboardCardId) {
    }

    /** A channel entry of a body: its schedule, and for email the users and outside addresses it goes to. */
    record ChannelSpec(Long id, String type, boolean enabled, Schedules.Schedule schedule, Long channelId, Set<Long> userIds,
                       List<String> emails, Map<String, Object> details) {
    }

    /** A card entry: {@code id}, {@code include_csv}, {@code include_xls} required; the rest optional. */
    static CardSpec card(Body errors, String key, JsonNode entry) {
        if (entry == null || !entry.isObject() || !entry.path("id").canConvertToExactIntegral() || entry.path("id").asLong() <= 0
                || !entry.path("include_csv").isBoolean() || !entry.path("include_xls").isBoolean()
                || !(entry.path("dashboard_card_id").isMissingNode() || entry.path("dashboard_card_id").isNull()
                || entry.path("dashboard_card_id").canConvertToExactIntegral())
                || !optionalBoolean(entry, "format_rows") || !optionalBoolean(entry, "pivot_results")) {
            errors.addError(key, CARD_RULE, "invalid card, received: " + entry);
            return null;
        }
        JsonNode dashcard = entry.path("dashboard_card_id");
        return new CardSpec(entry.get("id").asLong(), entry.get("include_csv").asBoolean(), entry.get("include_xls").asBoolean(),
                !entry.path("format_rows").isBoolean() || entry.get("format_rows").asBoolean(),
                entry.path("pivot_results").asBoolean(false), dashcard.canConvertToExactIntegral() ? dashcard.asLong() : null);
    }

    private static boolean optionalBoolean(JsonNode entry, String field) {
        JsonNode value = entry.path(field);
        return value.isMissingNode() || value.isNull() || value.isBoolean();
    }

    /** {@code cards}: a non-empty array of card entries; null when absent and {@code required} is false. */
    static List<CardSpec> cards(Body body, boolean required) {
        JsonNode value = body.get("cards", Body.Kind.OBJECTS);
        if (value.isNull() || value.isMissingNode()) {
            if (required) {
                body.addError("cards", CARD_RULE, "missing required key, received: nil");
            }
            return null;
        }
        if (!value.isArray() || value.isEmpty()) {
            body.addError("cards", CARD_RULE, "should be a non-empty sequence of cards, received: " + value);
            return null;
        }
        List<CardSpec> cards = new ArrayList<>();
        for (JsonNode entry : value) {
            CardSpec card = card(body, "cards", entry);
            if (card == null) {
                return null;
            }
            cards.add(card);
        }
        return cards;
    }

    /** {@code channels}: a non-empty array of channel entries, each checked (type, schedule, recipients, details). */
    static List<ChannelSpec> channels(Body body, boolean required) {
        JsonNode value = body.get("channels", Body.Kind.OBJECTS);
        if (value.isNull() || value.isMissingNode()) {
            if (required) {
                body.addError("channels", CHANNELS_RULE, "missing required key, received: nil");
            }
            return null;
        }
        if (!value.isArray() || value.isEmpty()) {
            body.addError("channels", CHANNELS_RULE, "should be a non-empty sequence of maps, received: " + value);
            return null;
        }
        List<ChannelSpec> channels = new ArrayList<>();
        for (JsonNode entry : value) {
            if (!entry.isObject()) {
                body.addError("channels", CHANNELS_RULE, "invalid channel, received: " + entry);
                return null;
            }
            ChannelSpec channel = channel(body, Body.of(entry));
            if (channel == null) {
                return null;
            }
            channels.add(channel);
        }
        return channels;
    }

    private static ChannelSpec channel(Body errors, Body entry) {
        JsonNode type = entry.get("channel_type");
        if (!type.isTextual() || !CHANNEL_TYPES.contains(type.asText())) {
            errors.addError("channels", "channel_type must be one of email, slack, http.",
                    "channel_type: should be either \"email\" or \"slack\" or \"http\", received: " + type);
            return null;
        }
        JsonNode enabled = entry.get("enabled");
        if (!(enabled.isNull() || enabled.isBoolean())) {
            errors.addError("channels", "enabled must be a boolean.", "enabled: should be a boolean, received: " + enabled);
            return null;
        }
        Schedules.Schedule schedule = Schedules.read(entry, errors, "channels");
        if (schedule == null) {
            return null;
        }
        JsonNode id = entry.get("id");
        Long channelRowId = id.canConvertToExactIntegral() && id.asLong() > 0 ? id.asLong() : null;
        JsonNode details = entry.get("details");
        if (!(details.isNull() || details.isObject())) {
            errors.addError("channels", "details must be a map.", "details: should be a map, received: " + details);
            return null;
        }
        Map<String, Object> detailsMap = details.isObject() ? Json.MAPPER.convertValue(details, Map.class) : Map.of();
        Set<Long> userIds = new LinkedHashSet<>();
        List<String> emails = new ArrayList<>();
        JsonNode recipients = entry.get("recipients");
        Long channelId = null;
        switch (type.asText()) {
            case "email" -> {
                if (!(recipients.isNull() || recipients.isArray())) {
                    errors.addError("channels", "recipients must be a sequence of {id} or {email} maps.",
                            "recipients: should be a sequence, received: " + recipients);
                    return null;
                }
                for (JsonNode r : recipients) {
                    if (r.path("id").canConvertToExactIntegral() && r.path("id").asLong() > 0) {
                        userIds.add(r.get("id").asLong());
                    } else if (r.path("email").isTextual() && Validation.isEmail(r.get("email").asText())) {
                        String email = r.get("email").asText();
                        if (!emails.contains(email)) {
                            emails.add(email);
                        }
                    } else {
                        errors.addError("channels", "recipients must be a sequence of {id} or {email} maps.",
                                "recipients: each should be a user id or a valid email address, received: " + r);
                        return null;
                    }
                }
                detailsMap = Map.of();
            }
            case "slack" -> {
                if (recipients.isArray() && !recipients.isEmpty()) {
                    errors.addError("channels", "slack channels take no recipients.", "recipients: should be empty for slack, received: "
                            + recipients);
                    return null;
                }
                if (!details.path("channel").isTextual() || details.path("channel").asText().isBlank()) {
                    errors.addError("channels", "slack channels need details.channel.", "details.channel: missing, received: " + details);
                    return null;
                }
                detailsMap = Map.of("channel", details.get("channel").asText());
            }
            default -> {
                JsonNode ref = entry.get("channel_id");
                if (!ref.canConvertToExactIntegral() || ref.asLong() <= 0) {
                    errors.addError("channels", "http channels need channel_id, the id of an active channel.",
                            "channel_id: should be a positive integer, received: " + ref);
                    return null;
                }
                if (recipients.isArray() && !recipients.isEmpty()) {
                    errors.addError("channels", "http channels take no recipients.", "recipients: should be empty for http, received: "
                            + recipients);
                    return null;
                }
                channelId = ref.asLong();
                detailsMap = Map.of();
            }
        }
        return new ChannelSpec(channelRowId, type.asText(), !enabled.isBoolean() || enabled.asBoolean(), schedule, channelId, userIds,
                emails, detailsMap);
    }

    /** {@code parameters}: a list of maps, each with a string {@code id}; null when absent. */
    static JsonNode parameters(Body body) {
        JsonNode value = body.get("parameters", Body.Kind.OBJECTS);
        if (value.isNull() || value.isMissingNode()) {
            return null;
        }
        boolean ok = value.isArray();
        if (ok) {
            for (JsonNode p : value) {
                ok &= p.isObject() && p.path("id").isTextual();
            }
        }
        if (!ok) {
            body.addError("parameters", PARAMETERS_RULE, "invalid parameters, received: " + value);
            return null;
        }
        return value;
    }
}
