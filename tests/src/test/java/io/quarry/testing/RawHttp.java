package io.quarry.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** A minimal blocking HTTP/1.1 client on one keep-alive connection, as curl or a script would talk to Quarry. */
public final class RawHttp implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final String host;

    public RawHttp(URI base) throws IOException {
        socket = new Socket(base.getHost(), base.getPort());
        socket.setTcpNoDelay(true);
        // a server that stops answering fails the caller instead of hanging it (a test, a benchmark)
        socket.setSoTimeout(60_000);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        host = base.getHost() + ":" + base.getPort();
    }

    public record Answer(int status, byte[] body) {
    }

    public Answer send(String method, String path, String headers, byte[] body) throws IOException {
        StringBuilder head = new StringBuilder().append(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ").append(host)
                .append("\r\n").append(headers);
        if (body != null) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.US_ASCII);
        if (body != null) {
            byte[] all = new byte[h.length + body.length];
            System.arraycopy(h, 0, all, 0, h.length);
            System.arraycopy(body, 0, all, h.length, body.length);
            out.write(all);
        } else {
            out.write(h);
        }
        out.flush();
        String status = line();
        int code = Integer.parseInt(status.substring(9, 12));
        long length = -1;
        boolean chunked = false;
        String line;
        while (!(line = line()).isEmpty()) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(lower.substring(15).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            }
        }
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        if (chunked) {
            while (true) {
                int size = Integer.parseInt(line().split(";")[0].trim(), 16);
                if (size == 0) {
                    line();
                    break;
                }
                content.write(in.readNBytes(size));
                line();
            }
        } else if (length >= 0) {
            content.write(in.readNBytes((int) length));
        }
        return new Answer(code, content.toByteArray());
    }

    private String line() throws IOException {
        StringBuilder s = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                break;
            }
            if (c != '\r') {
                s.append((char) c);
            }
        }
        return s.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
