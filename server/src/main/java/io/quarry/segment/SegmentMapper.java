package io.quarry.segment;

import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface SegmentMapper {
    void insertSegment(Segment segment);

    Segment findSegment(@Param("id") long id);

    /** Unarchived segments, by name (case-insensitive). */
    List<Segment> activeSegments();

    List<Segment> segmentsOfTable(@Param("tableId") long tableId);

    int updateSegment(Segment segment);

    /** Unarchived cards whose query text mentions segments: id, name, dataset_query. */
    List<CardRef> cardsMentioningSegments();

    /** A card that may use segments. */
    final class CardRef {
        public Long id;
        public String name;
        public String datasetQuery;
    }
}
