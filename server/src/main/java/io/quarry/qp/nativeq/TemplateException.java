package io.quarry.qp.nativeq;

import java.util.Collection;
import java.util.stream.Collectors;

/** A native query template that cannot be parsed or filled in; the message is shown to the person who wrote it. */
public final class TemplateException extends RuntimeException {
    private final boolean missingParameter;

    public TemplateException(String message) {
        this(message, false);
    }

    private TemplateException(String message, boolean missingParameter) {
        super(message);
        this.missingParameter = missingParameter;
    }

    /** A required tag (declared {@code required}) that got no value and has no default: Metabase's message. */
    public static TemplateException pickAValue(String displayName) {
        return new TemplateException("You'll need to pick a value for '" + displayName + "' before this query can run.", true);
    }

    /**
     * Tags outside any optional clause that have no value (undeclared, or declared optional and not given), in
     * Metabase's words: {@code Cannot run the query: missing required parameters: #{"cat"}}.
     */
    public static TemplateException missing(Collection<String> names) {
        return new TemplateException("Cannot run the query: missing required parameters: #{"
                + names.stream().map(name -> "\"" + name + "\"").collect(Collectors.joining(" ")) + "}", true);
    }

    /** True when the query failed for want of a parameter value (Metabase's {@code missing-required-parameter}). */
    public boolean missingParameter() {
        return missingParameter;
    }
}
