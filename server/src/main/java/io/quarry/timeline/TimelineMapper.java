package io.quarry.timeline;

import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface TimelineMapper {
    void insertTimeline(Timeline timeline);

    Timeline findTimeline(@Param("id") long id);

    List<Timeline> listTimelines(@Param("archived") boolean archived);

    /** Timelines of one collection ({@code null} = Root). */
    List<Timeline> timelinesOfCollection(@Param("collectionId") Long collectionId, @Param("archived") boolean archived);

    int updateTimeline(Timeline timeline);

    int deleteTimeline(@Param("id") long id);

    void insertEvent(TimelineEvent event);

    TimelineEvent findEvent(@Param("id") long id);

    int updateEvent(TimelineEvent event);

    int deleteEvent(@Param("id") long id);

    int archiveEventsOf(@Param("timelineId") long timelineId, @Param("archived") boolean archived);

    /** Events of these timelines, archived ones only when {@code all}; by time. */
    List<TimelineEvent> eventsOf(@Param("ids") List<Long> timelineIds, @Param("all") boolean all);
}
