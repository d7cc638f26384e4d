package io.quarry.warehouse;

/** A field matching what someone types in the SQL editor, with the name of its table. */
public final class FieldSuggestion {
    public String name;
    public String baseType;
    public String semanticType;
    public String tableName;
}
