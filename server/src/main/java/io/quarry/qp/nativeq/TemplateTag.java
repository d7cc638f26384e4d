package io.quarry.qp.nativeq;

import java.util.List;
import java.util.Map;

/**
 * One entry of a native query's {@code template-tags}: a variable ({@code text}, {@code number}, {@code date},
 * {@code boolean}), a field filter ({@code dimension}, with the field and widget type), a {@code snippet} or a
 * {@code card} reference.
 */
public record TemplateTag(String name, String type, boolean required, Object defaultValue, Long fieldId, String widgetType,
                          String snippetName, Long cardId, Map<String, Object> options) {

    /** Reads a tag from its JSON form (keys as clients send them: {@code display-name}, {@code widget-type}, ...). */
    @SuppressWarnings("unchecked")
    public static TemplateTag fromJson(String key, Map<String, Object> json) {
        Object name = json.getOrDefault("name", key);
        Long fieldId = null;
        Object dimension = json.get("dimension");
        if (dimension instanceof List<?> ref && ref.size() >= 2 && "field".equals(ref.get(0)) && ref.get(1) instanceof Number id) {
            fieldId = id.longValue();
        }
        Object cardId = json.get("card-id");
        Object options = json.get("options");
        return new TemplateTag(String.valueOf(name), String.valueOf(json.getOrDefault("type", "text")),
                Boolean.TRUE.equals(json.get("required")), json.get("default"), fieldId, (String) json.get("widget-type"),
                (String) json.get("snippet-name"), cardId instanceof Number n ? n.longValue() : null,
                options instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of());
    }
}
