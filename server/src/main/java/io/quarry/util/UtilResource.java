package io.quarry.util;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.auth.Passwords;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Body;
import io.quarry.web.param.ParamRule;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * {@code /api/util}: the spec's utility endpoints. Metabase 0.55 moved most of them; the nested classes below serve the
 * new paths ({@code /api/session/password-check}, {@code /api/logger/logs}, {@code /api/bug-reporting/...},
 * {@code /api/analytics/anonymous-stats}) from the same methods.
 */
@Path("util")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class UtilResource {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Passwords passwords;
    private final Diagnostics diagnostics;

    @Inject
    public UtilResource(Passwords passwords, Diagnostics diagnostics) {
        this.passwords = passwords;
        this.diagnostics = diagnostics;
    }

    /** 32 random bytes as 64 lower-case hex digits, e.g. for {@code embedding-secret-key}. */
    @GET
    @Path("random_token")
    @Access(Access.Level.PUBLIC)
    public Map<String, Object> randomToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Map.of("token", HexFormat.of().formatHex(bytes));
    }

    /** {@code {"valid": true}}, or 400 {@code {"errors": {"password": "password is too common."}}}. */
    @POST
    @Path("password_check")
    @Access(Access.Level.PUBLIC)
    public Map<String, Object> passwordCheck(JsonNode json) {
        Body body = Body.of(json);
        JsonNode password = body.get("password", Body.Kind.STRING);
        if (!password.isTextual()) {
            // Metabase's schema for the field is ValidPassword, whose one message covers "missing" too.
            throw ApiException.invalidField("password", ParamRule.PASSWORD.message(false));
        }
        passwords.requireValid("password", password.asText());
        return Map.of("valid", true);
    }

    /** The last log events of this instance, newest first. */
    @GET
    @Path("logs")
    @Access(Access.Level.SUPERUSER)
    public List<Map<String, Object>> logs() {
        return LogBuffer.recent();
    }

    @GET
    @Path("bug_report_details")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> bugReportDetails() {
        return diagnostics.bugReport();
    }

    @GET
    @Path("stats")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> stats() {
        return diagnostics.anonymousStats();
    }

    /** Offered as a download, as Metabase does. */
    @GET
    @Path("diagnostic_info/connection_pool_info")
    @Access(Access.Level.SUPERUSER)
    public Response connectionPoolInfo() {
        return Response.ok(diagnostics.connectionPools())
                .header("Content-Disposition", "attachment; filename=\"connection_pool_info.json\"").build();
    }

    /** {@code POST /api/session/password-check} (Metabase 0.55+). */
    @Path("session/password-check")
    @Produces(MediaType.APPLICATION_JSON)
    @Consumes(MediaType.APPLICATION_JSON)
    public static final class PasswordCheck {
        private final UtilResource util;

        @Inject
        public PasswordCheck(Passwords passwords, Diagnostics diagnostics) {
            this.util = new UtilResource(passwords, diagnostics);
        }

        @POST
        @Access(Access.Level.PUBLIC)
        public Map<String, Object> check(JsonNode json) {
            return util.passwordCheck(json);
        }
    }

    /** {@code GET /api/logger/logs} (Metabase 0.55+). */
    @Path("logger")
    @Produces(MediaType.APPLICATION_JSON)
    public static final class Logger {
        private final UtilResource util;

        @Inject
        public Logger(Passwords passwords, Diagnostics diagnostics) {
            this.util = new UtilResource(passwords, diagnostics);
        }

        @GET
        @Path("logs")
        @Access(Access.Level.SUPERUSER)
        public List<Map<String, Object>> logs() {
            return util.logs();
        }
    }

    /** {@code GET /api/bug-reporting/details} and {@code .../connection-pool-details} (Metabase 0.55+). */
    @Path("bug-reporting")
    @Produces(MediaType.APPLICATION_JSON)
    public static final class BugReporting {
        private final UtilResource util;

        @Inject
        public BugReporting(Passwords passwords, Diagnostics diagnostics) {
            this.util = new UtilResource(passwords, diagnostics);
        }

        @GET
        @Path("details")
        @Access(Access.Level.SUPERUSER)
        public Map<String, Object> details() {
            return util.bugReportDetails();
        }

        @GET
        @Path("connection-pool-details")
        @Access(Access.Level.SUPERUSER)
        public Response connectionPoolDetails() {
            return util.connectionPoolInfo();
        }
    }

    /** {@code GET /api/analytics/anonymous-stats} (Metabase 0.55+). */
    @Path("analytics")
    @Produces(MediaType.APPLICATION_JSON)
    public static final class Analytics {
        private final UtilResource util;

        @Inject
        public Analytics(Passwords passwords, Diagnostics diagnostics) {
            this.util = new UtilResource(passwords, diagnostics);
        }

        @GET
        @Path("anonymous-stats")
        @Access(Access.Level.SUPERUSER)
        public Map<String, Object> anonymousStats() {
            return util.stats();
        }
    }
}
