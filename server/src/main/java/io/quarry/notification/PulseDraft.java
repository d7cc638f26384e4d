package io.quarry.notification;

import java.util.List;

/**
 * A pulse or alert as delivery sees it: the row, its cards in order, and its channels each with the addresses it goes to.
 * Built from the application database for a scheduled send, or from a request body for {@code POST /api/pulse/test}
 * (never stored).
 */
public record PulseDraft(Pulse pulse, List<PulseCard> cards, List<Target> targets) {
    public PulseDraft {
        cards = List.copyOf(cards);
        targets = List.copyOf(targets);
    }

    /** One channel: its row, the active user recipients and the outside addresses (email), or the webhook (http). */
    public record Target(PulseChannel channel, List<Recipient> users, List<String> emails) {
        public Target {
            users = List.copyOf(users);
            emails = List.copyOf(emails);
        }
    }
}
