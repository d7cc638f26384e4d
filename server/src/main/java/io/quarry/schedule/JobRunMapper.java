package io.quarry.schedule;

import java.time.Instant;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/** {@code quarry_job_run}: the last due time handled per job key. */
public interface JobRunMapper {
    List<JobRun> selectAll();

    JobRun selectOne(@Param("jobKey") String jobKey);

    /** Records a job seen for the first time; no-op when another instance recorded it first. */
    int insertIfAbsent(@Param("jobKey") String jobKey, @Param("due") Instant due, @Param("now") Instant now,
            @Param("instance") String instance);

    /** Records a handled due time, only forward (a later due time already recorded stays). */
    int advance(@Param("jobKey") String jobKey, @Param("due") Instant due, @Param("status") String status,
            @Param("startedAt") Instant startedAt, @Param("finishedAt") Instant finishedAt, @Param("error") String error,
            @Param("instance") String instance, @Param("now") Instant now);

}
