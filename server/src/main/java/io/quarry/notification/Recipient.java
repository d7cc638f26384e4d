package io.quarry.notification;

/** A user recipient of a pulse channel, with the user's fields the views show. */
public final class Recipient {
    public Long pulseChannelId;
    public Long userId;
    public String email;
    public String firstName;
    public String lastName;
    public boolean active;
}
