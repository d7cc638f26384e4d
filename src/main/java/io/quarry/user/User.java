package io.quarry.user;

import java.time.OffsetDateTime;
import java.util.Map;

/** A row of core_user. Never serialised as it is: it holds hashes. {@link UserView} is the wire form. */
public final class User {
    public Long id;
    public String email;
    public String firstName;
    public String lastName;
    public String password;
    public String passwordSalt;
    public boolean isActive = true;
    public boolean isQbnewb = true;
    public boolean isDatasetnewb = true;
    /** Derived: member of the Administrators group. */
    public boolean isSuperuser;
    public String locale;
    public Map<String, Object> loginAttributes;
    public Map<String, Object> settings;
    /** {@code personal} for people, {@code api-key} for the users behind API keys. */
    public String userType = "personal";
    public String ssoSource;
    public OffsetDateTime dateJoined;
    public OffsetDateTime lastLogin;
    public OffsetDateTime updatedAt;
    public String resetToken;
    public Long resetTriggered;

    public String commonName() {
        if (firstName == null && lastName == null) {
            return email;
        }
        return ((firstName == null ? "" : firstName) + " " + (lastName == null ? "" : lastName)).trim();
    }
}
