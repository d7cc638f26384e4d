package io.quarry.qp.mbql;

import java.util.List;
import java.util.Map;

/**
 * One named rewrite or check of a legacy inner query before it is compiled to SQL, in the manner of Metabase's
 * preprocessing middleware. A pass never mutates its input: it answers the same map, or a rewritten copy. The passes
 * and their order are listed in one place, {@link MbqlPasses}.
 */
interface MbqlPass {
    /** The pass's name in failures, kebab-case ("resolve-source-cards"). */
    String name();

    /** The query after this pass; an invalid query fails with an {@code invalid-query} failure. */
    Map<String, Object> apply(Map<String, Object> query, Input input);

    /**
     * What a pass may read besides the query: the compilation context, the query's parameters (query passes only)
     * and how deeply the stage is nested in source queries and joins (0 for the outermost stage).
     */
    record Input(MbqlCompiler.Context context, List<Map<String, Object>> parameters, int stageDepth) {
        public Input {
            parameters = parameters == null ? List.of() : parameters;
        }
    }
}
