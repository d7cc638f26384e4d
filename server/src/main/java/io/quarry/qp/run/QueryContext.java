package io.quarry.qp.run;

/**
 * Why a query runs, as Metabase's execution context: it picks the runner's steps and is what the result says under
 * {@code context}. {@code PUBLIC} and {@code EMBED} run a saved card with its own rights (API answer or download);
 * {@code SUBSCRIPTION} runs a card for rendering (e-mails, webhooks, previews) or as a subscription's attachment, with
 * the rights of the subscription's creator (or the previewing caller); {@code PERSISTENCE_REFRESH} runs a persisted
 * model's query into its table ({@link QueryRunner#materialize}). {@code INTERNAL}, {@code PARAMETER_VALUES} and
 * {@code SHARED_PARAMETER_VALUES} are queries Quarry reads itself ({@link QueryRunner#columns},
 * {@link QueryRunner#rows}): no client ever receives them as a result.
 */
public enum QueryContext {
    /** {@code POST /api/dataset} (and its pivot form). */
    AD_HOC("ad-hoc"),
    /**
     * A table's rows as the data-model grid reads them ({@code GET /api/table/:id/data}): an ad-hoc query with the
     * caller's rights; its result leaves out {@code json_query}, {@code context} and {@code average_execution_time}.
     */
    TABLE_GRID("table-grid"),
    /** A saved question: {@code POST /api/card/:id/query} (and its pivot form). */
    QUESTION("question"),
    /** A dashcard's card with the dashboard's parameters. */
    DASHBOARD_CARD("dashboard"),
    /** A download (ad-hoc, card or dashcard); the result says {@code csv-download}, {@code api-download}... */
    EXPORT(null),
    PUBLIC("public-question"),
    EMBED("embedded-question"),
    SUBSCRIPTION("pulse"),
    PERSISTENCE_REFRESH("persistence-refresh"),
    /** A saved card's result metadata, computed when it is saved: the caller's ad-hoc rights. */
    INTERNAL("internal"),
    /** The values of a card's or dashboard's filter: the caller's rights on a saved question (only blocked data refused). */
    PARAMETER_VALUES("internal"),
    /**
     * The values of a public link's or signed embed's filter: with the shared object's rights (Metabase reads them as
     * an administrator); the resource checked the link or token.
     */
    SHARED_PARAMETER_VALUES("internal");

    /** Metabase's name of the context in a result; null where it depends on the request (downloads). */
    public final String key;

    QueryContext(String key) {
        this.key = key;
    }
}
