package io.quarry.notification;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarry.appdb.Db;
import io.quarry.card.CardService;
import io.quarry.collection.CollectionAccess;
import io.quarry.core.AppConfig;
import io.quarry.dashboard.DashboardService;
import io.quarry.mail.Mailer;
import io.quarry.outbound.OutboundHttp;
import io.quarry.qp.run.QueryRunner;
import io.quarry.render.CardRenderer;
import io.quarry.setting.Setting;
import io.quarry.setting.Settings;
import io.quarry.user.UserService;
import io.quarry.warehouse.DetailsCodec;
import java.time.Clock;
import java.time.Duration;

/**
 * Notifications: webhook channels, subscriptions and alerts (records), their delivery and its history, unsubscribing
 * by hash, and the schedule that sends them.
 */
public record NotificationModule(ChannelService channels, PulseService pulses, Delivery delivery, SendHistory history,
                                 UnsubscribeService unsubscribes, PulseSchedule schedule) {
    /** A webhook call may take this long before it counts as failed (and is retried). */
    static final Duration WEBHOOK_TIMEOUT = Duration.ofSeconds(10);

    public static NotificationModule create(AppConfig config, Clock clock, Db db, Settings settings, CollectionAccess access,
                                            CardService cards, DashboardService dashboards, UserService users, QueryRunner runner,
                                            CardRenderer renderer, Mailer mailer, OutboundHttp http,
                                            MeterRegistry meters) {
        registerSettings(settings);
        Webhooks webhooks = new Webhooks(http, WEBHOOK_TIMEOUT);
        ChannelService channels = new ChannelService(db, DetailsCodec.forKey(config.encryptionSecretKey, "channel.details"), webhooks,
                clock);
        PulseService pulses = new PulseService(db, access, cards, dashboards, clock);
        SendHistory history = new SendHistory(db, clock);
        Duration backoff = Duration.ofMillis(backoffMillis(config));
        Delivery delivery = new Delivery(pulses, channels, cards, dashboards, users, runner, renderer, mailer, webhooks, history,
                settings, clock, backoff, meters);
        return new NotificationModule(channels, pulses, delivery, history, new UnsubscribeService(settings, pulses, config, clock),
                new PulseSchedule(pulses, delivery, settings, sendLease(config)));
    }

    /**
     * How long an instance holds a scheduled send before another may take it over (its instance died mid-send):
     * {@code MB_SCHEDULED_SEND_LEASE_SECONDS}, 30 minutes by default.
     */
    private static Duration sendLease(AppConfig config) {
        String value = config.get("MB_SCHEDULED_SEND_LEASE_SECONDS");
        try {
            long seconds = value == null ? PulseSchedule.MAX_RUN.toSeconds() : Long.parseLong(value.trim());
            if (seconds <= 0) {
                throw new NumberFormatException();
            }
            return Duration.ofSeconds(seconds);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("MB_SCHEDULED_SEND_LEASE_SECONDS must be a positive number of seconds, not " + value);
        }
    }

    /** The pause before the second attempt of a failed send (doubling after); {@code MB_NOTIFICATION_RETRY_BACKOFF_MS}. */
    private static long backoffMillis(AppConfig config) {
        String value = config.get("MB_NOTIFICATION_RETRY_BACKOFF_MS");
        try {
            return value == null ? 2000 : Math.max(0, Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalStateException("MB_NOTIFICATION_RETRY_BACKOFF_MS must be a number of milliseconds, not " + value);
        }
    }

    private static void registerSettings(Settings settings) {
        settings.register(
                Setting.of("attachment-row-limit", Setting.Type.POSITIVE_INTEGER).visibility(Setting.Visibility.ADMIN)
                        .defaultValue(1_048_575L)
                        .description("The most rows of a CSV or XLSX file attached to a subscription or alert (MB_ATTACHMENT_ROW_LIMIT).")
                        .build(),
                Setting.of("bcc-enabled", Setting.Type.BOOLEAN).visibility(Setting.Visibility.ADMIN_WRITE_AUTHED_READ)
                        .defaultValue(true)
                        .description("Send the users of a subscription one message with them as Bcc recipients.").build(),
                Setting.of("email-max-recipients-per-message", Setting.Type.POSITIVE_INTEGER).visibility(Setting.Visibility.ADMIN)
                        .defaultValue(50L)
                        .description("The most recipients of one subscription or alert email; more are sent in several messages.")
                        .build());
    }
}
