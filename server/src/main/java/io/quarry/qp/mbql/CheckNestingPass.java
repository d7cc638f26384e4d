package io.quarry.qp.mbql;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * Refuses a query whose clauses nest deeper than any real question does, before the recursive passes and compilers
 * walk it (they would otherwise run out of stack). Walks iteratively, so the check itself cannot.
 */
final class CheckNestingPass implements MbqlPass {
    /** Lists and objects inside one another; Metabase's own questions stay far below this. */
    static final int MAX_NESTING = 256;

    @Override
    public String name() {
        return "check-nesting";
    }

    @Override
    public Map<String, Object> apply(Map<String, Object> query, Input input) {
        if (depth(query) > MAX_NESTING) {
            throw Clauses.invalid("The query is nested too deeply.");
        }
        return query;
    }

    /** How many lists and objects deep the value goes (a scalar is 0), counting no further than just past the limit. */
    static int depth(Object value) {
        record Node(Object value, int depth) {
        }
        Deque<Node> pending = new ArrayDeque<>();
        pending.push(new Node(value, 0));
        int deepest = 0;
        while (!pending.isEmpty()) {
            Node node = pending.pop();
            Iterable<?> children;
            if (node.value() instanceof Map<?, ?> map) {
                children = map.values();
            } else if (node.value() instanceof List<?> list) {
                children = list;
            } else {
                continue;
            }
            int depth = node.depth() + 1;
            deepest = Math.max(deepest, depth);
            if (depth > MAX_NESTING) {
                return depth;
            }
            for (Object child : children) {
                pending.push(new Node(child, depth));
            }
        }
        return deepest;
    }
}
