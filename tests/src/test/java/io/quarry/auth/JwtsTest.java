package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.auth0.jwt.JWT;
import com.auth0.jwt.JWTCreator;
import com.auth0.jwt.algorithms.Algorithm;
import io.quarry.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class JwtsTest {
    private static final String SECRET = "a4bcd8e1f0c3b2a19d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c";
    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    private static KeyPair rsa;
    private static KeyPair otherRsa;

    private final MutableClock clock = new MutableClock(NOW);
    private final Jwts.Keys hmacKeys = new Jwts.Keys(SECRET, null, null, null);

    @BeforeAll
    static void keys() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        rsa = generator.generateKeyPair();
        otherRsa = generator.generateKeyPair();
    }

    private static JWTCreator.Builder claims() {
        return JWT.create().withClaim("email", "rasta@example.com").withExpiresAt(NOW.plusSeconds(300));
    }

    private String refusal(String token, Jwts.Keys keys) {
        return assertThrows(Jwts.InvalidTokenException.class, () -> Jwts.verify(token, keys, clock)).getMessage();
    }

    @Test
    void acceptsEveryHmacVariantSignedWithTheSecret() {
        for (Algorithm algorithm : new Algorithm[]{Algorithm.HMAC256(SECRET), Algorithm.HMAC384(SECRET), Algorithm.HMAC512(SECRET)}) {
            assertEquals("rasta@example.com", Jwts.verify(claims().sign(algorithm), hmacKeys, clock).getClaim("email").asString());
        }
    }

    @Test
    void refusesAWrongSecret() {
        assertEquals("Token signature is invalid.", refusal(claims().sign(Algorithm.HMAC256(SECRET + "x")), hmacKeys));
    }

    @Test
    void refusesAlgorithmNone() {
        String payload = Base64.getUrlEncoder().withoutPadding()
                .encodeToString(("{\"email\":\"rasta@example.com\",\"exp\":" + NOW.plusSeconds(300).getEpochSecond() + "}")
                        .getBytes(StandardCharsets.UTF_8));
        String header = Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        assertEquals("Token algorithm \"none\" is not accepted.", refusal(header + "." + payload + ".", hmacKeys));
        assertEquals("Token algorithm \"none\" is not accepted.", refusal(claims().sign(Algorithm.none()), hmacKeys));
    }

    @Test
    void refusesGarbage() {
        assertEquals("Token is not a valid JWT.", refusal("not-a-jwt", hmacKeys));
        assertEquals("Token is not a valid JWT.", refusal("a.b.c", hmacKeys));
    }

    @Test
    void expiryAndNotBeforeHoldWithASmallLeeway() {
        String token = claims().withExpiresAt(NOW.minusSeconds(10)).sign(Algorithm.HMAC256(SECRET));
        Jwts.verify(token, hmacKeys, clock); // 10 s late is within the leeway
        clock.advance(Duration.ofSeconds(Jwts.LEEWAY_SECONDS));
        assertEquals("Token has expired.", refusal(token, hmacKeys));

        String early = claims().withExpiresAt(NOW.plusSeconds(3600)).withNotBefore(NOW.plusSeconds(600)).sign(Algorithm.HMAC256(SECRET));
        assertEquals("Token is not valid yet.", refusal(early, hmacKeys));
        clock.advance(Duration.ofSeconds(600));
        Jwts.verify(early, hmacKeys, clock);
    }

    @Test
    void aTokenWithoutExpiryLivesThreeMinutesFromItsIssueTime() {
        String neither = JWT.create().withClaim("email", "rasta@example.com").sign(Algorithm.HMAC256(SECRET));
        assertEquals("Token has neither an expiry (\"exp\") nor an issue time (\"iat\").", refusal(neither, hmacKeys));

        String issued = JWT.create().withClaim("email", "rasta@example.com").withIssuedAt(NOW).sign(Algorithm.HMAC256(SECRET));
        Jwts.verify(issued, hmacKeys, clock);
        clock.advance(Duration.ofMinutes(3).plusSeconds(Jwts.LEEWAY_SECONDS + 1));
        assertEquals("Token has expired.", refusal(issued, hmacKeys));
    }

    @Test
    void aTokenIssuedInTheFutureIsRefused() {
        String token = claims().withIssuedAt(NOW.plusSeconds(600)).sign(Algorithm.HMAC256(SECRET));
        assertEquals("Token is not valid yet.", refusal(token, hmacKeys));
    }

    @Test
    void aPublicKeyAdmitsOnlyRsaSignatures() {
        Jwts.Keys keys = new Jwts.Keys(SECRET, (RSAPublicKey) rsa.getPublic(), null, null);
        Algorithm rs256 = Algorithm.RSA256(null, (RSAPrivateKey) rsa.getPrivate());
        Jwts.verify(claims().sign(rs256), keys, clock);
        Jwts.verify(claims().sign(Algorithm.RSA512(null, (RSAPrivateKey) rsa.getPrivate())), keys, clock);

        assertEquals("Token signature is invalid.",
                refusal(claims().sign(Algorithm.RSA256(null, (RSAPrivateKey) otherRsa.getPrivate())), keys));
        // The classic confusion: an HMAC token keyed with the (public) key material. Never accepted with a public key,
        // nor is the shared secret once a public key is configured.
        String pem = pem((RSAPublicKey) rsa.getPublic());
        assertEquals("Token algorithm \"HS256\" is not accepted.", refusal(claims().sign(Algorithm.HMAC256(pem)), keys));
        assertEquals("Token algorithm \"HS256\" is not accepted.",
                refusal(claims().sign(Algorithm.HMAC256(rsa.getPublic().getEncoded())), keys));
        assertEquals("Token algorithm \"HS256\" is not accepted.", refusal(claims().sign(Algorithm.HMAC256(SECRET)), keys));
    }

    @Test
    void aSharedSecretAdmitsNoRsaToken() {
        String token = claims().sign(Algorithm.RSA256(null, (RSAPrivateKey) rsa.getPrivate()));
        assertEquals("Token algorithm \"RS256\" is not accepted.", refusal(token, hmacKeys));
    }

    @Test
    void issuerAndAudienceAreCheckedWhenConfigured() {
        Jwts.Keys keys = new Jwts.Keys(SECRET, null, "https://idp.example", "quarry");
        Algorithm hs = Algorithm.HMAC256(SECRET);
        Jwts.verify(claims().withIssuer("https://idp.example").withAudience("quarry", "other").sign(hs), keys, clock);
        assertEquals("Token issuer is not accepted.",
                refusal(claims().withIssuer("https://evil.example").withAudience("quarry").sign(hs), keys));
        assertEquals("Token audience is not accepted.",
                refusal(claims().withIssuer("https://idp.example").withAudience("other").sign(hs), keys));
        assertEquals("Token lacks the \"iss\" claim.", refusal(claims().withAudience("quarry").sign(hs), keys));
    }

    @Test
    void parsesPemPublicKeysAndRefusesAnythingElse() {
        RSAPublicKey key = (RSAPublicKey) rsa.getPublic();
        assertEquals(key.getModulus(), Jwts.parsePublicKey(pem(key)).getModulus());
        assertEquals(key.getModulus(), Jwts.parsePublicKey("\n  " + pem(key).replace("\n", "\r\n") + "  \n").getModulus());
        for (String bad : new String[]{"", "hello", "-----BEGIN PUBLIC KEY-----\nnot base64!\n-----END PUBLIC KEY-----",
                "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----", "-----BEGIN PUBLIC KEY-----"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Jwts.parsePublicKey(bad));
            assertEquals("value must be a PEM-encoded RSA public key (-----BEGIN PUBLIC KEY-----).", e.getMessage());
        }
    }

    static String pem(RSAPublicKey key) {
        return "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(key.getEncoded()) + "\n-----END PUBLIC KEY-----\n";
    }
}
