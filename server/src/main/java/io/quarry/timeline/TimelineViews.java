package io.quarry.timeline;

import java.util.LinkedHashMap;
import java.util.Map;

/** The JSON forms of timelines and events, with Metabase's keys ({@code default}, {@code timestamp}). */
final class TimelineViews {
    private TimelineViews() {
    }

    static Map<String, Object> timeline(Timeline t) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", t.id);
        v.put("entity_id", t.entityId);
        v.put("name", t.name);
        v.put("description", t.description);
        v.put("icon", "balloons".equals(t.icon) ? "star" : t.icon);
        v.put("collection_id", t.collectionId);
        v.put("archived", t.archived);
        v.put("default", t.isDefault);
        v.put("creator_id", t.creatorId);
        v.put("created_at", t.createdAt);
        v.put("updated_at", t.updatedAt);
        return v;
    }

    static Map<String, Object> event(TimelineEvent e) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", e.id);
        v.put("timeline_id", e.timelineId);
        v.put("name", e.name);
        v.put("description", e.description);
        v.put("timestamp", e.eventAt == null ? null : e.eventAt.withOffsetSameInstant(java.time.ZoneOffset.UTC));
        v.put("time_matters", e.timeMatters);
        v.put("timezone", e.timezone);
        v.put("icon", "balloons".equals(e.icon) ? "star" : e.icon);
        v.put("archived", e.archived);
        v.put("creator_id", e.creatorId);
        v.put("created_at", e.createdAt);
        v.put("updated_at", e.updatedAt);
        return v;
    }
}
