package io.quarry.notification;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.Db;
import io.quarry.card.Card;
import io.quarry.card.CardService;
import io.quarry.collection.CollectionAccess;
import io.quarry.core.Caller;
import io.quarry.core.EntityIds;
import io.quarry.core.Json;
import io.quarry.dashboard.DashboardService;
import io.quarry.user.Creators;
import io.quarry.user.User;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.web.param.Body;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.ibatis.session.SqlSession;

/**
 * Pulses — dashboard subscriptions and question alerts (Metabase's legacy model: an alert is a pulse with an
 * {@code alert_condition} and one card) — as records: validation, rights, storage and the wire views of
 * {@code /api/pulse} and {@code /api/alert}. Delivering them is {@link Delivery}'s.
 *
 * <p>Rights, as Metabase's: an administrator may do anything; the creator may read and change their pulse; a recipient
 * may read it (without the cards and the recipients when the pulse's collection is closed to them) and unsubscribe. Every
 * card of a pulse must be readable by whoever creates or changes it.
 */
public final class PulseService {
    private final Db db;
    private final CollectionAccess access;
    private final CardService cards;
    private final DashboardService dashboards;
    private final Clock clock;

    public PulseService(Db db, CollectionAccess access, CardService cards, DashboardService dashboards, Clock clock) {
        this.db = db;
        this.access = access;
        this.cards = cards;
        this.dashboards = dashboards;
        this.clock = clock;
    }

    // --- subscriptions (/api/pulse) ---------------------------------------------------------------------------------

    /** A subscription checked from a body, ready to store or to send as a test. */
    record Checked(Pulse pulse, List<PulseBodies.CardSpec> cards, List<PulseBodies.ChannelSpec> channels) {
    }

    /** Validates a {@code POST /api/pulse} (or {@code /test}) body and the caller's rights on what it names. */
    Checked checkCreate(Caller caller, JsonNode json, boolean withParameters) {
        long userId = caller.id();
        Body body = Body.of(json).storedIn("pulse");
        String name = body.nonBlank("name");
        List<PulseBodies.CardSpec> cardSpecs = PulseBodies.cards(body, true);
        List<PulseBodies.ChannelSpec> channelSpecs = PulseBodies.channels(body, true);
        Boolean skipIfEmpty = body.optBool("skip_if_empty");
        Long collectionId = body.optPosInt("collection_id");
        Long collectionPosition = body.optPosInt("collection_position");
        Long dashboardId = body.optPosInt("dashboard_id");
        JsonNode parameters = withParameters ? PulseBodies.parameters(body) : null;
        if (!withParameters) {
            body.optBool("disable_links");
        }
        body.throwIfInvalid();
        Pulse p = new Pulse();
        p.name = name;
        p.creatorId = userId;
        p.skipIfEmpty = Boolean.TRUE.equals(skipIfEmpty);
        p.collectionId = collectionId;
        p.collectionPosition = collectionPosition == null ? null : collectionPosition.intValue();
        p.dashboardId = dashboardId;
        p.parameters = parameters == null ? "[]" : parameters.toString();
        if (dashboardId != null) {
            // a subscription lives in its dashboard's collection, and needs read rights on the dashboard
            Map<String, Object> dashboard = dashboards.get(caller, dashboardId);
            p.collectionId = (Long) dashboard.get("collection_id");
            checkDashcards(dashboard, cardSpecs);
        } else if (collectionId != null) {
            access.requireWrite(caller, collectionId);
        }
        checkCards(caller, cardSpecs);
        db.run(session -> checkRecipients(session, channelSpecs));
        return new Checked(p, cardSpecs, channelSpecs);
    }

    public Map<String, Object> create(Caller caller, JsonNode json) {
        Checked checked = checkCreate(caller, json, true);
        return db.tx(session -> {
            Pulse p = checked.pulse();
            OffsetDateTime now = OffsetDateTime.now(clock);
            p.entityId = EntityIds.next();
            p.createdAt = now;
            p.updatedAt = now;
            NotificationMapper m = session.getMapper(NotificationMapper.class);
            m.insertPulse(p);
            insertCards(m, p.id, checked.cards());
            replaceChannels(m, p, checked.channels(), now);
            return pulseView(session, caller, m.findPulse(p.id));
        });
    }

