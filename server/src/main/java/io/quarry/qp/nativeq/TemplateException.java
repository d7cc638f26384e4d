package io.quarry.qp.nativeq;

/** A native query template that cannot be parsed or filled in; the message is shown to the person who wrote it. */
public final class TemplateException extends RuntimeException {
    public TemplateException(String message) {
        super(message);
    }
}
