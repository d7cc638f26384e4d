package io.quarry.segment;

import io.quarry.revision.Revision;
import io.quarry.user.User;
import io.quarry.user.Creators;
import io.quarry.core.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.ibatis.session.SqlSession;

/** Metabase's wire form of a segment revision: the stored object becomes a diff against the previous one and a sentence. */
final class SegmentRevisions {
    private static final List<String> DIFFED = List.of("name", "description", "definition");

    private SegmentRevisions() {
    }

    static Map<String, Object> details(SqlSession session, Revision revision, Revision previous, Map<Long, User> users) {
        Map<String, Object> before = previous == null ? null : previous.object;
        Map<String, Object> after = revision.object == null ? Map.of() : revision.object;
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", revision.id);
        v.put("description", description(revision, before, after));
        v.put("diff", diff(before, after));
        v.put("has_multiple_changes", changes(revision, before, after).size() > 1);
        v.put("user", user(session, revision.userId, users));
        v.put("is_creation", revision.isCreation);
        v.put("is_reversion", revision.isReversion);
        v.put("message", revision.message);
        v.put("most_recent", revision.mostRecent);
        v.put("metabase_version", "v0.63.0");
        v.put("timestamp", revision.createdAt);
        return v;
    }

    private static Map<String, Object> user(SqlSession session, Long userId, Map<Long, User> users) {
        return Creators.author(session, userId, users);
    }

    /** The name, description and definition that changed: {@code {key: {before, after}}}; everything for the first. */
    static Map<String, Object> diff(Map<String, Object> before, Map<String, Object> after) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String key : DIFFED) {
            if (before == null) {
                if (after.containsKey(key)) {
                    Map<String, Object> change = new LinkedHashMap<>();
                    change.put("after", after.get(key));
                    out.put(key, change);
                }
                continue;
            }
            Object b = before.get(key);
            Object a = after.get(key);
            if (!same(a, b)) {
                Map<String, Object> change = new LinkedHashMap<>();
                if (before.containsKey(key)) {
                    change.put("before", b);
                }
                if (after.containsKey(key)) {
                    change.put("after", a);
                }
                out.put(key, change);
            }
        }
        return out;
    }

    /** The sentence parts: Metabase describes names, descriptions and archiving; other changes have no words. */
    private static List<String> changes(Revision revision, Map<String, Object> before, Map<String, Object> after) {
        List<String> parts = new ArrayList<>();
        if (revision.isCreation) {
            parts.add("created this");
            return parts;
        }
        if (revision.isReversion) {
            parts.add("reverted to an earlier version");
            return parts;
        }
        if (before == null) {
            parts.add("modified this");
            return parts;
        }
        for (String key : after.keySet()) {
            Object b = before.get(key);
            Object a = after.get(key);
            if (same(a, b)) {
                continue;
            }
            String identifier = parts.isEmpty() ? "this Segment" : "it";
            switch (key) {
                case "name" -> parts.add("renamed " + identifier + " from \"" + b + "\" to \"" + a + "\"");
                case "description" -> parts.add(b == null ? "added a description" : "changed the description");
                case "archived" -> parts.add((Boolean.TRUE.equals(a) ? "trashed " : "untrashed ") + identifier);
                default -> {
                }
            }
        }
        return parts;
    }

    private static String description(Revision revision, Map<String, Object> before, Map<String, Object> after) {
        List<String> parts = changes(revision, before, after);
        if (parts.isEmpty()) {
            return "created a revision with no change.";
        }
        return sentence(parts);
    }

    static String sentence(List<String> parts) {
        if (parts.size() == 1) {
            return parts.get(0) + ".";
        }
        if (parts.size() == 2) {
            return parts.get(0) + " and " + parts.get(1) + ".";
        }
        return parts.get(0) + ", " + sentence(parts.subList(1, parts.size()));
    }

    private static boolean same(Object a, Object b) {
        return Objects.equals(a, b) || Objects.equals(Json.write(a), Json.write(b));
    }
}
