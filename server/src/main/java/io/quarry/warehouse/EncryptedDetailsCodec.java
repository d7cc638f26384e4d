package io.quarry.warehouse;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Connection details encrypted at rest with AES-256-GCM, the key derived from {@code MB_ENCRYPTION_SECRET_KEY} with
 * PBKDF2-HMAC-SHA256. Stored form: {@code qenc1:} + base64(12-byte random IV, ciphertext with its 16-byte tag). Rows
 * written as plain JSON before the key was set still read (and are encrypted when next written). A row that does not
 * decrypt — another key, or altered — is an error, never an empty map.
 */
public final class EncryptedDetailsCodec extends DetailsCodec {
    /** Marks encrypted column text; plain JSON always starts with a brace. */
    public static final String PREFIX = "qenc1:";
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final int ITERATIONS = 100_000;
    /** The column of database connection details, the first encrypted one. */
    public static final String DATABASE_DETAILS = "metabase_database.details";

    /** Binds ciphertexts to their column: one cannot be moved into another encrypted field and still decrypt. */
    private final byte[] aad;
    private final SecretKey key;
    private final SecureRandom random = new SecureRandom();

    public EncryptedDetailsCodec(String secret) {
        this(secret, DATABASE_DETAILS);
    }

    /** A codec for the given column ({@code table.column}): its own key and associated data. */
    public EncryptedDetailsCodec(String secret, String column) {
        if (secret == null || secret.length() < 16) {
            throw new IllegalStateException("MB_ENCRYPTION_SECRET_KEY must be at least 16 characters long");
        }
        this.aad = column.getBytes(StandardCharsets.UTF_8);
        this.key = derive(secret, column);
    }

    private static SecretKey derive(String secret, String column) {
        char[] chars = secret.toCharArray();
        // Fixed per column: the key must derive the same on every start; the salt only separates the uses of the secret.
        byte[] salt = ("quarry/" + column + "/v1").getBytes(StandardCharsets.UTF_8);
        try {
            PBEKeySpec spec = new PBEKeySpec(chars, salt, ITERATIONS, 256);
            byte[] bytes = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
            spec.clearPassword();
            return new SecretKeySpec(bytes, "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot derive the details encryption key", e);
        } finally {
            Arrays.fill(chars, '\0');
        }
    }

    @Override
    public String encode(Map<String, Object> details) {
        byte[] plain = super.encode(details).getBytes(StandardCharsets.UTF_8);
        byte[] iv = new byte[IV_BYTES];
        random.nextBytes(iv);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            cipher.updateAAD(aad);
            byte[] sealed = cipher.doFinal(plain);
            byte[] out = new byte[IV_BYTES + sealed.length];
            System.arraycopy(iv, 0, out, 0, IV_BYTES);
            System.arraycopy(sealed, 0, out, IV_BYTES, sealed.length);
            return PREFIX + Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot encrypt database details", e);
        } finally {
            Arrays.fill(plain, (byte) 0);
        }
    }

    @Override
    public Map<String, Object> decode(String stored) {
        if (stored == null || !stored.startsWith(PREFIX)) {
            return parse(stored); // written before encryption was configured
        }
        byte[] in;
        try {
            in = Base64.getDecoder().decode(stored.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("Stored database details are damaged (not base64)");
        }
        if (in.length < IV_BYTES + TAG_BITS / 8) {
            throw new IllegalStateException("Stored database details are damaged (too short)");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, in, 0, IV_BYTES));
            cipher.updateAAD(aad);
            byte[] plain = cipher.doFinal(in, IV_BYTES, in.length - IV_BYTES);
            try {
                return parse(new String(plain, StandardCharsets.UTF_8));
            } finally {
                Arrays.fill(plain, (byte) 0);
            }
        } catch (AEADBadTagException e) {
            throw new IllegalStateException("Stored database details cannot be decrypted: MB_ENCRYPTION_SECRET_KEY is not the "
                    + "key they were encrypted with, or the stored value was altered");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot decrypt database details", e);
        }
    }
}
