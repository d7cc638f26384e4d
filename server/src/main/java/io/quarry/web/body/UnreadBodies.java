package io.quarry.web.body;

import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import java.io.IOException;

/**
 * Before an answer is written, reads whatever the request body still holds, so the connection can carry the client's
 * next request. Some answers come before the body is read: a 401 or 403 for an upload refused before its form is
 * parsed, the body of a content type Metabase ignores, a 413. Left alone, the container sees unread bytes when the
 * answer completes; if they have not all arrived yet it closes the connection after the answer, which a client that
 * pools connections may already have taken back for its next request (that request then fails with no answer at all).
 * A rest of up to {@link #DRAIN_LIMIT} bytes is read and dropped (as Tomcat swallows up to 2 MB); a larger or
 * unknown rest makes the answer say {@code Connection: close}, so the client opens a new connection.
 */
public final class UnreadBodies implements ContainerResponseFilter {
    static final int DRAIN_LIMIT = 1024 * 1024;
    /**
     * The request attribute holding the servlet request itself, set by the API servlet: read as a property of the
     * request context (Jersey's properties are the servlet request's attributes), it costs nothing, where a
     * {@code @Context HttpServletRequest} in a singleton is a proxy resolved through the injector on every call.
     */
    public static final String SERVLET_REQUEST = "io.quarry.servletRequest";

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (!(request.getProperty(SERVLET_REQUEST) instanceof HttpServletRequest servletRequest)) {
            return;
        }
        long declared = servletRequest.getContentLengthLong();
        if (declared == 0 || declared < 0 && servletRequest.getHeader("Transfer-Encoding") == null) {
            return;
        }
        if (!drained(servletRequest, declared)) {
            response.getHeaders().putSingle("Connection", "close");
        }
    }

    /**
     * Whether the body is now read to its end: it already was (a large body read whole by its endpoint keeps its
     * connection too), or its rest fitted within the limit. A declared length over the limit is not read at all.
     */
    private static boolean drained(HttpServletRequest servletRequest, long declared) {
        try {
            ServletInputStream in = servletRequest.getInputStream();
            if (in.isFinished()) {
                return true;
            }
            if (declared > DRAIN_LIMIT) {
                return false;
            }
            // A body read to exactly its declared length (RequestBodies reads a small JSON body so) has not seen its
            // end yet: one read tells, without the buffer (8 KB of garbage for every card query)
            if (in.read() < 0) {
                return true;
            }
            byte[] buffer = new byte[8192];
            long total = 1;
            for (int n; (n = in.read(buffer)) >= 0; ) {
                total += n;
                if (total > DRAIN_LIMIT) {
                    return false;
                }
            }
            return true;
        } catch (IOException | IllegalStateException unreadable) {
            // a broken stream, or one already taken as a reader: nothing more can be read from it
            return false;
        }
    }
}
