package io.quarry.web.security;

/**
 * Who may show Quarry's pages and answers in a frame, besides the embedding and public paths anyone may frame: the
 * origins of interactive embedding. The composition root puts one in the servlet context under {@link #ATTRIBUTE};
 * without one (still starting), nobody may.
 */
public interface FrameAncestors {
    String ATTRIBUTE = FrameAncestors.class.getName();

    /** The origins allowed to frame, space-separated CSP source expressions; null or empty for none. */
    String origins();
}