    /** A subscription as a draft to send now ({@code POST /api/pulse/test}): nothing is stored. */
    public PulseDraft testDraft(Caller caller, JsonNode json) {
        Checked checked = checkCreate(caller, json, false);
        return db.tx(session -> {
            NotificationMapper m = session.getMapper(NotificationMapper.class);
            Pulse p = checked.pulse();
            p.id = 0L;
            List<PulseCard> pulseCards = new ArrayList<>();
            int position = 0;
            for (PulseBodies.CardSpec spec : checked.cards()) {
                PulseCard pc = toRow(0, position++, spec);
                Card card = cards.require(spec.id());
                pc.name = card.name;
                pc.description = card.description;
                pc.display = card.display;
                pc.collectionId = card.collectionId;
                pc.cardArchived = card.archived;
                pulseCards.add(pc);
            }
            List<PulseDraft.Target> targets = new ArrayList<>();
            for (PulseBodies.ChannelSpec spec : checked.channels()) {
                PulseChannel ch = toRow(p, spec, OffsetDateTime.now(clock));
                List<Recipient> users = spec.userIds().isEmpty() ? List.of() : m.activeUsers(spec.userIds());
                targets.add(new PulseDraft.Target(ch, users, spec.emails()));
            }
            return new PulseDraft(p, pulseCards, targets);
        });
    }

    public Map<String, Object> get(Caller caller, long id) {
        return db.tx(session -> {
            Pulse p = Checks.found(session.getMapper(NotificationMapper.class).findPulse(id));
            if (p.alert()) {
                throw ApiException.notFound();
            }
            requireRead(session, caller, p);
            return pulseView(session, caller, p);
        });
    }

    /**
     * {@code GET /api/pulse}: by default the subscriptions the caller may write (administrators: all; others: their
     * own); {@code creatorOrRecipient}: those the caller created or receives. Not archived unless asked.
     */
    public List<Map<String, Object>> list(Caller caller, boolean archived, Long dashboardId, boolean creatorOrRecipient) {
        long userId = caller.id();
        return db.tx(session -> {
            NotificationMapper m = session.getMapper(NotificationMapper.class);
            Set<Long> received = new HashSet<>(m.pulsesReceivedBy(userId));
            List<Map<String, Object>> out = new ArrayList<>();
            for (Pulse p : m.pulses(false, archived, dashboardId, null)) {
                boolean mine = p.creatorId == userId;
                boolean include = creatorOrRecipient ? mine || received.contains(p.id) : caller.superuser() || mine;
                if (include) {
                    out.add(pulseView(session, caller, p));
                }
            }
            return out;
        });
    }

    /**
     * {@code PUT /api/pulse/:id}: each given field changes ({@code name}, {@code cards}, {@code channels},
     * {@code skip_if_empty}, {@code collection_id}, {@code collection_position}, {@code parameters}, {@code archived});
     * archiving disables every channel and unarchiving enables them again.
     */
    public Map<String, Object> update(Caller caller, long id, JsonNode json) {
        caller.id();
        Body body = Body.of(json).storedIn("pulse");
        String name = body.hasValue("name") ? body.nonBlank("name") : null;
        List<PulseBodies.CardSpec> cardSpecs = PulseBodies.cards(body, false);
        List<PulseBodies.ChannelSpec> channelSpecs = PulseBodies.channels(body, false);
        Boolean skipIfEmpty = body.optBool("skip_if_empty");
        Long collectionId = body.optPosInt("collection_id");
        Long collectionPosition = body.optPosInt("collection_position");
        JsonNode parameters = PulseBodies.parameters(body);
        Boolean archived = body.optBool("archived");
        body.throwIfInvalid();
        Pulse existing = Checks.found(db.with(NotificationMapper.class, m -> m.findPulse(id)));
        if (existing.alert()) {
            throw ApiException.notFound();
        }
        requireWrite(caller, existing);
        if (cardSpecs != null) {
            if (existing.dashboardId != null) {
                checkDashcards(dashboards.get(caller, existing.dashboardId), cardSpecs);
            }
            checkCards(caller, cardSpecs);
        }
        if (body.has("collection_id") && !Objects.equals(collectionId, existing.collectionId)) {
            access.requireWrite(caller, existing.collectionId);
            access.requireWrite(caller, collectionId);
        }
        return db.tx(session -> {
            if (channelSpecs != null) {
                checkRecipients(session, channelSpecs);
            }
            NotificationMapper m = session.getMapper(NotificationMapper.class);
            Pulse p = m.findPulse(id);
            OffsetDateTime now = OffsetDateTime.now(clock);
            if (name != null) {
                p.name = name;
            }
            if (skipIfEmpty != null) {
                p.skipIfEmpty = skipIfEmpty;
            }
            if (body.has("collection_id")) {
                p.collectionId = collectionId;
            }
            if (body.has("collection_position")) {
                p.collectionPosition = collectionPosition == null ? null : collectionPosition.intValue();
            }
            if (parameters != null) {
                p.parameters = parameters.toString();
            }
            saveChanges(m, p, cardSpecs, channelSpecs, archived, now);
            return pulseView(session, caller, m.findPulse(id));
        });
    }

