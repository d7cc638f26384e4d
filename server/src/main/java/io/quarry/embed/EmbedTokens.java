package io.quarry.embed;

import com.auth0.jwt.JWT;
import com.auth0.jwt.JWTVerifier;
import com.auth0.jwt.algorithms.Algorithm;
import com.auth0.jwt.exceptions.JWTDecodeException;
import com.auth0.jwt.exceptions.JWTVerificationException;
import com.auth0.jwt.exceptions.TokenExpiredException;
import com.auth0.jwt.interfaces.DecodedJWT;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Json;
import io.quarry.setting.Settings;
import io.quarry.web.error.ApiException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.Objects;

/**
 * Signed-embedding tokens (Metabase's {@code embedding/jwt.clj}): HS256 with the {@code embedding-secret-key} setting
 * (its text, as UTF-8, is the key), {@code exp} enforced with 60 seconds of leeway; {@code alg: none}, a missing
 * {@code alg} and any other algorithm are refused. Every refusal is a 400 with its message.
 */
public final class EmbedTokens {
    /** Clock skew tolerated on {@code exp}, as buddy's default in Metabase. */
    static final long LEEWAY_SECONDS = 60;

    private final Settings settings;
    private final Clock clock;

    EmbedTokens(Settings settings, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
    }

    /** The token's claims once its signature and expiry are checked. */
    public JsonNode verify(String token) {
        String secret = settings.string("embedding-secret-key");
        if (secret == null || secret.isBlank()) {
            throw ApiException.badRequest("The embedding secret key has not been set.");
        }
        DecodedJWT unverified;
        try {
            unverified = JWT.decode(token);
        } catch (JWTDecodeException e) {
            throw ApiException.badRequest("Message seems corrupt or manipulated.");
        }
        String alg = unverified.getAlgorithm();
        if (alg == null) {
            throw ApiException.badRequest("JWT is missing `alg`.");
        }
        if (alg.equalsIgnoreCase("none")) {
            throw ApiException.badRequest("JWT `alg` cannot be `none`.");
        }
        if (!alg.equals("HS256")) {
            throw ApiException.badRequest("Message seems corrupt or manipulated.");
        }
        DecodedJWT jwt;
        try {
            JWTVerifier.BaseVerification verification = (JWTVerifier.BaseVerification) JWT
                    .require(Algorithm.HMAC256(secret.getBytes(StandardCharsets.UTF_8))).acceptLeeway(LEEWAY_SECONDS);
            jwt = verification.build(clock).verify(token);
        } catch (TokenExpiredException e) {
            throw ApiException.badRequest("Token is expired (" + unverified.getExpiresAtAsInstant().getEpochSecond() + ")");
        } catch (JWTVerificationException e) {
            throw ApiException.badRequest("Message seems corrupt or manipulated.");
        }
        try {
            return Json.read(new String(Base64.getUrlDecoder().decode(jwt.getPayload()), StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw ApiException.badRequest("Message seems corrupt or manipulated.");
        }
    }

    /** 400 {@code Embedding is not enabled.} unless static embedding (or the legacy {@code enable-embedding}) is on. */
    public void requireEnabled() {
        if (!settings.bool("enable-embedding-static") && !settings.bool("enable-embedding")) {
            throw ApiException.badRequest("Embedding is not enabled.");
        }
    }
}
