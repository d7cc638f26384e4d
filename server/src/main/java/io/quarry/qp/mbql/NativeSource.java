package io.quarry.qp.mbql;

import static io.quarry.qp.mbql.Clauses.invalid;

import io.quarry.driver.Sql;
import io.quarry.driver.SqlDialect;
import io.quarry.qp.mbql.StageCompiler.Stage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A stage that is native SQL (a saved native question used as a source): its text without trailing semicolons, with
 * its own bound values, and no known columns ({@code SELECT *} reads them).
 */
final class NativeSource {
    private NativeSource() {
    }

    static Stage stage(Map<String, Object> query, SqlDialect d) {
        if (!(query.get("native") instanceof String sql) || sql.isBlank()) {
            throw invalid("A native source query needs its SQL in \"native\".");
        }
        if (query.get("template-tags") instanceof Map<?, ?> tags && !tags.isEmpty()) {
            throw invalid("Native source queries with template tags are not supported yet.");
        }
        String trimmed = sql.strip();
        while (trimmed.endsWith(";")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1).stripTrailing();
        }
        Sql text = query.get("params") instanceof List<?> params && !params.isEmpty()
                ? new SqlWithParams(trimmed, new ArrayList<>(params)).sql() : Sql.raw(trimmed);
        return new Stage(text, null, false);
    }

    /** Native SQL text with its own bound values (a saved native question used as a source). */
    private record SqlWithParams(String text, List<Object> values) {
        Sql sql() {
            Sql out = Sql.raw("");
            int from = 0;
            int used = 0;
            for (int i = 0; i < text.length(); i++) {
                if (text.charAt(i) == '?' && used < values.size()) {
                    out = out.append(text.substring(from, i)).append(Sql.param(values.get(used++)));
                    from = i + 1;
                }
            }
            return out.append(text.substring(from));
        }
    }
}