    /** {@code DELETE /api/pulse/:id/subscription} and {@code /api/alert/:id/subscription}: 404 unless an email recipient. */
    public void unsubscribe(Caller caller, long id, boolean alert) {
        long userId = caller.id();
        db.run(session -> {
            NotificationMapper m = session.getMapper(NotificationMapper.class);
            Pulse p = Checks.found(m.findPulse(id));
            if (p.alert() != alert) {
                throw ApiException.notFound();
            }
            int removed = 0;
            for (PulseChannel ch : m.pulseChannels(List.of(id))) {
                if (ch.channelType.equals("email")) {
                    removed += m.deleteRecipient(ch.id, userId);
                }
            }
            if (removed == 0) {
                throw ApiException.notFound();
            }
        });
    }

    // --- alerts (/api/alert) ----------------------------------------------------------------------------------------

    public Map<String, Object> createAlert(Caller caller, JsonNode json) {
        long userId = caller.id();
        Body body = Body.of(json).storedIn("pulse");
        String condition = body.enumOf("alert_condition", false, "rows", "goal");
        PulseBodies.CardSpec card = alertCard(body, true);
        List<PulseBodies.ChannelSpec> channelSpecs = PulseBodies.channels(body, true);
        Boolean firstOnly = body.bool("alert_first_only", false);
        Boolean aboveGoal = body.optBool("alert_above_goal");
        body.throwIfInvalid();
        Card row = cards.requireReadable(card.id(), caller);
        db.run(session -> checkRecipients(session, channelSpecs));
        return db.tx(session -> {
            NotificationMapper m = session.getMapper(NotificationMapper.class);
            OffsetDateTime now = OffsetDateTime.now(clock);
            Pulse p = new Pulse();
            p.entityId = EntityIds.next();
            p.creatorId = userId;
            p.alertCondition = condition;
            p.alertFirstOnly = firstOnly;
            p.alertAboveGoal = condition.equals("goal") ? aboveGoal : null;
            p.skipIfEmpty = true;
            p.createdAt = now;
            p.updatedAt = now;
            m.insertPulse(p);
            insertCards(m, p.id, List.of(card));
            replaceChannels(m, p, channelSpecs, now);
            return alertView(session, caller, m.findPulse(p.id), row);
        });
    }

    public Map<String, Object> updateAlert(Caller caller, long id, JsonNode json) {
        caller.id();
        Body body = Body.of(json).storedIn("pulse");
        String condition = body.optEnum("alert_condition", "rows", "goal");
        PulseBodies.CardSpec card = alertCard(body, false);
        List<PulseBodies.ChannelSpec> channelSpecs = PulseBodies.channels(body, false);
        Boolean firstOnly = body.optBool("alert_first_only");
        Boolean aboveGoal = body.optBool("alert_above_goal");
        Boolean archived = body.optBool("archived");
        body.throwIfInvalid();
        Pulse existing = Checks.found(db.with(NotificationMapper.class, m -> m.findPulse(id)));
        if (!existing.alert()) {
            throw ApiException.notFound();
        }
        requireWrite(caller, existing);
        if (card != null) {
            cards.requireReadable(card.id(), caller);
        }
        return db.tx(session -> {
            if (channelSpecs != null) {
                checkRecipients(session, channelSpecs);
            }
            NotificationMapper m = session.getMapper(NotificationMapper.class);
            Pulse p = m.findPulse(id);
            OffsetDateTime now = OffsetDateTime.now(clock);
            if (condition != null) {
                p.alertCondition = condition;
            }
            if (firstOnly != null) {
                p.alertFirstOnly = firstOnly;
            }
            if (body.has("alert_above_goal")) {
                p.alertAboveGoal = aboveGoal;
            }
            if (p.alertCondition.equals("rows")) {
                p.alertAboveGoal = null;
            }
            saveChanges(m, p, card == null ? null : List.of(card), channelSpecs, archived, now);
            Pulse saved = m.findPulse(id);
            return alertView(session, caller, saved, cardOf(m, saved));
        });
    }

