package io.quarry.notification;

import java.time.OffsetDateTime;

/** A row of {@code task_history}: one send of a pulse or alert (or one attempt of it), with its outcome. */
public final class TaskRun {
    public Long id;
    public String task;
    public Long dbId;
    public OffsetDateTime startedAt;
    public OffsetDateTime endedAt;
    public Integer duration;
    public String status;
    public String taskDetails;
}
