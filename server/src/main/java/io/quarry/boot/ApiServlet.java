package io.quarry.boot;

import io.quarry.util.RequestMeters;
import io.quarry.web.body.UnreadBodies;
import io.quarry.web.security.CallerFactory;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import org.glassfish.jersey.servlet.ServletContainer;
import org.slf4j.LoggerFactory;

/**
 * Jersey's servlet, started only once Quarry is: start-up (migrations included) runs in the background, and until it
 * is done this servlet answers for the API itself — {@code /api/health} with 503 and progress, anything else with
 * 503 and a plain message, as Metabase does.
 */
public final class ApiServlet extends ServletContainer {
    private volatile boolean jerseyStarted;

    @Override
    public void init() {
        // Deferred: Jersey's application needs Quarry's services, which do not exist yet.
    }

    @Override
    public void service(ServletRequest req, ServletResponse res) throws ServletException, IOException {
        AppState state = AppState.of(getServletContext());
        if (state == null || !state.ready()) {
            answerStarting((HttpServletRequest) req, (HttpServletResponse) res, state);
            return;
        }
        if (!jerseyStarted) {
            startJersey((HttpServletRequest) req);
        }
        req.setAttribute(UnreadBodies.SERVLET_REQUEST, req);
        RequestMeters meters = state.quarry().requestMeters;
        long started = meters.started();
        try {
            super.service(req, res);
        } finally {
            CallerFactory.forgetOnThisThread();
            meters.finished(((HttpServletRequest) req).getMethod(), ((HttpServletResponse) res).getStatus(), started);
        }
    }

    private synchronized void startJersey(HttpServletRequest first) throws ServletException {
        if (!jerseyStarted) {
            super.init();
            jerseyStarted = true;
            // the port is known only with a request: a container may listen on several
            LoggerFactory.getLogger(ApiServlet.class).info("Quarry answers at {}://{}:{}{}/api (first request, local port {})",
                    first.getScheme(), first.getServerName(), first.getServerPort(), first.getContextPath(), first.getLocalPort());
        }
    }

    @Override
    public void destroy() {
        if (jerseyStarted) {
            super.destroy();
        }
    }

    private static void answerStarting(HttpServletRequest request, HttpServletResponse response, AppState state) throws IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        String problem = state == null ? null : state.problem();
        response.setStatus(503);
        if (state != null && state.retrying()) {
            response.setHeader("Retry-After", "5");
        }
        if (path.equals("/api/health") || path.equals("/api/health/")) {
            response.setContentType("application/json;charset=utf-8");
            if (problem != null) {
                // Metabase's status, plus what is wrong and whether Quarry keeps trying (Quarry's own keys).
                response.getWriter().write("{\"status\":\"Unable to get app-db connection\",\"message\":" + jsonString(problem)
                        + ",\"retrying\":" + state.retrying() + "}");
            } else {
                response.getWriter().write(String.format(Locale.ROOT, "{\"status\":\"initializing\",\"progress\":%.2f}",
                        state == null ? 0.0 : state.progress()));
            }
        } else {
            response.setContentType("text/plain;charset=utf-8");
            response.getWriter().write(problem != null ? "Quarry cannot start: " + problem
                    : "Quarry is still initializing. Please sit tight...");
        }
    }

    private static String jsonString(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
