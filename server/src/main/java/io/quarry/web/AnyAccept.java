package io.quarry.web;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
import java.util.List;

/**
 * Metabase answers whatever a client's {@code Accept} says: an HTML preview to {@code Accept: application/json}, JSON
 * to {@code Accept: text/html}, and so does Quarry, for every endpoint at once. Before Jersey picks a method, every
 * request's {@code Accept} gets {@code *}{@code /*} at the lowest preference added, so no method is refused for its
 * type (Jersey's 406) while the client's own preferences still rank first where a path offers several; a header that
 * cannot be read as media types becomes {@code *}{@code /*} (Jersey would answer it 400). The one exception is Metabase's
 * too: a client that names {@code text/event-stream} is negotiating a streamed reply (the MCP transport picks its reply
 * format from {@code Accept}), so its header is left as it is. The header as the client sent it stays readable as the
 * request property {@value #ORIGINAL}.
 */
@Provider
@PreMatching
@Priority(Priorities.HEADER_DECORATOR)
public final class AnyAccept implements ContainerRequestFilter {
    static final String ANY = "*/*;q=0.001";
    /** The request property holding the {@code Accept} header as sent. */
    public static final String ORIGINAL = "quarry.accept";

    @Override
    public void filter(ContainerRequestContext request) {
        List<String> values = request.getHeaders().get(HttpHeaders.ACCEPT);
        if (values == null || values.isEmpty()) {
            return; // no Accept: anything is acceptable already
        }
        String sent = String.join(",", values);
        request.setProperty(ORIGINAL, sent);
        if (!sent.contains("text/event-stream")) {
            request.getHeaders().putSingle(HttpHeaders.ACCEPT, widened(sent));
        }
    }

    /** The header with {@code *}{@code /*} added, or only that when it does not parse. */
    static String widened(String accept) {
        if (accept.isBlank()) {
            return "*/*";
        }
        for (String part : accept.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            try {
                MediaType type = MediaType.valueOf(part.trim());
                String q = type.getParameters().get("q");
                if (q != null && !q.matches("(0(\\.\\d{0,3})?|1(\\.0{0,3})?)")) {
                    return "*/*"; // a preference Jersey cannot read
                }
                if (type.isWildcardType() && type.isWildcardSubtype() && !part.contains("q=")) {
                    return accept; // already takes anything
                }
            } catch (IllegalArgumentException unreadable) {
                return "*/*";
            }
        }
        return accept + ", " + ANY;
    }
}
