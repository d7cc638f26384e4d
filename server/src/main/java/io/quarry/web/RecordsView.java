package io.quarry.web;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a resource method that opens one item ({@code GET /api/card/:id}, ...): a successful answer to a signed-in
 * caller is recorded as their view of the item named by the {@code id} path parameter (Metabase's read events, which
 * feed {@code /api/activity/recent_views}), unless the request says {@code ignore_view=true}. The recording is
 * attached by the activity module; the resource's module needs nothing else.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface RecordsView {
    /** The kind of item: {@code card}, {@code dashboard}, {@code table} or {@code collection}. */
    String value();
}
