package io.quarry.mcp;

import io.quarry.card.CardService;
import io.quarry.collection.CollectionService;
import io.quarry.dashboard.DashboardService;
import io.quarry.permission.DataPermissions;
import io.quarry.qp.QueryProcessor;
import io.quarry.qp.run.QueryRunner;
import io.quarry.render.CardRenderer;
import io.quarry.search.SearchService;
import io.quarry.setting.Settings;
import io.quarry.warehouse.MetadataService;
import io.quarry.warehouse.TableQueryMetadata;
import java.time.Clock;

/** The built-in MCP server: its settings, its open sessions and its tools (over the services the REST API uses). */
public record McpModule(McpSettings settings, McpSessions sessions, McpTools tools) {
    public static McpModule create(Clock clock, Settings settings, SearchService search, MetadataService metadata,
                                   TableQueryMetadata tableMetadata, DataPermissions dataPermissions, QueryProcessor processor,
                                   QueryRunner runner, CardService cards, DashboardService dashboards,
                                   CollectionService collections, CardRenderer renderer) {
        McpSettings mcpSettings = McpSettings.register(settings);
        return new McpModule(mcpSettings, new McpSessions(clock), new McpTools(mcpSettings, search, metadata, tableMetadata,
                dataPermissions, processor, runner, cards, dashboards, collections, renderer));
    }
}
