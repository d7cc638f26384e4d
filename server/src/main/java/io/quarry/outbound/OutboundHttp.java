package io.quarry.outbound;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.util.Timeout;

/**
 * The one way Quarry calls a URL a user gave it (webhook channels, HTTP actions). Every host the client connects to,
 * the first and every redirect hop, goes through a {@link DnsResolver} that resolves the name once, checks each
 * address against the {@link HostStrategy} and hands exactly those addresses to the socket: a name that resolves to a
 * public address when checked and to a private one when connected (DNS rebinding) cannot slip through, because there
 * is no second look-up. No proxy is used (a proxy would connect on our behalf to an unchecked address). Only
 * {@code http} and {@code https} URLs are fetched.
 */
public final class OutboundHttp implements AutoCloseable {
    /** Bodies larger than this are refused rather than held in memory. */
    static final int MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final int MAX_REDIRECTS = 5;

    /** An outbound request; {@code headers} and {@code body} may be null, {@code timeout} bounds the whole exchange. */
    public record Request(String method, URI url, Map<String, String> headers, byte[] body, Duration timeout) {
        public Request {
            Objects.requireNonNull(method, "method is null");
            Objects.requireNonNull(url, "url is null");
            headers = headers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(headers));
            timeout = timeout == null ? Duration.ofSeconds(30) : timeout;
        }
    }

    /** The final response (after redirects). Header names are lower case. */
    public record Response(int status, Map<String, List<String>> headers, byte[] body) {
        public String bodyText() {
            return body == null ? "" : new String(body, StandardCharsets.UTF_8);
        }
    }

    private final HostStrategy strategy;
    private final CloseableHttpClient client;

    public OutboundHttp(HostStrategy strategy) {
        this.strategy = Objects.requireNonNull(strategy, "strategy is null");
        this.client = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setDnsResolver(new CheckingResolver(strategy))
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(Timeout.of(CONNECT_TIMEOUT))
                                .build())
                        .setMaxConnTotal(50)
                        .setMaxConnPerRoute(10)
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setRedirectsEnabled(true)
                        .setMaxRedirects(MAX_REDIRECTS)
                        .build())
                .disableCookieManagement()
                .disableAuthCaching()
                .setUserAgent("Quarry")
                .build();
    }

    public HostStrategy strategy() {
        return strategy;
    }

    /**
     * Checks a URL before it is stored (create/update validation): {@link RefusedHostException} when its host is refused
     * by name or resolves now to a refused address. A host that does not resolve passes (it may resolve later; every
     * send checks again). An URL that is not absolute {@code http}/{@code https} with a host is an
     * {@link IllegalArgumentException}.
     */
    public void check(URI url) throws RefusedHostException {
        String host = hostOf(url);
        if (strategy == HostStrategy.ALLOW_ALL) {
            return;
        }
        if (!strategy.allowsName(host)) {
            throw new RefusedHostException();
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            return;
        }
        for (InetAddress address : addresses) {
            if (!strategy.allows(address)) {
                throw new RefusedHostException();
            }
        }
    }

    /**
     * Sends a request and reads the whole response. {@link RefusedHostException} when the URL's host or a redirect's
     * host is refused (nothing is sent to it); other {@link IOException}s for connection failures and timeouts. A
     * non-2xx status is a response, not an exception.
     */
    public Response send(Request request) throws IOException {
        String host;
        try {
            host = hostOf(request.url());
        } catch (IllegalArgumentException e) {
            throw new MalformedURLException(e.getMessage());
        }
        if (!strategy.allowsName(host)) {
            throw new RefusedHostException();
        }
        HttpUriRequestBase http = new HttpUriRequestBase(request.method().toUpperCase(Locale.ROOT), request.url());
        request.headers().forEach(http::setHeader);
        if (request.body() != null) {
            http.setEntity(new ByteArrayEntity(request.body(), null));
        }
        Timeout timeout = Timeout.of(request.timeout());
        http.setConfig(RequestConfig.custom()
                .setRedirectsEnabled(true)
                .setMaxRedirects(MAX_REDIRECTS)
                .setConnectionRequestTimeout(timeout)
                .setResponseTimeout(timeout)
                .build());
        // the response timeout bounds each read; this bounds the whole exchange (a server that drips bytes)
        CompletableFuture<Void> deadline = CompletableFuture.runAsync(http::cancel,
                CompletableFuture.delayedExecutor(request.timeout().toMillis(), TimeUnit.MILLISECONDS));
        try {
            return client.execute(http, response -> {
                Map<String, List<String>> headers = new LinkedHashMap<>();
                for (Header header : response.getHeaders()) {
                    headers.computeIfAbsent(header.getName().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                            .add(header.getValue());
                }
                headers.replaceAll((k, v) -> List.copyOf(v));
                return new Response(response.getCode(), Collections.unmodifiableMap(headers), read(response.getEntity()));
            });
        } catch (IOException e) {
            RefusedHostException refused = refusal(e);
            if (refused != null) {
                throw refused;
            }
            if (http.isCancelled()) {
                throw new java.net.SocketTimeoutException("No complete response from " + host + " within "
                        + request.timeout().toMillis() + " ms");
            }
            throw e;
        } finally {
            deadline.cancel(false);
        }
    }

    private static byte[] read(HttpEntity entity) throws IOException {
        if (entity == null) {
            return new byte[0];
        }
        try (InputStream in = entity.getContent()) {
            byte[] body = in.readNBytes(MAX_RESPONSE_BYTES + 1);
            if (body.length > MAX_RESPONSE_BYTES) {
                throw new IOException("Response larger than " + MAX_RESPONSE_BYTES + " bytes");
            }
            return body;
        }
    }

    private static RefusedHostException refusal(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RefusedHostException refused) {
                return refused;
            }
        }
        return null;
    }

    private static String hostOf(URI url) {
        if (url == null || url.getScheme() == null) {
            throw new IllegalArgumentException("The URL must be absolute, starting with http:// or https://");
        }
        String scheme = url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("Only http and https URLs are allowed");
        }
        String host = url.getHost();
        if (host == null && url.getRawAuthority() != null) {
            // java.net.URI has no host for names it finds invalid (an all-digit "2130706433", an underscore), yet
            // HttpClient takes the host from the authority then, and the JDK reads "2130706433" as 127.0.0.1: check
            // the same text the client will connect to
            host = url.getRawAuthority().replaceFirst("^.*@", "").replaceFirst(":\\d*$", "");
        }
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("The URL has no host");
        }
        return host;
    }

    @Override
    public void close() {
        client.close(org.apache.hc.core5.io.CloseMode.GRACEFUL);
    }

    /**
     * Resolves once and refuses the whole name when any of its addresses is refused (a client tries the addresses in
     * turn, so one refused address among allowed ones could still be reached). The refusal travels inside an
     * {@link UnknownHostException}, the only checked exception the hook may throw, and {@link #send} unwraps it.
     */
    static final class CheckingResolver implements DnsResolver {
        private final HostStrategy strategy;

        CheckingResolver(HostStrategy strategy) {
            this.strategy = strategy;
        }

        @Override
        public InetAddress[] resolve(String host) throws UnknownHostException {
            if (!strategy.allowsName(host)) {
                throw refused(host);
            }
            InetAddress[] addresses = SystemDefaultDnsResolver.INSTANCE.resolve(host);
            for (InetAddress address : addresses) {
                if (!strategy.allows(address)) {
                    throw refused(host + " (" + Arrays.toString(addresses) + ")");
                }
            }
            return addresses;
        }

        @Override
        public String resolveCanonicalHostname(String host) throws UnknownHostException {
            return SystemDefaultDnsResolver.INSTANCE.resolveCanonicalHostname(host);
        }

        private static UnknownHostException refused(String what) {
            UnknownHostException e = new UnknownHostException("Refused host " + what);
            e.initCause(new RefusedHostException());
            return e;
        }
    }
}
