package io.quarry.qp.mbql;

import java.util.Map;

/** MBQL 5 stages or a legacy inner query, as one canonical legacy inner query ({@link LegacyNormalizer}). */
final class NormalizePass implements MbqlPass {
    @Override
    public String name() {
        return "normalize";
    }

    @Override
    public Map<String, Object> apply(Map<String, Object> query, Input input) {
        return MbqlCompiler.legacy(query);
    }
}
