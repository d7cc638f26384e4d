package io.quarry.timeline;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.Db;
import io.quarry.collection.CollectionAccess.Visible;
import io.quarry.collection.CollectionAccess;
import io.quarry.core.Caller;
import io.quarry.core.EntityIds;
import io.quarry.dashboard.BodyRules;
import io.quarry.dashboard.CardRow;
import io.quarry.dashboard.CollectionRow;
import io.quarry.dashboard.DashboardLookups;
import io.quarry.dashboard.DashboardViews;
import io.quarry.user.Creators;
import io.quarry.user.User;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.web.param.Body;
import java.time.Clock;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.ibatis.session.SqlSession;

/**
 * Timelines and their events. Both take the rights of the timeline's collection: reading needs read, changing needs
 * write (on the old and the new collection when moving). Archiving a timeline archives its events.
 */
public final class TimelineService {
    /** Metabase's icon enum for timelines and events; {@code star} is the default. */
    static final String[] ICONS = {"star", "cake", "mail", "warning", "bell", "cloud"};
    static final String CURATE = "You do not have curate permissions for this Collection.";

    private final Db db;
    private final CollectionAccess access;
    private final Clock clock;

    public TimelineService(Db db, CollectionAccess access, Clock clock) {
        this.db = db;
        this.access = access;
        this.clock = clock;
    }

    /** Which events to include: archived ones too when {@code all}; within [start, end] when given. */
    public record EventWindow(boolean all, OffsetDateTime start, OffsetDateTime end) {
        static final EventWindow LIVE = new EventWindow(false, null, null);
    }

    // --- timelines ------------------------------------------------------------------------------------------------------

    public Map<String, Object> create(Caller caller, JsonNode json) {
        Body body = Body.of(json).storedIn("timeline");
        String name = body.nonBlank("name");
        Boolean isDefault = BodyRules.optBoolean(body, "default");
        String description = BodyRules.optText(body, "description");
        String icon = body.optEnum("icon", ICONS);
        Long collectionId = body.optPosInt("collection_id");
        Boolean archived = BodyRules.optBoolean(body, "archived");
        body.throwIfInvalid();
        requireCurate(caller, collectionId);
        long userId = caller.id();
        return db.tx(session -> {
            TimelineMapper m = session.getMapper(TimelineMapper.class);
            Timeline t = new Timeline();
            t.entityId = EntityIds.next();
            t.name = name;
            t.description = description;
            t.icon = icon == null ? "star" : icon;
            t.collectionId = collectionId;
            t.archived = Boolean.TRUE.equals(archived);
            t.isDefault = Boolean.TRUE.equals(isDefault);
            t.creatorId = userId;
            t.createdAt = now();
            t.updatedAt = t.createdAt;
            m.insertTimeline(t);
            return TimelineViews.timeline(m.findTimeline(t.id));
        });
    }

    /** Every timeline the caller may read, archived or not, with events when asked. */
    public List<Map<String, Object>> list(Caller caller, boolean archived, boolean events) {
        Visible visible = access.visible(caller);
        return db.tx(session -> {
            List<Timeline> readable = session.getMapper(TimelineMapper.class).listTimelines(archived).stream()
                    .filter(t -> visible.canRead(t.collectionId)).toList();
            return views(session, visible, readable, events ? new EventWindow(archived, null, null) : null);
        });
    }

    public Map<String, Object> get(Caller caller, long id, boolean events, EventWindow window) {
        Visible visible = access.visible(caller);
        return db.tx(session -> {
            Timeline t = Checks.found(session.getMapper(TimelineMapper.class).findTimeline(id));
            Checks.permitted(visible.canRead(t.collectionId));
            return views(session, visible, List.of(t), events ? window : null).get(0);
        });
    }

