package io.quarry.web;

import io.quarry.appdb.RequestWaits;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Marks the thread serving a request for the application database's pool, which then bounds every wait of the
 * request on the database by {@code MB_APPLICATION_DB_REQUEST_TIMEOUT_SECONDS} (see {@link RequestWaits}).
 */
public final class AppDatabaseWaitFilter extends HttpFilter {
    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain) throws IOException, ServletException {
        RequestWaits.begin();
        try {
            chain.doFilter(request, response);
        } finally {
            RequestWaits.end();
        }
    }
}
