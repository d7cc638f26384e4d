package io.quarry.core;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A person as other content shows them: a card's creator, a revision's author, whoever made the last edit. The one place
 * that writes a user's summary keys ({@code id}, {@code email}, {@code first_name}, {@code last_name},
 * {@code common_name}), in Metabase's order.
 */
public record UserSummary(Long id, String email, String firstName, String lastName) {
    /** Metabase's {@code common_name}: first and last name, or the email when the user has neither. */
    public static String commonName(String firstName, String lastName, String email) {
        if (firstName == null && lastName == null) {
            return email;
        }
        return ((firstName == null ? "" : firstName) + " " + (lastName == null ? "" : lastName)).trim();
    }

    public String commonName() {
        return commonName(firstName, lastName, email);
    }

    /** {@code {id, email, first_name, last_name, common_name}}: a content's {@code creator}, the start of a user's view. */
    public Map<String, Object> view() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", id);
        v.put("email", email);
        v.put("first_name", firstName);
        v.put("last_name", lastName);
        v.put("common_name", commonName());
        return v;
    }

    /** {@code {id, first_name, last_name, common_name}}: a revision's {@code user} (Metabase leaves the email out). */
    public Map<String, Object> author() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", id);
        v.put("first_name", firstName);
        v.put("last_name", lastName);
        v.put("common_name", commonName());
        return v;
    }

    /** Metabase's {@code last-edit-info} of a card or dashboard: {@code {id, email, first_name, last_name, timestamp}}. */
    public Map<String, Object> lastEdit(Object timestamp) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", id);
        v.put("email", email);
        v.put("first_name", firstName);
        v.put("last_name", lastName);
        v.put("timestamp", timestamp);
        return v;
    }
}
