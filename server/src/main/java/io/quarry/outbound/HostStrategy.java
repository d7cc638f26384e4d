package io.quarry.outbound;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Which hosts a user-given URL may reach ({@code MB_HTTP_CHANNEL_HOST_STRATEGY}; Metabase's
 * {@code http-channel-host-strategy}, read from the environment only). The rules apply to the addresses a host name
 * resolves to, so a name that points at a refused address is refused like the address itself.
 */
public enum HostStrategy {
    /** Metabase's {@code external-only}, the default: no loopback, link-local, private or cloud-metadata host. */
    EXTERNAL_ONLY,
    /** Metabase's {@code allow-private}: private ranges allowed; loopback, link-local and the metadata host refused. */
    ALLOW_PRIVATE,
    /** Metabase's {@code allow-all}: no restriction. */
    ALLOW_ALL;

    /** GCP's metadata server name; the address behind it is link-local, but the name is refused as well. */
    static final String METADATA_HOST = "metadata.google.internal";

    /** Metabase's value: {@code external-only}, {@code allow-private} or {@code allow-all}. */
    public String value() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Reads Metabase's value ({@code external-only}, {@code allow-private}, {@code allow-all}; case, a leading colon
     * of the Clojure keyword and underscores are tolerated). Null or blank is the default, {@link #EXTERNAL_ONLY};
     * anything else is an {@link IllegalArgumentException} naming the accepted values.
     */
    public static HostStrategy parse(String value) {
        if (value == null || value.isBlank()) {
            return EXTERNAL_ONLY;
        }
        String normalized = value.trim().toLowerCase(Locale.ROOT).replaceFirst("^:", "").replace('_', '-');
        for (HostStrategy strategy : values()) {
            if (strategy.value().equals(normalized)) {
                return strategy;
            }
        }
        throw new IllegalArgumentException("Invalid MB_HTTP_CHANNEL_HOST_STRATEGY '" + value
                + "': use external-only, allow-private or allow-all");
    }

    /** True when a URL may name this host (before resolution: only the metadata host name is refused by name). */
    boolean allowsName(String host) {
        if (this == ALLOW_ALL) {
            return true;
        }
        String name = host.toLowerCase(Locale.ROOT);
        while (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        return !name.equals(METADATA_HOST);
    }

    /** True when a connection to this address is allowed. */
    boolean allows(InetAddress address) {
        if (this == ALLOW_ALL) {
            return true;
        }
        InetAddress effective = embeddedIpv4(address);
        if (effective.isLoopbackAddress() || effective.isAnyLocalAddress() || effective.isLinkLocalAddress()
                || isZeroNetwork(effective)) {
            return false;
        }
        if (this == ALLOW_PRIVATE) {
            return true;
        }
        return !(effective.isSiteLocalAddress() || isUniqueLocal(effective));
    }

    /**
     * The IPv4 address an IPv6 address carries for the purpose of connecting: IPv4-mapped ({@code ::ffff:a.b.c.d}) and
     * the deprecated IPv4-compatible form ({@code ::a.b.c.d}) reach the IPv4 address on dual-stack hosts. The JDK
     * already turns mapped text into an {@link Inet4Address}; this also covers addresses built from raw bytes.
     */
    static InetAddress embeddedIpv4(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return address;
        }
        byte[] b = address.getAddress();
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return address;
            }
        }
        boolean mapped = (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
        boolean compatible = b[10] == 0 && b[11] == 0 && !(b[12] == 0 && b[13] == 0 && b[14] == 0 && (b[15] & 0xfe) == 0);
        if (!mapped && !compatible) {
            return address;
        }
        try {
            return InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // four bytes are always an IPv4 address
        }
    }

    /** 0.0.0.0/8 ("this network"): Linux connects 0.0.0.0 to the local host. */
    private static boolean isZeroNetwork(InetAddress address) {
        return address instanceof Inet4Address && address.getAddress()[0] == 0;
    }

    /** fc00::/7, IPv6 unique local addresses (the private ranges of IPv6; the JDK's site-local is the old fec0::/10). */
    private static boolean isUniqueLocal(InetAddress address) {
        return address instanceof Inet6Address && (address.getAddress()[0] & 0xfe) == 0xfc;
    }
}