    public Map<String, Object> update(Caller caller, long id, JsonNode json) {
        Body body = Body.of(json).storedIn("timeline");
        String name = body.optNonBlank("name");
        Boolean isDefault = BodyRules.optBoolean(body, "default");
        String description = BodyRules.optText(body, "description");
        String icon = body.optEnum("icon", ICONS);
        Long collectionId = body.optPosInt("collection_id");
        Boolean archived = BodyRules.optBoolean(body, "archived");
        body.throwIfInvalid();
        Visible visible = access.visible(caller);
        return db.tx(session -> {
            TimelineMapper m = session.getMapper(TimelineMapper.class);
            Timeline t = Checks.found(m.findTimeline(id));
            Checks.permitted(visible.canWrite(t.collectionId));
            if (body.has("collection_id") && !Objects.equals(collectionId, t.collectionId)) {
                requireCurate(session, caller, collectionId);
                t.collectionId = collectionId;
            }
            if (name != null) {
                t.name = name;
            }
            if (body.has("description")) {
                t.description = description;
            }
            if (body.has("icon")) {
                t.icon = icon;
            }
            if (isDefault != null) {
                t.isDefault = isDefault;
            }
            if (archived != null && archived != t.archived) {
                m.archiveEventsOf(id, archived);
            }
            if (archived != null) {
                t.archived = archived;
            }
            t.updatedAt = now();
            m.updateTimeline(t);
            return views(session, visible, List.of(m.findTimeline(id)), null).get(0);
        });
    }

    public void delete(Caller caller, long id) {
        db.run(session -> {
            TimelineMapper m = session.getMapper(TimelineMapper.class);
            Timeline t = Checks.found(m.findTimeline(id));
            Checks.permitted(access.canWrite(caller, t.collectionId));
            m.deleteTimeline(id);
        });
    }

    /** {@code GET /api/collection/:id/timelines} ({@code null} = Root): the collection must exist and be readable. */
    public List<Map<String, Object>> ofCollection(Caller caller, Long collectionId, boolean archived, boolean events) {
        Visible visible = access.visible(caller);
        return db.tx(session -> {
            if (collectionId != null) {
                Checks.found(DashboardLookups.collection(session, collectionId));
            }
            Checks.permitted(visible.canRead(collectionId));
            List<Timeline> timelines = session.getMapper(TimelineMapper.class).timelinesOfCollection(collectionId, archived);
            return views(session, visible, timelines, events ? EventWindow.LIVE : null);
        });
    }

    /** {@code GET /api/card/:id/timelines}: the live timelines of the card's collection, events within the window. */
    public List<Map<String, Object>> ofCard(Caller caller, long cardId, boolean events, EventWindow window) {
        Visible visible = access.visible(caller);
        return db.tx(session -> {
            CardRow card = Checks.found(DashboardLookups.card(session, cardId));
            Checks.permitted(visible.canRead(card.collectionId));
            List<Timeline> timelines = session.getMapper(TimelineMapper.class).timelinesOfCollection(card.collectionId, false);
            return views(session, visible, timelines, events ? window : null);
        });
    }

    // --- events ---------------------------------------------------------------------------------------------------------

    public Map<String, Object> createEvent(Caller caller, JsonNode json) {
        Body body = Body.of(json).storedIn("timeline_event");
        String name = body.nonBlank("name");
        String description = BodyRules.optText(body, "description");
        OffsetDateTime timestamp = temporal(body, "timestamp", false);
        Boolean timeMatters = BodyRules.optBoolean(body, "time_matters");
        String timezone = BodyRules.text(body, "timezone");
        String icon = body.optEnum("icon", ICONS);
        Long timelineId = body.posInt("timeline_id");
        body.optEnum("source", "collections", "question");
        body.optPosInt("question_id");
        Boolean archived = BodyRules.optBoolean(body, "archived");
        body.throwIfInvalid();
        long userId = caller.id();
        Timeline timeline = db.with(TimelineMapper.class, m -> m.findTimeline(timelineId));
        if (timeline == null) {
            throw new ApiException(404, "Timeline with id " + timelineId + " not found");
        }
        requireCurate(caller, timeline.collectionId);
        return db.tx(session -> {
            TimelineMapper m = session.getMapper(TimelineMapper.class);
            TimelineEvent e = new TimelineEvent();
            e.timelineId = timelineId;
            e.name = name;
            e.description = description;
            e.eventAt = timestamp;
            e.timeMatters = Boolean.TRUE.equals(timeMatters);
            e.timezone = timezone;
            e.icon = icon != null ? icon : timeline.icon;
            e.archived = Boolean.TRUE.equals(archived);
            e.creatorId = userId;
            e.createdAt = now();
            e.updatedAt = e.createdAt;
            m.insertEvent(e);
            return TimelineViews.event(m.findEvent(e.id));
        });
    }

