package io.quarry.core;

import java.security.SecureRandom;

/** Metabase's entity ids: 21 random characters of the URL-safe NanoID alphabet. */
public final class EntityIds {
    private static final String ALPHABET = "_-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final SecureRandom RANDOM = new SecureRandom();

    private EntityIds() {
    }

    public static String next() {
        StringBuilder id = new StringBuilder(21);
        for (int i = 0; i < 21; i++) {
            id.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return id.toString();
    }
}
