package io.quarry.mcp;

/** The text of {@code metabase://docs/construct-query.md}: how to write the queries the tools take (Quarry's own words). */
final class McpGuide {
    static final String CONSTRUCT_QUERY = """
            # Writing a query for construct_query

            Pass `query` as a structured (MBQL) dataset query, the shape `POST /api/dataset` takes:

            ```json
            {"database": 1, "type": "query",
             "query": {"source-table": 12,
                       "aggregation": [["count"]],
                       "breakout": [["field", 34, {"temporal-unit": "month"}]],
                       "filter": ["=", ["field", 35, null], "Widget"],
                       "order-by": [["desc", ["aggregation", 0]]],
                       "limit": 10}}
            ```

            - Find tables with `search`, their ids and fields with `read_resource` on `metabase://table/{id}`.
            - A field is `["field", <field id>, null]`, or `["field", <field id>, {"temporal-unit": "month"}]`
              for dates; a field of a joined table through a foreign key is
              `["field", <field id>, {"source-field": <foreign key field id>}]`.
            - Aggregations: `["count"]`, `["sum", <field>]`, `["avg", <field>]`, `["min", <field>]`,
              `["max", <field>]`, `["distinct", <field>]`.
            - Filters: `["=", <field>, value...]`, `["!=", ...]`, `["<", <field>, n]`, `[">", ...]`,
              `["between", <field>, a, b]`, `["contains", <field>, "text"]`, `["is-null", <field>]`,
              `["and", f1, f2]`, `["or", f1, f2]`, `["not", f]`.
            - SQL is not a structured query: run it with `execute_sql` (it needs native query rights).

            construct_query answers a handle; pass it as `query` to `execute_query`, `query` (pages of 200 rows),
            `visualize_query` (a chart) and `create_question`.
            """;

    private McpGuide() {
    }
}