    public Map<String, Object> getAlert(Caller caller, long id) {
        return db.tx(session -> {
            NotificationMapper m = session.getMapper(NotificationMapper.class);
            Pulse p = Checks.found(m.findPulse(id));
            if (!p.alert()) {
                throw ApiException.notFound();
            }
            requireRead(session, caller, p);
            return alertView(session, caller, p, cardOf(m, p));
        });
    }

    /**
     * {@code GET /api/alert}: administrators see every alert ({@code userId} keeps those one user created); others those
     * they created or receive ({@code userId} ignored).
     */
    public List<Map<String, Object>> listAlerts(Caller caller, boolean archived, Long userId, Long cardId) {
        long me = caller.id();
        if (cardId != null) {
            cards.requireReadable(cardId, caller);
        }
        return db.tx(session -> {
            NotificationMapper m = session.getMapper(NotificationMapper.class);
            Set<Long> received = new HashSet<>(m.pulsesReceivedBy(me));
            List<Map<String, Object>> out = new ArrayList<>();
            for (Pulse p : m.pulses(true, archived, null, cardId)) {
                boolean include = caller.superuser() ? userId == null || p.creatorId.equals(userId)
                        : p.creatorId == me || received.contains(p.id);
                if (include) {
                    out.add(alertView(session, caller, p, cardOf(m, p)));
                }
            }
            return out;
        });
    }

    // --- the form ------------------------------------------------------------------------------------------------

    /** {@code GET /api/pulse/form_input}: the channel types, their schedules and whether each is set up. */
    public Map<String, Object> formInput(boolean emailConfigured) {
        boolean http = db.with(NotificationMapper.class, m -> m.countActiveChannels(ChannelService.HTTP)) > 0;
        Map<String, Object> email = new LinkedHashMap<>();
        email.put("type", "email");
        email.put("name", "Email");
        email.put("allows_recipients", true);
        email.put("recipients", List.of("user", "email"));
        email.put("schedules", Schedules.TYPES);
        email.put("configured", emailConfigured);
        Map<String, Object> slack = new LinkedHashMap<>();
        slack.put("type", "slack");
        slack.put("name", "Slack");
        slack.put("allows_recipients", false);
        slack.put("schedules", Schedules.TYPES);
        slack.put("fields", List.of(Map.of("name", "channel", "type", "select", "displayName", "Post to", "options", List.of(),
                "required", true)));
        slack.put("configured", false);
        Map<String, Object> webhook = new LinkedHashMap<>();
        webhook.put("type", "http");
        webhook.put("name", "Webhook");
        webhook.put("allows_recipients", false);
        webhook.put("schedules", Schedules.TYPES);
        webhook.put("configured", http);
        Map<String, Object> channels = new LinkedHashMap<>();
        channels.put("email", email);
        channels.put("slack", slack);
        channels.put("http", webhook);
        return Map.of("channels", channels);
    }

    // --- delivery's reads --------------------------------------------------------------------------------------------

    /** A stored pulse with its cards and the given channels (all enabled ones when {@code channelIds} is null). */
    public PulseDraft draft(long pulseId, Set<Long> channelIds) {
        return db.tx(session -> {
            NotificationMapper m = session.getMapper(NotificationMapper.class);
            Pulse p = m.findPulse(pulseId);
            if (p == null) {
                return null;
            }
            List<PulseChannel> channels = m.pulseChannels(List.of(pulseId)).stream()
                    .filter(ch -> ch.enabled && (channelIds == null || channelIds.contains(ch.id))).toList();
            Map<Long, List<Recipient>> recipients = recipientsOf(m, channels);
            List<PulseDraft.Target> targets = new ArrayList<>();
            for (PulseChannel ch : channels) {
                targets.add(new PulseDraft.Target(ch, recipients.getOrDefault(ch.id, List.of()), emailsOf(ch)));
            }
            return new PulseDraft(p, m.pulseCards(List.of(pulseId)), targets);
        });
    }

