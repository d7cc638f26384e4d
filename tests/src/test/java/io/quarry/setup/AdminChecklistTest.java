package io.quarry.setup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdminChecklistTest {
    /** A fresh instance: H2, nothing configured, one user. */
    private static final AdminChecklist.State FRESH = new AdminChecklist.State(true, false, false, false, false, false, false,
            1, 0, 0, false, false, false, false, false, false, false);

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> tasks(List<Map<String, Object>> groups) {
        return groups.stream().flatMap(g -> ((List<Map<String, Object>>) g.get("tasks")).stream()).toList();
    }

    private static Map<String, Object> task(List<Map<String, Object>> groups, String title) {
        return tasks(groups).stream().filter(t -> t.get("title").equals(title)).findFirst().orElseThrow();
    }

    private static String nextStep(AdminChecklist.State state) {
        List<Map<String, Object>> next = tasks(AdminChecklist.build(state)).stream()
                .filter(t -> Boolean.TRUE.equals(t.get("is_next_step"))).toList();
        return next.isEmpty() ? null : (String) next.get(0).get("title");
    }

    @Test
    void groupsAndTheirTasksInOrder() {
        List<Map<String, Object>> groups = AdminChecklist.build(FRESH);
        assertEquals(List.of("Get connected", "Productionize", "Curate your data"), groups.stream().map(g -> g.get("name")).toList());
        assertEquals(List.of("Add a database", "Set up email", "Set up embedding", "Invite team members",
                        "Switch to a production-ready app database", "Hide irrelevant tables", "Organize questions", "Create a model"),
                tasks(groups).stream().map(t -> t.get("title")).toList());
        assertEquals(List.of("title", "group", "description", "link", "completed", "triggered", "is_next_step"),
                List.copyOf(task(groups, "Set up email").keySet()));
        assertEquals("Get connected", task(groups, "Set up email").get("group"));
    }

    @Test
    void exactlyOneNextStepTheFirstTriggeredAndIncompleteTask() {
        assertEquals("Add a database", nextStep(FRESH));
        AdminChecklist.State withDb = new AdminChecklist.State(true, false, false, false, false, false, false,
                1, 0, 0, true, false, false, false, false, false, false);
        assertEquals("Set up email", nextStep(withDb));
        AdminChecklist.State withEmail = new AdminChecklist.State(true, false, true, false, false, false, false,
                1, 0, 0, true, false, false, false, false, false, false);
        // Inviting is not triggered before there is something to share: next comes the app database.
        assertEquals("Switch to a production-ready app database", nextStep(withEmail));
        AdminChecklist.State onPostgres = new AdminChecklist.State(false, false, true, false, false, false, false,
                1, 0, 0, true, false, false, false, false, false, false);
        assertEquals("Create a model", nextStep(onPostgres));
        AdminChecklist.State allDone = new AdminChecklist.State(false, false, true, false, false, false, false,
                1, 0, 0, true, false, false, false, false, true, false);
        assertNull(nextStep(allDone));
        assertEquals(1, tasks(AdminChecklist.build(FRESH)).stream().filter(t -> Boolean.TRUE.equals(t.get("is_next_step"))).count());
    }

    @Test
    void completionFollowsTheState() {
        List<Map<String, Object>> fresh = AdminChecklist.build(FRESH);
        assertEquals(false, task(fresh, "Set up email").get("completed"));
        assertEquals(false, task(fresh, "Invite team members").get("completed"));
        assertEquals(false, task(fresh, "Invite team members").get("triggered"));
        assertEquals(true, task(fresh, "Switch to a production-ready app database").get("triggered"));

        List<Map<String, Object>> busy = AdminChecklist.build(new AdminChecklist.State(false, false, true, false, false, false, false,
                3, 40, 25, true, true, false, false, false, false, false));
        assertEquals(true, task(busy, "Set up email").get("completed"));
        assertEquals(true, task(busy, "Invite team members").get("completed"));
        assertEquals(true, task(busy, "Invite team members").get("triggered"));
        assertEquals(true, task(busy, "Switch to a production-ready app database").get("completed"));
        assertEquals(false, task(busy, "Switch to a production-ready app database").get("triggered"));
        assertEquals(true, task(busy, "Hide irrelevant tables").get("triggered"));
        assertEquals(true, task(busy, "Organize questions").get("triggered"));
    }

    @Test
    void hostedInstancesHaveNoProductionizeGroup() {
        AdminChecklist.State hosted = new AdminChecklist.State(false, true, false, false, false, false, false,
                1, 0, 0, false, false, false, false, false, false, false);
        assertEquals(List.of("Get connected", "Curate your data"), AdminChecklist.build(hosted).stream().map(g -> g.get("name")).toList());
    }
}
