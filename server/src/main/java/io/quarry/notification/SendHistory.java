package io.quarry.notification;

import io.quarry.appdb.Db;
import io.quarry.core.Json;
import io.quarry.web.error.Checks;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every send of a subscription or alert, recorded in Metabase's {@code task_history}: what (pulse, card ids, channel),
 * to whom, when, how long, the outcome and the error. Administrators read it at {@code GET /api/task}.
 */
public final class SendHistory {
    private final Db db;
    private final Clock clock;

    public SendHistory(Db db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    /** Records that a send started; finish it with {@link #finish}. */
    public TaskRun start(String task, Map<String, Object> details) {
        TaskRun run = new TaskRun();
        run.task = task;
        run.startedAt = OffsetDateTime.now(clock);
        run.status = "started";
        run.taskDetails = Json.write(details);
        db.run(session -> session.getMapper(NotificationMapper.class).insertTaskRun(run));
        return run;
    }

    /** The outcome: {@code error} null for a success. */
    public void finish(TaskRun run, Map<String, Object> details, String error) {
        run.endedAt = OffsetDateTime.now(clock);
        run.duration = (int) Duration.between(run.startedAt, run.endedAt).toMillis();
        run.status = error == null ? "success" : "failed";
        Map<String, Object> all = new LinkedHashMap<>(details);
        if (error != null) {
            all.put("status", "failed");
            all.put("message", error);
        }
        run.taskDetails = Json.write(all);
        db.run(session -> session.getMapper(NotificationMapper.class).finishTaskRun(run));
    }

    /** Metabase's page shape: {@code {data, total, limit, offset}}, newest first. */
    public Map<String, Object> page(int limit, int offset) {
        return db.tx(session -> {
            NotificationMapper m = session.getMapper(NotificationMapper.class);
            List<Map<String, Object>> data = new ArrayList<>();
            for (TaskRun run : m.taskRuns(limit, offset)) {
                data.add(view(run));
            }
            Map<String, Object> page = new LinkedHashMap<>();
            page.put("data", data);
            page.put("total", m.countTaskRuns());
            page.put("limit", limit);
            page.put("offset", offset);
            return page;
        });
    }

    public Map<String, Object> get(long id) {
        return view(Checks.found(db.with(NotificationMapper.class, m -> m.findTaskRun(id))));
    }

    private static Map<String, Object> view(TaskRun run) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", run.id);
        v.put("task", run.task);
        v.put("db_id", run.dbId);
        v.put("started_at", run.startedAt);
        v.put("ended_at", run.endedAt);
        v.put("duration", run.duration);
        v.put("status", run.status);
        Object details;
        try {
            details = run.taskDetails == null ? null : Json.MAPPER.readValue(run.taskDetails, Object.class);
        } catch (Exception e) {
            details = null;
        }
        v.put("task_details", details);
        return v;
    }
}