    /** After an alert with {@code alert_first_only} was sent: it is archived, its channels disabled. */
    public void archiveSentOnce(long pulseId) {
        db.run(session -> {
            NotificationMapper m = session.getMapper(NotificationMapper.class);
            Pulse p = m.findPulse(pulseId);
            if (p != null && !p.archived) {
                applyArchived(m, p, true);
                p.updatedAt = OffsetDateTime.now(clock);
                m.updatePulse(p);
            }
        });
    }

    /** Every enabled channel of a live pulse, for the scheduler. */
    public List<PulseChannel> schedulableChannels() {
        return db.with(NotificationMapper.class, NotificationMapper::schedulableChannels);
    }

    /** Removes an outside address from a pulse's email channels; false when it was not there. */
    public boolean removeEmail(long pulseId, String email) {
        return db.tx(session -> {
            NotificationMapper m = session.getMapper(NotificationMapper.class);
            boolean removed = false;
            for (PulseChannel ch : m.pulseChannels(List.of(pulseId))) {
                if (!ch.channelType.equals("email")) {
                    continue;
                }
                List<String> emails = new ArrayList<>(emailsOf(ch));
                if (emails.remove(email)) {
                    ch.details = Json.write(Map.of("emails", emails));
                    ch.updatedAt = OffsetDateTime.now(clock);
                    m.updatePulseChannel(ch);
                    removed = true;
                }
            }
            return removed;
        });
    }

    /** Adds an outside address back to a pulse's email channel; false when it is there already. */
    public boolean addEmail(long pulseId, String email) {
        return db.tx(session -> {
            NotificationMapper m = session.getMapper(NotificationMapper.class);
            for (PulseChannel ch : m.pulseChannels(List.of(pulseId))) {
                if (!ch.channelType.equals("email")) {
                    continue;
                }
                List<String> emails = new ArrayList<>(emailsOf(ch));
                if (emails.contains(email)) {
                    return false;
                }
                emails.add(email);
                ch.details = Json.write(Map.of("emails", emails));
                ch.updatedAt = OffsetDateTime.now(clock);
                m.updatePulseChannel(ch);
                return true;
            }
            throw ApiException.notFound();
        });
    }

    /** The pulse's name (a subscription's) for the unsubscribe answer; null when there is no such pulse. */
    public String nameOf(long pulseId) {
        Pulse p = db.with(NotificationMapper.class, m -> m.findPulse(pulseId));
        return p == null ? null : p.name;
    }

    public boolean exists(long pulseId) {
        return db.with(NotificationMapper.class, m -> m.findPulse(pulseId)) != null;
    }

    // --- checks ------------------------------------------------------------------------------------------------------

    private void requireRead(SqlSession session, Caller caller, Pulse p) {
        if (caller.superuser() || p.creatorId == caller.id()) {
            return;
        }
        if (!session.getMapper(NotificationMapper.class).pulsesReceivedBy(caller.id()).contains(p.id)) {
            throw ApiException.forbidden();
        }
    }

    private static void requireWrite(Caller caller, Pulse p) {
        if (!canWrite(caller, p)) {
            throw ApiException.forbidden();
        }
    }

    private static boolean canWrite(Caller caller, Pulse p) {
        return caller.superuser() || p.creatorId == caller.id();
    }

    /** Each card exists (404) and the caller may read it (403). */
    private void checkCards(Caller caller, List<PulseBodies.CardSpec> specs) {
        for (PulseBodies.CardSpec spec : specs) {
            cards.requireReadable(spec.id(), caller);
        }
    }

    /** A subscription's dashcard ids must be dashcards of its dashboard showing the card. */
    @SuppressWarnings("unchecked")
    private static void checkDashcards(Map<String, Object> dashboard, List<PulseBodies.CardSpec> specs) {
        Map<Long, Long> cardOfDashcard = new HashMap<>();
        for (Map<String, Object> dc : (List<Map<String, Object>>) dashboard.get("dashcards")) {
            cardOfDashcard.put(((Number) dc.get("id")).longValue(), dc.get("card_id") == null ? null : ((Number) dc.get("card_id")).longValue());
        }
        for (PulseBodies.CardSpec spec : specs) {
            if (spec.dashboardCardId() != null && !Objects.equals(cardOfDashcard.get(spec.dashboardCardId()), spec.id())) {
                throw ApiException.withErrors(400, Map.of("cards", "dashboard_card_id " + spec.dashboardCardId()
                        + " is not a card of dashboard " + dashboard.get("id") + " showing card " + spec.id() + "."), null);
            }
        }
    }

