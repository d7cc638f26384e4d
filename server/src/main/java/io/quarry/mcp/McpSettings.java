package io.quarry.mcp;

import io.quarry.setting.Setting;
import io.quarry.setting.Settings;

/**
 * The MCP server's settings, named as v0.63's: {@code mcp-enabled?} (the server answers at all) and
 * {@code mcp-execute-sql-enabled} (the {@code execute_sql} tool is listed and runs). Both default to on, as
 * Metabase's; each is also read from its {@code MB_*} variable ({@code MB_MCP_ENABLED}, {@code MB_MCP_EXECUTE_SQL_ENABLED}).
 */
public final class McpSettings {
    public static final String ENABLED = "mcp-enabled?";
    public static final String EXECUTE_SQL_ENABLED = "mcp-execute-sql-enabled";

    private final Settings settings;

    private McpSettings(Settings settings) {
        this.settings = settings;
    }

    static McpSettings register(Settings settings) {
        settings.register(
                Setting.of(ENABLED, Setting.Type.BOOLEAN).visibility(Setting.Visibility.PUBLIC).defaultValue(true)
                        .description("Whether the MCP server at /api/metabase-mcp answers.").build(),
                Setting.of(EXECUTE_SQL_ENABLED, Setting.Type.BOOLEAN).visibility(Setting.Visibility.ADMIN).defaultValue(true)
                        .description("Whether MCP clients may run SQL (the execute_sql tool); native query rights still apply.")
                        .build());
        return new McpSettings(settings);
    }

    boolean enabled() {
        return settings.bool(ENABLED);
    }

    boolean executeSqlEnabled() {
        return settings.bool(EXECUTE_SQL_ENABLED);
    }
}
