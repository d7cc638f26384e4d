package io.quarry.user;

import io.quarry.core.UserSummary;
import java.time.OffsetDateTime;
import java.util.Map;

/** A row of core_user. Never serialised as it is: it holds hashes. {@link UserService#view} is the wire form. */
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
        return UserSummary.commonName(firstName, lastName, email);
    }

    public UserSummary summary() {
        return new UserSummary(id, email, firstName, lastName);
    }
}