    /** Users named as recipients must be active users; http channels must name an active channel. */
    /** The tail both updates share: the given cards and channels replace the stored ones, then archiving and the record. */
    private static void saveChanges(NotificationMapper m, Pulse p, List<PulseBodies.CardSpec> cardSpecs,
                             List<PulseBodies.ChannelSpec> channelSpecs, Boolean archived, OffsetDateTime now) {
        if (cardSpecs != null) {
            m.deletePulseCards(p.id);
            insertCards(m, p.id, cardSpecs);
        }
        if (channelSpecs != null) {
            replaceChannels(m, p, channelSpecs, now);
        }
        applyArchived(m, p, archived);
        p.updatedAt = now;
        m.updatePulse(p);
    }

    private static void checkRecipients(SqlSession session, List<PulseBodies.ChannelSpec> specs) {
        NotificationMapper m = session.getMapper(NotificationMapper.class);
        for (PulseBodies.ChannelSpec spec : specs) {
            if (!spec.userIds().isEmpty()) {
                Set<Long> found = new HashSet<>();
                m.activeUsers(spec.userIds()).forEach(r -> found.add(r.userId));
                for (Long id : spec.userIds()) {
                    if (!found.contains(id)) {
                        throw ApiException.withErrors(400, Map.of("channels", "recipient " + id + " is not an active user."), null);
                    }
                }
            }
            if (spec.channelId() != null) {
                Channel c = m.findChannel(spec.channelId());
                if (c == null || !c.active) {
                    throw ApiException.withErrors(400, Map.of("channels", "channel_id " + spec.channelId() + " is not an active channel."),
                            null);
                }
            }
        }
    }

    private static PulseBodies.CardSpec alertCard(Body body, boolean required) {
        JsonNode value = body.get("card", Body.Kind.MAP);
        if (value.isNull() || value.isMissingNode()) {
            if (required) {
                body.addError("card", PulseBodies.CARD_RULE, "missing required key, received: nil");
            }
            return null;
        }
        return PulseBodies.card(body, "card", value);
    }

    // --- writes ------------------------------------------------------------------------------------------------------

    private static void insertCards(NotificationMapper m, long pulseId, List<PulseBodies.CardSpec> specs) {
        int position = 0;
        for (PulseBodies.CardSpec spec : specs) {
            m.insertPulseCard(toRow(pulseId, position++, spec));
        }
    }

    private static PulseCard toRow(long pulseId, int position, PulseBodies.CardSpec spec) {
        PulseCard pc = new PulseCard();
        pc.pulseId = pulseId;
        pc.cardId = spec.id();
        pc.position = position;
        pc.includeCsv = spec.includeCsv();
        pc.includeXls = spec.includeXls();
        pc.formatRows = spec.formatRows();
        pc.pivotResults = spec.pivotResults();
        pc.dashboardCardId = spec.dashboardCardId();
        return pc;
    }

    private static PulseChannel toRow(Pulse p, PulseBodies.ChannelSpec spec, OffsetDateTime now) {
        PulseChannel ch = new PulseChannel();
        ch.entityId = EntityIds.next();
        ch.pulseId = p.id;
        ch.channelType = spec.type();
        ch.channelId = spec.channelId();
        ch.enabled = spec.enabled() && !p.archived;
        ch.scheduleType = spec.schedule().type();
        ch.scheduleHour = spec.schedule().hour();
        ch.scheduleDay = spec.schedule().day();
        ch.scheduleFrame = spec.schedule().frame();
        ch.details = Json.write(spec.type().equals("email") ? Map.of("emails", spec.emails()) : spec.details());
        ch.createdAt = now;
        ch.updatedAt = now;
        return ch;
    }

