package io.quarry.auth;

import com.auth0.jwt.JWT;
import com.auth0.jwt.JWTVerifier;
import com.auth0.jwt.algorithms.Algorithm;
import com.auth0.jwt.exceptions.AlgorithmMismatchException;
import com.auth0.jwt.exceptions.IncorrectClaimException;
import com.auth0.jwt.exceptions.JWTDecodeException;
import com.auth0.jwt.exceptions.JWTVerificationException;
import com.auth0.jwt.exceptions.MissingClaimException;
import com.auth0.jwt.exceptions.SignatureVerificationException;
import com.auth0.jwt.exceptions.TokenExpiredException;
import com.auth0.jwt.interfaces.DecodedJWT;
import com.auth0.jwt.interfaces.Verification;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

/**
 * Verification of identity-provider tokens. The accepted algorithms follow from the configured key alone, never from
 * the token: an RSA public key admits only RS256/384/512 (so a token cannot pass the public key off as an HMAC secret),
 * a shared secret only HS256/384/512, and {@code none} is never accepted.
 */
public final class Jwts {
    /** Clock skew tolerated on {@code exp}, {@code nbf} and {@code iat}. */
    static final long LEEWAY_SECONDS = 30;
    /** A token without {@code exp} is accepted this long after its {@code iat}, as Metabase's JWT sign-in does. */
    static final Duration MAX_AGE_WITHOUT_EXPIRY = Duration.ofMinutes(3);

    private Jwts() {
    }

    /** What a token is checked against: exactly one of the two keys, plus the optional issuer and audience. */
    public record Keys(String sharedSecret, RSAPublicKey publicKey, String issuer, String audience) {
    }

    /** Why a token was refused; the message is safe to show to the caller. */
    public static final class InvalidTokenException extends RuntimeException {
        InvalidTokenException(String message) {
            super(message);
        }
    }

    public static DecodedJWT verify(String token, Keys keys, Clock clock) {
        DecodedJWT unverified;
        try {
            unverified = JWT.decode(token);
        } catch (JWTDecodeException e) {
            throw new InvalidTokenException("Token is not a valid JWT.");
        }
        Algorithm algorithm = keys.publicKey() != null ? rsa(unverified.getAlgorithm(), keys.publicKey())
                : hmac(unverified.getAlgorithm(), keys.sharedSecret());
        if (algorithm == null) {
            throw new InvalidTokenException("Token algorithm \"" + unverified.getAlgorithm() + "\" is not accepted.");
        }
        Verification verification = JWT.require(algorithm).acceptLeeway(LEEWAY_SECONDS);
        if (keys.issuer() != null) {
            verification.withIssuer(keys.issuer());
        }
        if (keys.audience() != null) {
            verification.withAudience(keys.audience());
        }
        DecodedJWT jwt;
        try {
            jwt = ((JWTVerifier.BaseVerification) verification).build(clock).verify(token);
        } catch (TokenExpiredException e) {
            throw new InvalidTokenException("Token has expired.");
        } catch (SignatureVerificationException e) {
            throw new InvalidTokenException("Token signature is invalid.");
        } catch (AlgorithmMismatchException e) {
            throw new InvalidTokenException("Token algorithm \"" + unverified.getAlgorithm() + "\" is not accepted.");
        } catch (IncorrectClaimException e) {
            throw new InvalidTokenException(switch (e.getClaimName()) {
                case "nbf", "iat" -> "Token is not valid yet.";
                case "iss" -> "Token issuer is not accepted.";
                case "aud" -> "Token audience is not accepted.";
                default -> "Token claim \"" + e.getClaimName() + "\" is not accepted.";
            });
        } catch (MissingClaimException e) {
            throw new InvalidTokenException("Token lacks the \"" + e.getClaimName() + "\" claim.");
        } catch (JWTVerificationException e) {
            throw new InvalidTokenException("Token is invalid.");
        }
        // A token that never expires would be a permanent key to the account: require exp, or a recent iat.
        if (jwt.getExpiresAtAsInstant() == null) {
            Instant issued = jwt.getIssuedAtAsInstant();
            if (issued == null) {
                throw new InvalidTokenException("Token has neither an expiry (\"exp\") nor an issue time (\"iat\").");
            }
            if (issued.plus(MAX_AGE_WITHOUT_EXPIRY).plusSeconds(LEEWAY_SECONDS).isBefore(clock.instant())) {
                throw new InvalidTokenException("Token has expired.");
            }
        }
        return jwt;
    }

    private static Algorithm hmac(String name, String secret) {
        if (secret == null || name == null) {
            return null;
        }
        return switch (name) {
            case "HS256" -> Algorithm.HMAC256(secret);
            case "HS384" -> Algorithm.HMAC384(secret);
            case "HS512" -> Algorithm.HMAC512(secret);
            default -> null;
        };
    }

    private static Algorithm rsa(String name, RSAPublicKey key) {
        if (name == null) {
            return null;
        }
        return switch (name) {
            case "RS256" -> Algorithm.RSA256(key, null);
            case "RS384" -> Algorithm.RSA384(key, null);
            case "RS512" -> Algorithm.RSA512(key, null);
            default -> null;
        };
    }

    /** Parses a PEM {@code PUBLIC KEY} (X.509 SubjectPublicKeyInfo) holding an RSA key. */
    public static RSAPublicKey parsePublicKey(String pem) {
        String body = pem.trim();
        if (!body.startsWith("-----BEGIN PUBLIC KEY-----") || !body.contains("-----END PUBLIC KEY-----")) {
            throw new IllegalArgumentException("value must be a PEM-encoded RSA public key (-----BEGIN PUBLIC KEY-----).");
        }
        body = body.substring("-----BEGIN PUBLIC KEY-----".length(), body.indexOf("-----END PUBLIC KEY-----")).replaceAll("\\s", "");
        try {
            byte[] der = Base64.getDecoder().decode(body);
            if (KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der)) instanceof RSAPublicKey key) {
                return key;
            }
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException("value must be a PEM-encoded RSA public key (-----BEGIN PUBLIC KEY-----).");
    }
}
