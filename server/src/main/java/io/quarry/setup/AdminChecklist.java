package io.quarry.setup;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The admin checklist ({@code GET /api/setup/admin_checklist}): groups of tasks, each with whether it is done
 * ({@code completed}), whether it is relevant yet ({@code triggered}) and whether it is the one to do next (the first
 * triggered task not completed). Computed from a {@link State} snapshot so that the rules are testable on their own.
 */
public final class AdminChecklist {
    private AdminChecklist() {
    }

    /** What the checklist is computed from. */
    public record State(boolean h2AppDb, boolean hosted, boolean emailConfigured, boolean ssoConfigured,
                        boolean embeddingInterested, boolean embeddingDone, boolean embeddingAppOrigin,
                        long users, long cards, long tables,
                        boolean nonSampleDatabase, boolean dashboard, boolean pulse, boolean hiddenTable,
                        boolean collection, boolean model, boolean embeddedResource) {
    }

    public static List<Map<String, Object>> build(State s) {
        List<Map<String, Object>> groups = new ArrayList<>();
        String connected = "Get connected";
        groups.add(group(connected, List.of(
                task("Add a database", connected, "Connect your data so the whole team can explore it.",
                        "/admin/databases/create", s.nonSampleDatabase(), true),
                task("Set up email", connected, "Add SMTP settings so you can invite people and send subscriptions.",
                        "/admin/settings/email", s.emailConfigured(), true),
                task("Set up embedding", connected, "Put questions and dashboards inside your own application.",
                        "/admin/settings/embedding-in-other-applications",
                        s.embeddingDone() || (s.ssoConfigured() && s.embeddingAppOrigin()) || s.embeddedResource(),
                        s.embeddingInterested()),
                task("Invite team members", connected, "Share answers and data with the rest of your team.",
                        "/admin/people/", s.users() > 1, s.dashboard() || s.pulse() || s.cards() >= 5))));
        if (!s.hosted()) {
            String production = "Productionize";
            groups.add(group(production, List.of(
                    task("Switch to a production-ready app database", production,
                            "Move off the embedded H2 application database to PostgreSQL (MB_DB_TYPE=postgres).",
                            "/admin/settings/general", !s.h2AppDb(), s.h2AppDb()))));
        }
        String curate = "Curate your data";
        groups.add(group(curate, List.of(
                task("Hide irrelevant tables", curate, "Hide tables that hold technical or irrelevant data.",
                        "/admin/datamodel/database", s.hiddenTable(), s.tables() >= 20),
                task("Organize questions", curate, "Group saved questions into collections to keep them findable.",
                        "/collection/root", s.collection(), s.cards() >= 30),
                task("Create a model", curate, "Give your team friendly starting points to explore data.",
                        "/model/new", s.model(), !s.model()))));
        markNextStep(groups);
        return groups;
    }

    @SuppressWarnings("unchecked")
    private static void markNextStep(List<Map<String, Object>> groups) {
        boolean found = false;
        for (Map<String, Object> group : groups) {
            for (Map<String, Object> task : (List<Map<String, Object>>) group.get("tasks")) {
                boolean next = !found && (boolean) task.get("triggered") && !(boolean) task.get("completed");
                task.put("is_next_step", next);
                found |= next;
            }
        }
    }

    private static Map<String, Object> group(String name, List<Map<String, Object>> tasks) {
        Map<String, Object> group = new LinkedHashMap<>();
        group.put("name", name);
        group.put("tasks", tasks);
        return group;
    }

    private static Map<String, Object> task(String title, String group, String description, String link, boolean completed,
                                            boolean triggered) {
        Map<String, Object> task = new LinkedHashMap<>();
        task.put("title", title);
        task.put("group", group);
        task.put("description", description);
        task.put("link", link);
        task.put("completed", completed);
        task.put("triggered", triggered);
        return task;
    }
}