    /**
     * Makes the pulse's channels those of the body, as Metabase does: an entry updates the existing channel of its
     * type (and, for http, of its channel), the others are created, existing ones not named are deleted. A pulse left
     * with no channel is archived.
     */
    private static void replaceChannels(NotificationMapper m, Pulse p, List<PulseBodies.ChannelSpec> specs, OffsetDateTime now) {
        List<PulseChannel> existing = p.id == null ? List.of() : new ArrayList<>(m.pulseChannels(List.of(p.id)));
        for (PulseBodies.ChannelSpec spec : specs) {
            PulseChannel row = toRow(p, spec, now);
            PulseChannel match = existing.stream().filter(e -> e.channelType.equals(spec.type())
                    && Objects.equals(e.channelId, spec.channelId())).findFirst().orElse(null);
            if (match != null) {
                existing.remove(match);
                row.id = match.id;
                m.updatePulseChannel(row);
            } else {
                m.insertPulseChannel(row);
            }
            Set<Long> current = new HashSet<>();
            m.recipients(List.of(row.id)).forEach(r -> current.add(r.userId));
            for (Long userId : spec.userIds()) {
                if (!current.remove(userId)) {
                    m.insertRecipient(row.id, userId);
                }
            }
            for (Long gone : current) {
                m.deleteRecipient(row.id, gone);
            }
        }
        for (PulseChannel gone : existing) {
            m.deletePulseChannel(gone.id);
        }
    }

    private static void applyArchived(NotificationMapper m, Pulse p, Boolean archived) {
        if (archived != null && archived != p.archived) {
            p.archived = archived;
            m.setChannelsEnabled(p.id, !archived);
        }
    }

    // --- views -------------------------------------------------------------------------------------------------------

    private static Map<Long, List<Recipient>> recipientsOf(NotificationMapper m, List<PulseChannel> channels) {
        Map<Long, List<Recipient>> byChannel = new HashMap<>();
        if (channels.isEmpty()) {
            return byChannel;
        }
        for (Recipient r : m.recipients(channels.stream().map(ch -> ch.id).toList())) {
            byChannel.computeIfAbsent(r.pulseChannelId, k -> new ArrayList<>()).add(r);
        }
        return byChannel;
    }

    static List<String> emailsOf(PulseChannel ch) {
        try {
            JsonNode emails = Json.read(ch.details).path("emails");
            List<String> out = new ArrayList<>();
            emails.forEach(e -> out.add(e.asText()));
            return out;
        } catch (Exception e) {
            return List.of();
        }
    }

    private Map<String, Object> pulseView(SqlSession session, Caller caller, Pulse p) {
        NotificationMapper m = session.getMapper(NotificationMapper.class);
        // a recipient who may not read the pulse's collection sees neither the cards nor the other recipients
        boolean full = caller.superuser() || access.canRead(caller, p.collectionId);
        CollectionAccess.Visible visible = access.visible(caller);
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", p.id);
        v.put("name", p.name);
        v.put("entity_id", p.entityId);
        v.put("creator_id", p.creatorId);
        v.put("creator", Creators.of(session, p.creatorId, new HashMap<Long, User>()));
        v.put("created_at", p.createdAt);
        v.put("updated_at", p.updatedAt);
        v.put("archived", p.archived);
        v.put("collection_id", p.collectionId);
        v.put("collection_position", p.collectionPosition);
        v.put("dashboard_id", p.dashboardId);
        v.put("skip_if_empty", p.skipIfEmpty);
        v.put("parameters", parse(p.parameters));
        if (full) {
            List<Map<String, Object>> cardViews = new ArrayList<>();
            for (PulseCard pc : m.pulseCards(List.of(p.id))) {
                Map<String, Object> c = cardView(pc, p);
                c.put("id", pc.cardId);
                c.put("download_perms", visible.canRead(pc.collectionId) ? "full" : "none");
                cardViews.add(c);
            }
            v.put("cards", cardViews);
        }
        v.put("channels", channelViews(m, p, full));
        v.put("can_write", canWrite(caller, p));
        return v;
    }

