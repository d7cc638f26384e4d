package io.quarry.qp.mbql;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A saved question named as a source ({@code "source-table": "card__7"}, of the stage or of one of its joins) becomes
 * that card's query as the {@code source-query}: an inner query for a structured card, {@code {"native": ...}} for a
 * native one. The card must exist and query the same database.
 */
final class ResolveSourceCardsPass implements MbqlPass {
    private static final String CARD_PREFIX = "card__";
    /**
     * Where a persisted model's table rides along with its source query, for {@link StageCompiler} to read instead. The
     * value is a {@link MbqlReferences.PersistedTable}, which no JSON a client sends can produce.
     */
    static final String PERSISTED_TABLE = "qp/persisted-table";

    @Override
    public String name() {
        return "resolve-source-cards";
    }

    @Override
    public Map<String, Object> apply(Map<String, Object> query, Input input) {
        if (query.get("native") != null) {
            return query;
        }
        Map<String, Object> out = resolve(query, input.context());
        if (out.get("joins") instanceof List<?> joins) {
            List<Object> resolved = new ArrayList<>(joins.size());
            boolean changed = false;
            for (Object join : joins) {
                Object r = join instanceof Map<?, ?> j ? resolve(Clauses.cast(j), input.context()) : join;
                changed |= r != join;
                resolved.add(r);
            }
            if (changed) {
                out = out == query ? new LinkedHashMap<>(query) : out;
                out.put("joins", resolved);
            }
        }
        return out;
    }

    /** The stage or join with its card source as a source query, or itself when it has none. */
    private static Map<String, Object> resolve(Map<String, Object> source, MbqlCompiler.Context context) {
        if (!(source.get("source-table") instanceof String reference) || !reference.startsWith(CARD_PREFIX)) {
            return source;
        }
        Map<String, Object> out = new LinkedHashMap<>(source);
        out.remove("source-table");
        out.put("source-query", cardQuery(reference, context));
        return out;
    }

    /** A saved question as a source: its query as an inner query, or a "not found" failure. */
    static Map<String, Object> cardQuery(String reference, MbqlCompiler.Context context) {
        long id;
        try {
            id = Long.parseLong(reference.substring(CARD_PREFIX.length()));
        } catch (NumberFormatException e) {
            throw Clauses.invalid("Invalid source table \"" + reference + "\".");
        }
        MbqlReferences.CardQuery card = context.references().card(id);
        if (card == null || card.datasetQuery() == null) {
            throw Clauses.invalid("Card " + id + " not found.");
        }
        if (card.databaseId() != context.databaseId()) {
            throw Clauses.invalid("Card " + id + " belongs to another database.");
        }
        Map<String, Object> source = sourceQuery(id, card.datasetQuery());
        if (card.persisted() != null) {
            source = new LinkedHashMap<>(source);
            source.put(PERSISTED_TABLE, card.persisted());
        }
        return source;
    }

    private static Map<String, Object> sourceQuery(long id, Map<String, Object> query) {
        if ("mbql/query".equals(query.get("lib/type")) && query.get("stages") instanceof List<?> stages) {
            return LegacyNormalizer.query(Mbql5.toLegacy(stages));
        }
        Object type = query.get("type");
        if ("query".equals(type) && query.get("query") instanceof Map<?, ?> inner) {
            return LegacyNormalizer.query(inner);
        }
        if ("native".equals(type) && query.get("native") instanceof Map<?, ?> nativePart) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("native", nativePart.get("query"));
            if (nativePart.get("template-tags") != null) {
                out.put("template-tags", nativePart.get("template-tags"));
            }
            if (nativePart.get("params") != null) {
                out.put("params", nativePart.get("params"));
            }
            return out;
        }
        throw Clauses.invalid("Card " + id + " has no query Quarry can use as a source.");
    }
}