    public Map<String, Object> getEvent(Caller caller, long id) {
        return db.tx(session -> {
            TimelineMapper m = session.getMapper(TimelineMapper.class);
            TimelineEvent e = Checks.found(m.findEvent(id));
            Checks.permitted(access.canRead(caller, m.findTimeline(e.timelineId).collectionId));
            return TimelineViews.event(e);
        });
    }

    /** Events the caller may read (not in Metabase v0.63, which lists events through timelines), newest last. */
    public List<Map<String, Object>> listEvents(Caller caller, Long timelineId, boolean archived) {
        Visible visible = access.visible(caller);
        return db.tx(session -> {
            TimelineMapper m = session.getMapper(TimelineMapper.class);
            List<Timeline> timelines = new ArrayList<>();
            if (timelineId != null) {
                Timeline t = Checks.found(m.findTimeline(timelineId));
                Checks.permitted(visible.canRead(t.collectionId));
                timelines.add(t);
            } else {
                timelines.addAll(m.listTimelines(false));
                timelines.addAll(m.listTimelines(true));
                timelines.removeIf(t -> !visible.canRead(t.collectionId));
            }
            if (timelines.isEmpty()) {
                return List.of();
            }
            List<Map<String, Object>> result = new ArrayList<>();
            for (TimelineEvent e : m.eventsOf(timelines.stream().map(t -> t.id).toList(), true)) {
                if (e.archived == archived) {
                    result.add(TimelineViews.event(e));
                }
            }
            return result;
        });
    }

    public Map<String, Object> updateEvent(Caller caller, long id, JsonNode json) {
        Body body = Body.of(json).storedIn("timeline_event");
        String name = body.optNonBlank("name");
        String description = BodyRules.optText(body, "description");
        OffsetDateTime timestamp = temporal(body, "timestamp", true);
        Boolean timeMatters = BodyRules.optBoolean(body, "time_matters");
        String timezone = BodyRules.optText(body, "timezone");
        String icon = body.optEnum("icon", ICONS);
        Long timelineId = body.optPosInt("timeline_id");
        Boolean archived = BodyRules.optBoolean(body, "archived");
        body.throwIfInvalid();
        return db.tx(session -> {
            TimelineMapper m = session.getMapper(TimelineMapper.class);
            TimelineEvent e = Checks.found(m.findEvent(id));
            Timeline current = m.findTimeline(e.timelineId);
            Checks.permitted(access.canWrite(caller, current.collectionId));
            if (timelineId != null && timelineId.longValue() != e.timelineId) {
                Timeline target = m.findTimeline(timelineId);
                if (target == null) {
                    throw new ApiException(404, "Timeline with id " + timelineId + " not found");
                }
                if (!Objects.equals(target.collectionId, current.collectionId)) {
                    requireCurate(session, caller, target.collectionId);
                }
                e.timelineId = timelineId;
            }
            if (name != null) {
                e.name = name;
            }
            if (body.has("description")) {
                e.description = description;
            }
            if (timestamp != null) {
                e.eventAt = timestamp;
            }
            // the columns below are NOT NULL: an explicit null leaves them as they are
            if (timeMatters != null) {
                e.timeMatters = timeMatters;
            }
            if (timezone != null) {
                e.timezone = timezone;
            }
            if (body.has("icon")) {
                e.icon = icon;
            }
            if (archived != null) {
                e.archived = archived;
            }
            e.updatedAt = now();
            m.updateEvent(e);
            return TimelineViews.event(m.findEvent(id));
        });
    }

    public void deleteEvent(Caller caller, long id) {
        db.run(session -> {
            TimelineMapper m = session.getMapper(TimelineMapper.class);
            TimelineEvent e = Checks.found(m.findEvent(id));
            Checks.permitted(access.canWrite(caller, m.findTimeline(e.timelineId).collectionId));
            m.deleteEvent(id);
        });
    }

    // --- helpers ----------------------------------------------------------------------------------------------------------

