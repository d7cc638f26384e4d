package io.quarry.web;

import io.quarry.core.AppConfig;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One log line per request when {@code MB_LOG_REQUESTS=true} (off by default), on this class's logger:
 * {@code GET /api/card/12 200 35 ms}. The line holds the method, the path, the status and the time, nothing else: no
 * query string, no header, no body, and the path segments that can be credentials (a signed embedding token, a public
 * link's UUID, a password-reset token: any segment of 20 or more letters, digits and {@code -_.=}) are written as
 * {@code <secret>}.
 */
public final class RequestLogFilter extends HttpFilter {
    public static final String SETTING = "MB_LOG_REQUESTS";
    private static final Logger log = LoggerFactory.getLogger(RequestLogFilter.class);
    private static final Pattern SECRET_SEGMENT = Pattern.compile("[A-Za-z0-9_.=-]{20,}");

    private boolean enabled;

    @Override
    public void init(FilterConfig config) throws ServletException {
        super.init(config);
        Map<String, String> initParams = new HashMap<>();
        for (String name : Collections.list(config.getServletContext().getInitParameterNames())) {
            initParams.put(name, config.getServletContext().getInitParameter(name));
        }
        String value = AppConfig.layered(initParams).apply(SETTING);
        enabled = value != null && value.trim().toLowerCase(Locale.ROOT).equals("true");
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain) throws IOException, ServletException {
        if (!enabled || !log.isInfoEnabled()) {
            chain.doFilter(request, response);
            return;
        }
        long began = System.nanoTime();
        boolean async = false;
        try {
            chain.doFilter(request, response);
            if (request.isAsyncStarted()) {
                async = true;
                request.getAsyncContext().addListener(new AsyncListener() {
                    @Override
                    public void onComplete(AsyncEvent event) {
                        write(request, response.getStatus(), began);
                    }

                    @Override
                    public void onTimeout(AsyncEvent event) {
                    }

                    @Override
                    public void onError(AsyncEvent event) {
                    }

                    @Override
                    public void onStartAsync(AsyncEvent event) {
                    }
                });
            }
        } finally {
            if (!async) {
                write(request, response.getStatus(), began);
            }
        }
    }

    private static void write(HttpServletRequest request, int status, long began) {
        log.info("{} {} {} {} ms", request.getMethod(), loggablePath(request.getRequestURI()), status, (System.nanoTime() - began) / 1_000_000);
    }

    /** The path with every segment that could be a credential replaced by {@code <secret>}. */
    static String loggablePath(String path) {
        if (path == null) {
            return "";
        }
        String[] segments = path.split("/", -1);
        StringBuilder out = new StringBuilder(path.length());
        for (int i = 0; i < segments.length; i++) {
            if (i > 0) {
                out.append('/');
            }
            String segment = segments[i];
            out.append(SECRET_SEGMENT.matcher(segment).matches() && !segment.chars().allMatch(Character::isDigit) ? "<secret>" : segment);
        }
        return out.toString();
    }
}
