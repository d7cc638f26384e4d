package io.quarry.outbound;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.MalformedURLException;
import java.net.NetworkInterface;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The outbound guard: which hosts each strategy refuses, checked on real connections to local receivers. */
class OutboundHttpTest {
    private final java.util.List<HttpServer> servers = new java.util.ArrayList<>();
    private final java.util.List<OutboundHttp> clients = new java.util.ArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(s -> s.stop(0));
        clients.forEach(OutboundHttp::close);
    }

    @Test
    void parsesMetabaseValues() {
        assertEquals(HostStrategy.EXTERNAL_ONLY, HostStrategy.parse(null));
        assertEquals(HostStrategy.EXTERNAL_ONLY, HostStrategy.parse(" "));
        assertEquals(HostStrategy.EXTERNAL_ONLY, HostStrategy.parse("external-only"));
        assertEquals(HostStrategy.ALLOW_PRIVATE, HostStrategy.parse("allow-private"));
        assertEquals(HostStrategy.ALLOW_ALL, HostStrategy.parse(":allow-all"));
        assertEquals(HostStrategy.ALLOW_ALL, HostStrategy.parse("ALLOW_ALL"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HostStrategy.parse("allow-some"));
        assertTrue(e.getMessage().contains("external-only, allow-private or allow-all"), e.getMessage());
        assertEquals("allow-private", HostStrategy.ALLOW_PRIVATE.value());
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1/", "http://127.1.2.3:8080/x", "http://[::1]/", "http://169.254.169.254/latest/meta-data",
            "http://10.0.0.1/", "http://172.16.5.4/", "http://172.31.255.255/", "http://192.168.1.1/", "http://[::ffff:127.0.0.1]/",
            "http://[::ffff:10.0.0.1]/", "http://[::ffff:169.254.169.254]/", "http://[::127.0.0.1]/", "http://localhost:3000/",
            "http://LOCALHOST/", "http://user:pw@2130706433:80/", "http://2130706433/", "http://127.1/", "http://0.0.0.0/", "http://[::]/", "http://[fe80::1]/",
            "http://[fc00::1]/", "http://[fd12:3456::1]/", "https://metadata.google.internal/computeMetadata/v1/",
            "http://Metadata.Google.Internal./"})
    void externalOnlyRefuses(String url) {
        RefusedHostException e = assertThrows(RefusedHostException.class, () -> client(HostStrategy.EXTERNAL_ONLY).check(URI.create(url)));
        assertEquals("URLs referring to hosts that supply internal hosting metadata are prohibited.", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://8.8.8.8/", "https://1.1.1.1:8443/hook", "http://[2001:4860:4860::8888]/", "http://172.32.0.1/",
            "http://192.169.0.1/", "http://[::ffff:8.8.8.8]/"})
    void externalOnlyAllowsPublicAddresses(String url) throws RefusedHostException {
        client(HostStrategy.EXTERNAL_ONLY).check(URI.create(url));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://10.0.0.1/", "http://172.16.5.4/", "http://192.168.1.1/", "http://[fc00::1]/", "http://[::ffff:192.168.1.1]/"})
    void allowPrivateAllowsPrivateRanges(String url) throws RefusedHostException {
        client(HostStrategy.ALLOW_PRIVATE).check(URI.create(url));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1/", "http://[::1]/", "http://169.254.169.254/", "http://[fe80::1]/", "http://localhost/",
            "http://[::ffff:127.0.0.1]/", "http://2130706433/", "http://metadata.google.internal/"})
    void allowPrivateStillRefusesLoopbackLinkLocalAndMetadata(String url) {
        assertThrows(RefusedHostException.class, () -> client(HostStrategy.ALLOW_PRIVATE).check(URI.create(url)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1/", "http://[::1]/", "http://169.254.169.254/", "http://10.0.0.1/", "http://localhost/",
            "http://metadata.google.internal/"})
    void allowAllAllowsEverything(String url) throws RefusedHostException {
        client(HostStrategy.ALLOW_ALL).check(URI.create(url));
    }

    @Test
    void mappedAddressesBuiltFromBytesAreCheckedAsTheirIpv4() throws Exception {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        mapped[12] = 127;
        mapped[15] = 1;
        InetAddress address = Inet6Address.getByAddress(null, mapped, -1);
        assertTrue(address instanceof Inet6Address);
        assertFalse(HostStrategy.EXTERNAL_ONLY.allows(address));
        assertFalse(HostStrategy.ALLOW_PRIVATE.allows(address));
        assertTrue(HostStrategy.ALLOW_ALL.allows(address));
    }

    @Test
    void onlyHttpAndHttpsUrls() {
        OutboundHttp http = client(HostStrategy.ALLOW_ALL);
        assertThrows(IllegalArgumentException.class, () -> http.check(URI.create("file:///etc/passwd")));
        assertThrows(IllegalArgumentException.class, () -> http.check(URI.create("ftp://example.com/")));
        assertThrows(IllegalArgumentException.class, () -> http.check(URI.create("/relative")));
        assertThrows(MalformedURLException.class, () -> http.send(get(URI.create("file:///etc/passwd"))));
        assertThrows(MalformedURLException.class, () -> http.send(get(URI.create("gopher://127.0.0.1:70/"))));
    }

    @Test
    void aLocalReceiverIsReachedWithAllowAllAndRefusedWithExternalOnly() throws Exception {
        AtomicInteger hits = new AtomicInteger();
        AtomicReference<String> received = new AtomicReference<>();
        HttpServer server = server(InetAddress.getLoopbackAddress());
        server.createContext("/hook", exchange -> {
            hits.incrementAndGet();
            received.set(exchange.getRequestMethod() + " " + exchange.getRequestHeaders().getFirst("Content-Type") + " "
                    + exchange.getRequestHeaders().getFirst("X-Token") + " "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] answer = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("X-Answer", "yes");
            exchange.sendResponseHeaders(201, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        int port = server.getAddress().getPort();
        for (String host : List.of("127.0.0.1", "localhost")) {
            URI url = URI.create("http://" + host + ":" + port + "/hook");
            OutboundHttp.Request post = new OutboundHttp.Request("POST", url,
                    Map.of("Content-Type", "application/json", "X-Token", "s3cret"),
                    "{\"a\":1}".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(5));

            int before = hits.get();
            assertThrows(RefusedHostException.class, () -> client(HostStrategy.EXTERNAL_ONLY).send(post));
            assertThrows(RefusedHostException.class, () -> client(HostStrategy.ALLOW_PRIVATE).send(post));
            assertEquals(before, hits.get(), "a refused URL must not be fetched");

            OutboundHttp.Response response = client(HostStrategy.ALLOW_ALL).send(post);
            assertEquals(201, response.status());
            assertEquals("{\"ok\":true}", response.bodyText());
            assertEquals(List.of("yes"), response.headers().get("x-answer"));
            assertEquals("POST application/json s3cret {\"a\":1}", received.get());
            assertEquals(before + 1, hits.get());
        }
    }

    @Test
    void decimalAndOctalAddressFormsDoNotBypassTheCheck() throws Exception {
        AtomicInteger hits = new AtomicInteger();
        HttpServer server = server(InetAddress.getLoopbackAddress());
        server.createContext("/", exchange -> {
            hits.incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        int port = server.getAddress().getPort();
        // 2130706433 is 127.0.0.1 written as one decimal number: the JDK connects to it as such, so it is refused
        URI decimal = URI.create("http://2130706433:" + port + "/");
        assertThrows(RefusedHostException.class, () -> client(HostStrategy.EXTERNAL_ONLY).send(get(decimal)));
        assertEquals(0, hits.get());
        assertEquals(204, client(HostStrategy.ALLOW_ALL).send(get(decimal)).status(), "it really is the loopback address");
        assertEquals(1, hits.get());
        // octal and hexadecimal forms are not addresses to the JDK: they are looked up as names, do not resolve, and
        // nothing is connected to
        for (String host : List.of("017700000001", "0x7f000001")) {
            URI url = URI.create("http://" + host + ":" + port + "/");
            assertThrows(java.net.UnknownHostException.class, () -> client(HostStrategy.EXTERNAL_ONLY).send(get(url)));
        }
        // dotted octal is read as decimal by the JDK (0177.0.0.1 is 177.0.0.1, a public address): never the loopback
        assertTrue(HostStrategy.EXTERNAL_ONLY.allows(InetAddress.getByName("0177.0.0.1")));
        assertEquals(1, hits.get());
    }

    @Test
    void aRedirectToLoopbackIsNotFollowed() throws Exception {
        // The first hop must be allowed: a receiver on this machine's own non-loopback address, allowed by allow-private
        Optional<InetAddress> own = ownAddress();
        Assumptions.assumeTrue(own.isPresent(), "this machine has no non-loopback IPv4 address");
        AtomicInteger loopbackHits = new AtomicInteger();
        HttpServer target = server(InetAddress.getLoopbackAddress());
        target.createContext("/secret", exchange -> {
            loopbackHits.incrementAndGet();
            byte[] body = "secret".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        AtomicInteger firstHops = new AtomicInteger();
        HttpServer redirector = server(own.get());
        redirector.createContext("/go", exchange -> {
            firstHops.incrementAndGet();
            exchange.getResponseHeaders().add("Location", "http://127.0.0.1:" + target.getAddress().getPort() + "/secret");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        URI url = URI.create("http://" + own.get().getHostAddress() + ":" + redirector.getAddress().getPort() + "/go");

        OutboundHttp guarded = client(HostStrategy.ALLOW_PRIVATE);
        guarded.check(url);
        assertThrows(RefusedHostException.class, () -> guarded.send(get(url)));
        assertEquals(1, firstHops.get(), "the allowed first hop was fetched");
        assertEquals(0, loopbackHits.get(), "the refused redirect target was not");

        OutboundHttp.Response followed = client(HostStrategy.ALLOW_ALL).send(get(url));
        assertEquals(200, followed.status());
        assertEquals("secret", followed.bodyText());
        assertEquals(1, loopbackHits.get());
    }

    @Test
    void aSlowReceiverTimesOut() throws Exception {
        HttpServer server = server(InetAddress.getLoopbackAddress());
        server.createContext("/", exchange -> {
            try {
                Thread.sleep(3000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
        long start = System.nanoTime();
        assertThrows(SocketTimeoutException.class, () -> client(HostStrategy.ALLOW_ALL)
                .send(new OutboundHttp.Request("GET", url, null, null, Duration.ofMillis(300))));
        assertTrue(System.nanoTime() - start < 2_500_000_000L);
    }

    @Test
    void emptyBodiesAndErrorStatusesAreResponses() throws Exception {
        HttpServer server = server(InetAddress.getLoopbackAddress());
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        OutboundHttp.Response response = client(HostStrategy.ALLOW_ALL)
                .send(get(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/")));
        assertEquals(503, response.status());
        assertArrayEquals(new byte[0], response.body());
        assertEquals("", response.bodyText());
    }

    private static OutboundHttp.Request get(URI url) {
        return new OutboundHttp.Request("GET", url, null, null, Duration.ofSeconds(5));
    }

    private OutboundHttp client(HostStrategy strategy) {
        OutboundHttp client = new OutboundHttp(strategy);
        clients.add(client);
        return client;
    }

    private HttpServer server(InetAddress address) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(address, 0), 0);
        server.start();
        servers.add(server);
        return server;
    }

    private static Optional<InetAddress> ownAddress() throws IOException {
        for (NetworkInterface nic : java.util.Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress address : java.util.Collections.list(nic.getInetAddresses())) {
                if (address instanceof Inet4Address && !address.isLoopbackAddress() && !address.isLinkLocalAddress()) {
                    return Optional.of(address);
                }
            }
        }
        return Optional.empty();
    }
}
