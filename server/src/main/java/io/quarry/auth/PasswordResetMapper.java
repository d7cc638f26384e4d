package io.quarry.auth;

import org.apache.ibatis.annotations.Param;

public interface PasswordResetMapper {
    /**
     * Sets the new password only if the user still holds the reset token hash that was checked, clearing it: of two
     * concurrent resets with one token exactly one updates a row. Answers the number of rows changed (0 or 1).
     */
    int resetPasswordWithToken(@Param("id") long id, @Param("tokenHash") String tokenHash, @Param("password") String passwordHash,
                               @Param("salt") String salt);
}