    private static Map<String, Object> cardView(PulseCard pc, Pulse p) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("name", pc.name);
        c.put("description", pc.description);
        c.put("collection_id", pc.collectionId);
        c.put("display", pc.display);
        c.put("include_csv", pc.includeCsv);
        c.put("include_xls", pc.includeXls);
        c.put("format_rows", pc.formatRows);
        c.put("pivot_results", pc.pivotResults);
        c.put("dashboard_card_id", pc.dashboardCardId);
        c.put("dashboard_id", p.dashboardId);
        c.put("parameter_mappings", null);
        return c;
    }

    private static List<Map<String, Object>> channelViews(NotificationMapper m, Pulse p, boolean withRecipients) {
        List<PulseChannel> channels = m.pulseChannels(List.of(p.id));
        Map<Long, List<Recipient>> recipients = recipientsOf(m, channels);
        List<Map<String, Object>> out = new ArrayList<>();
        for (PulseChannel ch : channels) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("id", ch.id);
            c.put("pulse_id", ch.pulseId);
            c.put("channel_type", ch.channelType);
            c.put("channel_id", ch.channelId);
            c.put("enabled", ch.enabled);
            c.put("schedule_type", ch.scheduleType);
            c.put("schedule_hour", ch.scheduleHour);
            c.put("schedule_day", ch.scheduleDay);
            c.put("schedule_frame", ch.scheduleFrame);
            Map<String, Object> details = new LinkedHashMap<>(parseMap(ch.details));
            details.remove("emails");
            c.put("details", details);
            if (withRecipients) {
                List<Map<String, Object>> rs = new ArrayList<>();
                for (Recipient r : recipients.getOrDefault(ch.id, List.of())) {
                    Map<String, Object> rv = new LinkedHashMap<>();
                    rv.put("id", r.userId);
                    rv.put("email", r.email);
                    rv.put("first_name", r.firstName);
                    rv.put("last_name", r.lastName);
                    rv.put("common_name", io.quarry.core.UserSummary.commonName(r.firstName, r.lastName, r.email));
                    rs.add(rv);
                }
                for (String email : emailsOf(ch)) {
                    rs.add(Map.of("email", email));
                }
                c.put("recipients", rs);
            }
            c.put("entity_id", ch.entityId);
            c.put("created_at", ch.createdAt);
            c.put("updated_at", ch.updatedAt);
            out.add(c);
        }
        return out;
    }

    private static PulseCard cardOf(NotificationMapper m, Pulse p) {
        List<PulseCard> pcs = m.pulseCards(List.of(p.id));
        return pcs.isEmpty() ? null : pcs.get(0);
    }

    private Map<String, Object> alertView(SqlSession session, Caller caller, Pulse p, Object card) {
        NotificationMapper m = session.getMapper(NotificationMapper.class);
        PulseCard pc = card instanceof PulseCard c ? c : cardOf(m, p);
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", p.id);
        v.put("creator_id", p.creatorId);
        v.put("creator", Creators.of(session, p.creatorId, new HashMap<Long, User>()));
        v.put("created_at", p.createdAt);
        v.put("updated_at", p.updatedAt);
        v.put("name", null);
        v.put("alert_condition", p.alertCondition);
        v.put("alert_above_goal", p.alertAboveGoal);
        v.put("alert_first_only", Boolean.TRUE.equals(p.alertFirstOnly));
        v.put("archived", p.archived);
        v.put("collection_id", p.collectionId);
        v.put("collection_position", p.collectionPosition);
        v.put("skip_if_empty", true);
        v.put("parameters", List.of());
        v.put("dashboard_id", null);
        if (pc != null) {
            Map<String, Object> c = cardView(pc, p);
            // the spec's alerts name their card; v0.63's legacy view has no id, which clients ignore
            c.put("id", pc.cardId);
            v.put("card", c);
        } else {
            v.put("card", null);
        }
        List<Map<String, Object>> channels = channelViews(m, p, true);
        for (Map<String, Object> ch : channels) {
            List<String> emails = new ArrayList<>();
            for (Object r : (List<?>) ch.get("recipients")) {
                if (r instanceof Map<?, ?> rm && rm.get("id") == null) {
                    emails.add((String) rm.get("email"));
                }
            }
            if (ch.get("channel_type").equals("email")) {
                ch.put("details", Map.of("emails", emails));
            }
        }
        v.put("channels", channels);
        v.put("can_write", canWrite(caller, p));
        return v;
    }

    private static Object parse(String json) {
        try {
            return json == null ? List.of() : Json.MAPPER.readValue(json, Object.class);
        } catch (Exception e) {
            return List.of();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> parseMap(String json) {
        Object parsed = parse(json);
        return parsed instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }
}
