package io.quarry.notification;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarry.card.Card;
import io.quarry.card.CardService;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.dashboard.DashboardService;
import io.quarry.mail.Mailer;
import io.quarry.qp.export.ExportFormat;
import io.quarry.qp.export.ExportRequest;
import io.quarry.qp.run.QueryOutcome;
import io.quarry.qp.run.QueryRequest;
import io.quarry.qp.run.QueryRunner;
import io.quarry.render.CardRenderer;
import io.quarry.render.RenderOptions;
import io.quarry.render.RenderedCard;
import io.quarry.render.Tabular;
import io.quarry.setting.Settings;
import io.quarry.user.User;
import io.quarry.user.UserService;
import jakarta.mail.MessagingException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a subscription or an alert: runs each card through the {@link QueryRunner} as the pulse's creator
 * ({@code SUBSCRIPTION} context, with the subscription's dashboard filters), decides whether to send ({@code skip_if_empty},
 * the alert's condition), renders the cards with the {@link CardRenderer}, and delivers to each channel — email through
 * the {@link Mailer} (users in one bcc message, each outside address alone with its unsubscribe link, CSV/XLSX
 * attachments), webhooks through {@link Webhooks}. Each channel's send is tried a bounded number of times and recorded
 * in the {@link SendHistory}, success or failure.
 */
public final class Delivery {
    private static final Logger log = LoggerFactory.getLogger(Delivery.class);
    static final int ATTEMPTS = 3;
    private static final DateTimeFormatter SENT_AT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'");

    private final PulseService pulses;
    private final ChannelService channels;
    private final CardService cards;
    private final DashboardService dashboards;
    private final UserService users;
    private final QueryRunner runner;
    private final CardRenderer renderer;
    private final Mailer mailer;
    private final Webhooks webhooks;
    private final SendHistory history;
    private final Settings settings;
    private final Clock clock;
    private final Duration backoff;
    private final MeterRegistry meters;

    /**
     * {@code meters}: sends are counted under Metabase's names — {@code metabase_notification_send_ok_total} and
     * {@code send_error_total} by {@code payload_type} ({@code notification/dashboard} for a subscription,
     * {@code notification/card} for an alert), their durations in {@code metabase_notification_send_duration_ms}, and each
     * channel's in {@code metabase_notification_channel_send_ok_total} / {@code channel_send_error_total} by payload and
     * {@code channel_type} ({@code channel/email}, {@code channel/http}).
     */
    public Delivery(PulseService pulses, ChannelService channels, CardService cards, DashboardService dashboards, UserService users,
                    QueryRunner runner, CardRenderer renderer, Mailer mailer, Webhooks webhooks, SendHistory history, Settings settings,
                    Clock clock, Duration backoff, MeterRegistry meters) {
        this.meters = meters;
        this.pulses = pulses;
        this.channels = channels;
        this.cards = cards;
        this.dashboards = dashboards;
        this.users = users;
        this.runner = runner;
        this.renderer = renderer;
        this.mailer = mailer;
        this.webhooks = webhooks;
        this.history = history;
        this.settings = settings;
        this.clock = clock;
        this.backoff = backoff;
    }

    public boolean emailConfigured() {
        return mailer.configured();
    }

    /** {@code POST /api/pulse/test}: sends now; a failure is the caller's answer (400), and nothing is recorded. */
    public void sendTest(PulseDraft draft) {
        Outcome outcome = send(draft, false);
        if (!outcome.failures().isEmpty()) {
            throw io.quarry.web.error.ApiException.badRequest(outcome.failures().get(0));
        }
    }

    /** A scheduled send of the given channels of a stored pulse (all enabled ones when null); recorded. */
    public void sendScheduled(long pulseId, Set<Long> channelIds) {
        PulseDraft draft = pulses.draft(pulseId, channelIds);
        if (draft == null || draft.pulse().archived || draft.targets().isEmpty()) {
            return;
        }
        send(draft, true);
    }

    /** What a send came to: whether anything was sent, and the failures (one per channel that failed every attempt). */
    record Outcome(boolean sent, List<String> failures) {
    }

    /** A card with its result: the rows for rendering and webhooks, or the failure message. */
    record CardResult(PulseCard pulseCard, JsonNode cardJson, Tabular data, String error, JsonNode query, Card card) {
        boolean empty() {
            return data == null || data.rowCount() == 0;
        }
    }

    /** Metabase's send-duration buckets, in milliseconds: 1 ms to 10 minutes. */
    private static final double[] SEND_DURATION_BUCKETS = {1, 10, 50, 100, 500, 1000, 5000, 10000, 30000, 60000, 120000, 300000,
            600000};

    Outcome send(PulseDraft draft, boolean record) {
        long began = System.nanoTime();
        Outcome outcome = sendMeasured(draft, record);
        String payload = payloadType(draft.pulse());
        if (outcome.sent() || !outcome.failures().isEmpty()) {
            Counter.builder(outcome.failures().isEmpty() ? "metabase.notification.send.ok" : "metabase.notification.send.error")
                    .description(outcome.failures().isEmpty() ? "Number of successful notification sends."
                            : "Number of errors when sending notifications.")
                    .tag("payload_type", payload).register(meters).increment();
            DistributionSummary.builder("metabase.notification.send.duration.ms")
                    .description("Duration of notification sends in milliseconds.").tag("payload_type", payload)
                    .serviceLevelObjectives(SEND_DURATION_BUCKETS).register(meters)
                    .record((System.nanoTime() - began) / 1e6);
        }
        return outcome;
    }

    private static String payloadType(Pulse p) {
        return p.alert() ? "notification/card" : "notification/dashboard";
    }

    private Outcome sendMeasured(PulseDraft draft, boolean record) {
        Pulse p = draft.pulse();
        User creator = users.find(p.creatorId);
        if (creator == null || !creator.isActive) {
            return new Outcome(false, List.of("The creator of this pulse is no longer active."));
        }
        Caller as = new Caller(creator.id, creator.isSuperuser, null, false, null);
        Map<String, Object> dashboard = p.dashboardId == null ? null : dashboard(as, p.dashboardId);
        JsonNode parameters = parameters(p, dashboard);
        List<CardResult> results = new ArrayList<>();
        for (PulseCard pc : draft.cards()) {
            // an archived card is left out, as Metabase does (an alert on one sends nothing)
            if (!pc.cardArchived) {
                results.add(run(as, p, pc, parameters));
            }
        }
        if (!shouldSend(p, results)) {
            return new Outcome(false, List.of());
        }
        String dashboardName = dashboard == null ? null : (String) dashboard.get("name");
        List<String> failures = new ArrayList<>();
        boolean sent = false;
        for (PulseDraft.Target target : draft.targets()) {
            String failure = deliver(draft, target, as, results, dashboardName, record);
            if (failure == null) {
                sent = true;
            } else {
                failures.add(failure);
            }
        }
        if (sent && record && p.alert() && Boolean.TRUE.equals(p.alertFirstOnly)) {
            pulses.archiveSentOnce(p.id);
        }
        return new Outcome(sent, failures);
    }

    /** Alerts send on their condition; a subscription with {@code skip_if_empty} only when some card has rows. */
    private static boolean shouldSend(Pulse p, List<CardResult> results) {
        if (p.alert()) {
            CardResult only = results.isEmpty() ? null : results.get(0);
            if (only == null || only.empty()) {
                return false;
            }
            if (p.alertCondition.equals("rows")) {
                return true;
            }
            return Goals.met(only.cardJson(), only.data(), Boolean.TRUE.equals(p.alertAboveGoal));
        }
        return !p.skipIfEmpty || results.stream().anyMatch(r -> !r.empty());
    }

    private Map<String, Object> dashboard(Caller as, long dashboardId) {
        try {
            return dashboards.get(as, dashboardId);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The filter values the cards run with, as Metabase's: the subscription's own values of the dashboard's filters,
     * else each filter's default; values of filters the dashboard no longer has are dropped.
     */
    static JsonNode parameters(Pulse p, Map<String, Object> dashboard) {
        com.fasterxml.jackson.databind.node.ArrayNode out = Json.MAPPER.createArrayNode();
        if (dashboard == null) {
            return out;
        }
        Map<String, JsonNode> own = new LinkedHashMap<>();
        try {
            for (JsonNode given : Json.read(p.parameters)) {
                own.put(given.path("id").asText(), given);
            }
        } catch (IOException | RuntimeException e) {
            log.info("Pulse {} has unreadable parameters; its dashboard's defaults apply", p.id);
        }
        for (JsonNode declared : Json.MAPPER.valueToTree(dashboard.getOrDefault("parameters", List.of()))) {
            String id = declared.path("id").asText();
            JsonNode given = own.get(id);
            if (given != null && given.has("value") && !given.get("value").isNull()) {
                out.add(given);
            } else if (declared.hasNonNull("default")) {
                ObjectNode fallback = Json.object();
                fallback.put("id", id);
                fallback.set("type", declared.path("type"));
                fallback.set("value", declared.get("default"));
                out.add(fallback);
            }
        }
        return out;
    }

    /** Runs one card as the creator: the dashboard's filters mapped through its dashcard, or the card's own query. */
    private CardResult run(Caller as, Pulse p, PulseCard pc, JsonNode parameters) {
        try {
            Card card;
            JsonNode query;
            if (p.dashboardId != null && pc.dashboardCardId != null) {
                DashboardService.CardRun cardRun = dashboards.cardRun(as, p.dashboardId, pc.dashboardCardId, pc.cardId, parameters);
                card = cards.requireReadable(pc.cardId, as);
                query = cardRun.request();
            } else {
                card = cards.requireReadable(pc.cardId, as);
                query = Json.read(card.datasetQuery);
            }
            JsonNode cardJson = Json.MAPPER.valueToTree(cards.fullView(card, as));
            QueryOutcome outcome = runner.run(QueryRequest.subscription(as, new QueryRequest.SavedCard(card.id, card.databaseId), query, null));
            JsonNode result = Json.MAPPER.readTree(bytes(outcome));
            if (!"completed".equals(result.path("status").asText())) {
                return new CardResult(pc, cardJson, null, result.path("error").asText("The query failed."), query, card);
            }
            return new CardResult(pc, cardJson, Tabular.fromResultData(result.path("data")), null, query, card);
        } catch (RuntimeException | IOException e) {
            log.info("Card {} of pulse {} did not run: {}", pc.cardId, p.id, e.getMessage());
            return new CardResult(pc, Json.MAPPER.valueToTree(Map.of("id", pc.cardId, "name", String.valueOf(pc.name),
                    "display", String.valueOf(pc.display))), null, e.getMessage(), null, null);
        }
    }

    private static byte[] bytes(QueryOutcome outcome) throws IOException {
        if (outcome instanceof QueryOutcome.Failed failed) {
            return Json.write(failed.body()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ((QueryOutcome.Streamed) outcome).body().writeTo(out);
        } catch (QueryOutcome.FailedBeforeOutput e) {
            return Json.write(e.failed().body()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        return out.toByteArray();
    }

    /** One channel, tried up to {@link #ATTEMPTS} times with growing pauses; null on success, else the last error. */
    private String deliver(PulseDraft draft, PulseDraft.Target target, Caller as, List<CardResult> results, String dashboardName,
                           boolean record) {
        Pulse p = draft.pulse();
        PulseChannel ch = target.channel();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("pulse-id", p.id);
        details.put("channel-type", ch.channelType);
        details.put("channel-id", ch.id);
        details.put("card-ids", draft.cards().stream().map(c -> c.cardId).toList());
        List<String> to = new ArrayList<>();
        target.users().forEach(u -> to.add(u.email));
        to.addAll(target.emails());
        if (ch.channelType.equals("email")) {
            details.put("recipients", to);
        } else if (ch.channelId != null) {
            details.put("webhook-channel-id", ch.channelId);
        }
        TaskRun run = record ? history.start(p.alert() ? "send-alert" : "send-pulse", details) : null;
        String error = null;
        int attempt = 0;
        while (attempt < ATTEMPTS) {
            attempt++;
            try {
                switch (ch.channelType) {
                    case "email" -> email(p, target, results, dashboardName);
                    case "http" -> webhook(p, ch, as, results, dashboardName);
                    default -> throw new Permanent("Slack is not configured.");
                }
                error = null;
                break;
            } catch (Permanent e) {
                error = e.getMessage();
                break;
            } catch (Webhooks.Refused e) {
                error = e.getMessage();
                break;
            } catch (Webhooks.Failed e) {
                error = e.getMessage();
                if (!e.retryable()) {
                    break;
                }
            } catch (MessagingException | RuntimeException e) {
                error = e.getMessage() == null ? e.toString() : e.getMessage();
            }
            if (attempt < ATTEMPTS) {
                pause(backoff.multipliedBy(1L << (attempt - 1)));
            }
        }
        details.put("attempts", attempt);
        Counter.builder(error == null ? "metabase.notification.channel.send.ok" : "metabase.notification.channel.send.error")
                .description(error == null ? "Number of successful channel sends." : "Number of errors when sending channel notifications.")
                .tag("payload_type", payloadType(p)).tag("channel_type", "channel/" + ch.channelType).register(meters).increment();
        if (run != null) {
            history.finish(run, details, error);
        }
        if (error != null) {
            log.warn("Sending pulse {} to its {} channel {} failed after {} attempt(s): {}", p.id, ch.channelType, ch.id, attempt, error);
        }
        return error;
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A failure no retry would cure. */
    static final class Permanent extends RuntimeException {
        Permanent(String message) {
            super(message);
        }
    }

    // --- email ---------------------------------------------------------------------------------------------------------

    private void email(Pulse p, PulseDraft.Target target, List<CardResult> results, String dashboardName) throws MessagingException {
        if (!mailer.configured()) {
            throw new Permanent("Email is not configured. Please set up email in the admin settings.");
        }
        String subject = subject(p, results, dashboardName);
        List<Mailer.Inline> inline = new ArrayList<>();
        StringBuilder cardsHtml = new StringBuilder();
        int n = 0;
        for (CardResult r : results) {
            cardsHtml.append(cardHtml(r, inline, n++));
        }
        List<Mailer.Attachment> attachments = attachments(p, results);
        String siteUrl = siteUrl();
        List<String> userEmails = target.users().stream().map(u -> u.email).toList();
        if (!userEmails.isEmpty()) {
            String footer = "<p style=\"font-size:12px;color:#949aab\"><a href=\"" + Mailer.escape(siteUrl + "/account/notifications")
                    + "\">Manage your subscriptions</a></p>";
            String html = page(subject, dashboardName, cardsHtml.toString(), footer);
            boolean bcc = !Boolean.FALSE.equals(settings.get("bcc-enabled"));
            Long max = settings.integer("email-max-recipients-per-message");
            int size = max == null || max <= 0 ? 50 : (int) Math.min(max, Integer.MAX_VALUE);
            // a message goes to at most email-max-recipients-per-message addresses: more users, more messages
            for (int from = 0; from < userEmails.size(); from += size) {
                List<String> batch = userEmails.subList(from, Math.min(userEmails.size(), from + size));
                mailer.send(new Mailer.Letter(bcc ? List.of() : batch, bcc ? batch : List.of(), subject, html, inline, attachments));
            }
        }
        String salt = settings.string("site-uuid-for-unsubscribing-url");
        for (String outsider : target.emails()) {
            String link = siteUrl + "/unsubscribe?hash=" + UnsubscribeHash.of(salt, outsider, p.id) + "&email="
                    + java.net.URLEncoder.encode(outsider, java.nio.charset.StandardCharsets.UTF_8) + "&pulse-id=" + p.id;
            String footer = "<p style=\"font-size:12px;color:#949aab\"><a href=\"" + Mailer.escape(link) + "\">Unsubscribe</a></p>";
            mailer.send(new Mailer.Letter(List.of(outsider), List.of(), subject, page(subject, dashboardName, cardsHtml.toString(), footer),
                    inline, attachments));
        }
    }

    /** Metabase's subjects: the dashboard's name for a subscription; {@code Alert: <card> has results} and the goal forms. */
    static String subject(Pulse p, List<CardResult> results, String dashboardName) {
        if (!p.alert()) {
            return dashboardName != null ? dashboardName : p.name;
        }
        String card = results.isEmpty() ? "" : String.valueOf(results.get(0).pulseCard().name);
        if (p.alertCondition.equals("rows")) {
            return "Alert: " + card + " has results";
        }
        return Boolean.TRUE.equals(p.alertAboveGoal) ? "Alert: " + card + " has reached its goal"
                : "Alert: " + card + " has gone below its goal";
    }

    private String cardHtml(CardResult r, List<Mailer.Inline> inline, int index) {
        String url = siteUrl() + "/question/" + r.pulseCard().cardId;
        if (r.error() != null || r.data() == null) {
            return "<div style=\"margin:16px 0\"><h3>" + Mailer.escape(String.valueOf(r.pulseCard().name)) + "</h3>"
                    + "<p style=\"color:#ed6e6e\">There was a problem with this question.</p></div>";
        }
        RenderedCard rendered = renderer.render(r.cardJson(), r.data(), RenderOptions.email(url));
        String html = rendered.html();
        for (Map.Entry<String, byte[]> image : rendered.inlineImages().entrySet()) {
            inline.add(new Mailer.Inline(image.getKey(), "image/png", image.getValue()));
        }
        return "<div style=\"margin:16px 0\">" + html + "</div>";
    }

    private static String page(String subject, String dashboardName, String cards, String footer) {
        return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + Mailer.escape(subject) + "</title></head>"
                + "<body style=\"font-family:Lato,Helvetica,Arial,sans-serif;color:#4c5773\"><h2>" + Mailer.escape(dashboardName != null
                ? dashboardName : subject) + "</h2>" + cards + footer + "</body></html>";
    }

    /** CSV and XLSX files of the cards that ask for them, each its own download through the runner, capped in rows. */
    private List<Mailer.Attachment> attachments(Pulse p, List<CardResult> results) {
        List<Mailer.Attachment> files = new ArrayList<>();
        User creator = users.find(p.creatorId);
        Caller as = new Caller(creator.id, creator.isSuperuser, null, false, null);
        for (CardResult r : results) {
            if (r.query() == null || r.card() == null) {
                continue;
            }
            if (r.pulseCard().includeCsv) {
                files.add(attachment(as, r, ExportFormat.CSV));
            }
            if (r.pulseCard().includeXls) {
                files.add(attachment(as, r, ExportFormat.XLSX));
            }
        }
        return files;
    }

    private Mailer.Attachment attachment(Caller as, CardResult r, ExportFormat format) {
        ObjectNode query = r.query().deepCopy();
        Long limit = settings.integer("attachment-row-limit");
        query.with("constraints").put("max-results", limit == null ? 1_048_575 : limit);
        String slug = r.card().name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
        QueryRequest.Download download = new QueryRequest.Download(format,
                new ExportRequest.Options(r.pulseCard().formatRows, r.pulseCard().pivotResults, false), slug.isEmpty() ? "query_result" : slug);
        try {
            byte[] bytes = bytes(runner.run(QueryRequest.subscription(as, new QueryRequest.SavedCard(r.card().id, r.card().databaseId),
                    query, download)));
            return new Mailer.Attachment((slug.isEmpty() ? "query_result" : slug) + "." + format.key, format.contentType, bytes);
        } catch (IOException e) {
            throw new IllegalStateException("The attachment of card " + r.card().id + " could not be written", e);
        }
    }

    private String siteUrl() {
        String url = settings.string("site-url");
        return url == null ? "" : url;
    }

    // --- webhooks ------------------------------------------------------------------------------------------------------

    /** The payload of COMPAT §10.3: the alert shape, or the subscription shape with one entry per card. */
    private void webhook(Pulse p, PulseChannel ch, Caller as, List<CardResult> results, String dashboardName) {
        Map<String, Object> details = ch.channelId == null ? null : channels.activeDetails(ch.channelId);
        if (details == null) {
            throw new Permanent("The webhook channel " + ch.channelId + " is gone or inactive.");
        }
        User creator = users.find(p.creatorId);
        Map<String, Object> payload = new LinkedHashMap<>();
        if (p.alert()) {
            payload.put("type", "alert");
            payload.put("alert_id", p.id);
            payload.put("alert_creator_id", p.creatorId);
            payload.put("alert_creator_name", creator.commonName());
            payload.put("data", question(results.get(0)));
        } else {
            payload.put("type", "dashboard_subscription");
            payload.put("dashboard_subscription_id", p.id);
            payload.put("dashboard_id", p.dashboardId);
            payload.put("dashboard_name", dashboardName != null ? dashboardName : p.name);
            payload.put("dashboard_url", p.dashboardId == null ? null : siteUrl() + "/dashboard/" + p.dashboardId);
            payload.put("creator_id", p.creatorId);
            payload.put("creator_name", creator.commonName());
            List<Map<String, Object>> data = new ArrayList<>();
            results.forEach(r -> data.add(question(r)));
            payload.put("data", data);
        }
        payload.put("sent_at", OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC).format(SENT_AT));
        webhooks.send(details, payload);
    }

    private Map<String, Object> question(CardResult r) {
        Map<String, Object> q = new LinkedHashMap<>();
        q.put("type", "question");
        q.put("question_id", r.pulseCard().cardId);
        q.put("question_name", r.pulseCard().name);
        q.put("question_url", siteUrl() + "/question/" + r.pulseCard().cardId);
        if (r.data() != null) {
            byte[] png = renderer.png(r.cardJson(), r.data(), 1200);
            q.put("visualization", "data:image/png;base64," + Base64.getEncoder().encodeToString(png));
            List<String> cols = r.data().cols().stream().map(Tabular.Column::name).toList();
            q.put("raw_data", Map.of("cols", cols, "rows", r.data().rows()));
        } else {
            q.put("error", r.error());
        }
        return q;
    }
}