    /** Timelines with their creator and collection, and their events when {@code window} is not null. */
    private static List<Map<String, Object>> views(SqlSession session, Visible visible, List<Timeline> timelines, EventWindow window) {
        Map<Long, List<Map<String, Object>>> events = new HashMap<>();
        Map<Long, User> users = new HashMap<>();
        if (window != null && !timelines.isEmpty()) {
            for (TimelineEvent e : session.getMapper(TimelineMapper.class).eventsOf(timelines.stream().map(t -> t.id).toList(), window.all())) {
                if (within(e, window)) {
                    Map<String, Object> v = TimelineViews.event(e);
                    v.put("creator", Creators.of(session, e.creatorId, users));
                    events.computeIfAbsent(e.timelineId, k -> new ArrayList<>()).add(v);
                }
            }
        }
        Map<Long, CollectionRow> collections = new HashMap<>();
        List<Long> collectionIds = timelines.stream().map(t -> t.collectionId).filter(Objects::nonNull).distinct().toList();
        if (!collectionIds.isEmpty()) {
            DashboardLookups.collections(session, collectionIds).forEach(c -> collections.put(c.id, c));
        }
        List<Map<String, Object>> result = new ArrayList<>();
        for (Timeline t : timelines) {
            Map<String, Object> v = TimelineViews.timeline(t);
            v.put("creator", Creators.of(session, t.creatorId, users));
            v.put("collection", DashboardViews.collection(t.collectionId == null ? null : collections.get(t.collectionId), visible));
            if (window != null) {
                v.put("events", events.getOrDefault(t.id, List.of()));
            }
            result.add(v);
        }
        return result;
    }

    /**
     * Metabase's window: events whose time matters compare as instants; the others by their date alone, so an
     * all-day event on the end date is still in.
     */
    static boolean within(TimelineEvent e, EventWindow window) {
        if (window.start() == null && window.end() == null) {
            return true;
        }
        if (e.timeMatters) {
            return (window.start() == null || !e.eventAt.isBefore(window.start()))
                    && (window.end() == null || !e.eventAt.isAfter(window.end()));
        }
        LocalDate day = e.eventAt.withOffsetSameInstant(ZoneOffset.UTC).toLocalDate();
        return (window.start() == null || !day.isBefore(window.start().withOffsetSameInstant(ZoneOffset.UTC).toLocalDate()))
                && (window.end() == null || !day.isAfter(window.end().withOffsetSameInstant(ZoneOffset.UTC).toLocalDate()));
    }

    private void requireCurate(Caller caller, Long collectionId) {
        db.run(session -> requireCurate(session, caller, collectionId));
    }

    /** Inside a transaction: checks on its own connection rather than taking a second one from the pool. */
    private void requireCurate(SqlSession session, Caller caller, Long collectionId) {
        if (collectionId != null && DashboardLookups.collection(session, collectionId) == null) {
            throw ApiException.notFound();
        }
        if (!access.canWrite(caller, collectionId)) {
            throw new ApiException(403, CURATE, Map.of("message", CURATE));
        }
    }

    /** Metabase's TemporalString in a body: an ISO date or date-time ("value must be a valid date string"). */
    private static OffsetDateTime temporal(Body body, String key, boolean nullable) {
        JsonNode value = body.get(key);
        String message = (nullable ? "nullable " : "") + "value must be a valid date string";
        if (value.isNull()) {
            if (!nullable) {
                body.addError(key, message, "missing required key, received: nil");
            }
            return null;
        }
        OffsetDateTime parsed = value.isTextual() ? parseTemporal(value.asText()) : null;
        if (parsed == null) {
            body.addError(key, message, "should be a valid date string, received: "
                    + (value.isTextual() ? "\"" + value.asText() + "\"" : value.toString()));
        }
        return parsed;
    }

    /** An ISO-8601 date, local date-time (taken as UTC), offset or zoned date-time; null when it is none of them. */
    public static OffsetDateTime parseTemporal(String text) {
        String s = text.trim();
        try {
            return OffsetDateTime.parse(s).withOffsetSameInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException ignored) {
            // next form
        }
        try {
            return ZonedDateTime.parse(s).toOffsetDateTime().withOffsetSameInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException ignored) {
            // next form
        }
        try {
            return LocalDateTime.parse(s).atOffset(ZoneOffset.UTC);
        } catch (DateTimeParseException ignored) {
            // next form
        }
        try {
            return LocalDate.parse(s).atStartOfDay(ZoneId.of("UTC")).toOffsetDateTime();
        } catch (DateTimeParseException ignored) {
            return null;
        }
    }

    private OffsetDateTime now() {
        return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
    }
}
