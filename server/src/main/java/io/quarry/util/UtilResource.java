package io.quarry.util;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.auth.Passwords;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Body;
import io.quarry.web.param.ParamRule;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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

    /**
     * {@code /api/logger} (Metabase 0.55+): the last log events, and the temporary log-level adjustment of Metabase's
     * "Logs" admin page ({@code GET /presets}, {@code POST} and {@code DELETE /adjustment}), for administrators.
     */
    @Path("logger")
    @Produces(MediaType.APPLICATION_JSON)
    @Consumes(MediaType.APPLICATION_JSON)
    public static final class Logger {
        private static final Map<String, TimeUnit> UNITS = Map.of("days", TimeUnit.DAYS, "hours", TimeUnit.HOURS,
                "minutes", TimeUnit.MINUTES, "seconds", TimeUnit.SECONDS, "milliseconds", TimeUnit.MILLISECONDS,
                "microseconds", TimeUnit.MICROSECONDS, "nanoseconds", TimeUnit.NANOSECONDS);

        private final UtilResource util;
        private final LogLevels logLevels;

        @Inject
        public Logger(Passwords passwords, Diagnostics diagnostics, LogLevels logLevels) {
            this.util = new UtilResource(passwords, diagnostics);
            this.logLevels = logLevels;
        }

        @GET
        @Path("logs")
        @Access(Access.Level.SUPERUSER)
        public List<Map<String, Object>> logs() {
            return util.logs();
        }

        @GET
        @Path("presets")
        @Access(Access.Level.SUPERUSER)
        public List<Map<String, Object>> presets() {
            return LogLevels.presets();
        }

        /**
         * {@code {"duration": 30, "duration_unit": "minutes", "log_levels": {"io.quarry.sync": "debug"}}}: sets the
         * levels for that long (replacing any adjustment still running); {@code {}} levels undo it. 204.
         */
        @POST
        @Path("adjustment")
        @Access(Access.Level.SUPERUSER)
        public Response adjust(JsonNode json) {
            Body body = Body.of(json);
            JsonNode duration = body.get("duration");
            if (duration == null || !duration.isIntegralNumber() || !duration.canConvertToInt()) {
                throw ApiException.withErrors(400, Map.of("duration", "integer"), Map.of("duration", List.of("should be an integer")));
            }
            JsonNode unit = body.get("duration_unit");
            if (unit == null || !unit.isTextual() || !UNITS.containsKey(unit.asText())) {
                String allowed = String.join(", ", List.of("days", "hours", "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds"));
                throw ApiException.withErrors(400, Map.of("duration_unit", "enum of " + allowed),
                        Map.of("duration_unit", List.of("should be either " + allowed)));
            }
            JsonNode levels = body.get("log_levels");
            if (levels == null || !levels.isObject()) {
                String type = levels == null || levels.isNull() ? "null" : levels.isBoolean() ? "boolean" : levels.isNumber() ? "number"
                        : levels.isTextual() ? "string" : levels.isArray() ? "array" : "something strange";
                throw ApiException.withErrors(400, Map.of("_error", "Log levels should be an object, " + type + " received"),
                        Map.of("log_levels", List.of("invalid type, received: " + type)));
            }
            Map<String, String> wanted = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> entry : levels.properties()) {
                String level = entry.getValue().isTextual() ? entry.getValue().asText().toLowerCase(Locale.ROOT) : "";
                if (!LogLevels.LEVELS.contains(level) || !LogLevels.adjustable(entry.getKey())) {
                    throw ApiException.withErrors(400, Map.of("_error", "The format of the provided logging configuration is incorrect."
                                    + " Please follow the following JSON structure:\n{\n  \"namespace\": \"trace\" | \"debug\" | \"info\""
                                    + " | \"warn\" | \"error\" | \"fatal\" | \"off\"\n}"),
                            Map.of("log_levels", List.of(LogLevels.adjustable(entry.getKey())
                                    ? entry.getKey() + ": should be one of trace, debug, info, warn, error, fatal, off"
                                    : entry.getKey() + ": this logger cannot be adjusted (it would log connection details)")));
                }
                wanted.put(entry.getKey(), level);
            }
            long millis = UNITS.get(unit.asText()).toMillis(duration.asInt());
            logLevels.adjust(wanted, millis);
            return Response.noContent().build();
        }

        /** Puts the loggers back at once. 204. */
        @DELETE
        @Path("adjustment")
        @Access(Access.Level.SUPERUSER)
        public Response reset() {
            logLevels.reset();
            return Response.noContent().build();
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
