package io.quarry.assistant;

import io.quarry.assistant.SchemaSnapshot.FieldInfo;
import io.quarry.assistant.SchemaSnapshot.TableInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The prompts sent to a language model: the caller-visible schema as {@code CREATE TABLE} statements (types, semantic
 * types, foreign keys, a few values of list fields) within a token budget, the tables that share the most words with
 * the question first, so that a schema of a thousand tables still fits.
 */
final class Prompts {
    /** Tokens the schema may take, as Metabase's {@code metabot-prompt-generator-token-limit}. */
    static final int SCHEMA_TOKEN_BUDGET = 6000;
    /** Values shown per list field. */
    static final int VALUES_SHOWN = 12;
    private static final Pattern WORD = Pattern.compile("[A-Za-z][A-Za-z0-9]*");

    private Prompts() {
    }

    /** The system message for SQL over a database. */
    static String system(SchemaSnapshot schema, String question, int budgetTokens) {
        return "You are an expert data analyst. Write one read-only SQL query (a single SELECT or WITH statement) for the "
                + schema.sqlName() + " database described below that answers the user's question. Use only these "
                + "tables and columns, quoted exactly as shown. Answer with the SQL alone in a ```sql code block.\n\n"
                + ddl(schema, question, budgetTokens);
    }

    /** The system message for SQL over a model, queried as the table {@code tableName}. */
    static String systemForModel(String sqlName, String tableName, List<FieldInfo> columns, String description, String definition) {
        StringBuilder out = new StringBuilder("You are an expert data analyst. Write one read-only SQL query (a single SELECT "
                + "statement) for the " + sqlName + " database that answers the user's question over the table "
                + tableName + " described below. Use only this table and its columns, quoted exactly as shown. Answer with "
                + "the SQL alone in a ```sql code block.\n\n");
        if (description != null && !description.isBlank()) {
            out.append("-- ").append(description.replace('\n', ' ')).append('\n');
        }
        out.append("CREATE TABLE ").append(tableName).append(" (\n");
        for (int i = 0; i < columns.size(); i++) {
            out.append(column(columns.get(i), null, null, i + 1 == columns.size())).append('\n');
        }
        out.append(");\n");
        if (definition != null && !definition.isBlank()) {
            String shown = definition.length() > 4000 ? definition.substring(0, 4000) + " ..." : definition;
            out.append("\n-- ").append(tableName).append(" is the result of this query (for its meaning only; query ")
                    .append(tableName).append(" itself):\n/*\n").append(shown.replace("*/", "* /")).append("\n*/\n");
        }
        return out.toString();
    }

    /** The message that asks for one more try. */
    static String retry(String sql, String error) {
        return "That query failed on the database with this error:\n" + error + "\nWrite a corrected query, again as a "
                + "single read-only statement in a ```sql code block.";
    }

    /** The tables most related to the question, as DDL, until the budget (about 4 characters a token) is spent. */
    static String ddl(SchemaSnapshot schema, String question, int budgetTokens) {
        Set<String> words = words(question);
        Map<Long, FieldInfo> byId = schema.fieldsById();
        List<TableInfo> ranked = new ArrayList<>(schema.tables());
        Map<TableInfo, Integer> scores = new java.util.HashMap<>();
        for (TableInfo t : ranked) {
            scores.put(t, score(t, words));
        }
        // a table linked to a relevant one is worth a little too (the join the question needs)
        for (TableInfo t : schema.tables()) {
            for (TableInfo linked : schema.foreignKeys(t).values()) {
                if (scores.get(t) > 0) {
                    scores.merge(linked, 1, Integer::sum);
                }
                if (scores.get(linked) > 0) {
                    scores.merge(t, 1, Integer::sum);
                }
            }
        }
        ranked.sort(Comparator.comparing((TableInfo t) -> -scores.get(t)));
        StringBuilder out = new StringBuilder();
        int budgetChars = budgetTokens * 4;
        int left = 0;
        for (TableInfo t : ranked) {
            String statement = table(schema, t, byId);
            if (out.length() + statement.length() > budgetChars) {
                left++;
                continue;
            }
            out.append(statement).append('\n');
        }
        if (left > 0) {
            out.append("-- ").append(left).append(" less related tables are not shown.\n");
        }
        return out.toString();
    }

    private static int score(TableInfo t, Set<String> words) {
        int score = 0;
        for (String w : words(t.name() + " " + t.displayName())) {
            if (words.contains(w)) {
                score += 10;
            }
        }
        for (FieldInfo f : t.fields()) {
            for (String w : words(f.name().replace('_', ' ') + " " + f.displayName())) {
                if (words.contains(w)) {
                    score += 3;
                }
            }
            for (String v : f.values()) {
                if (words.containsAll(words(v)) && !words(v).isEmpty()) {
                    score += 2;
                }
            }
        }
        return score;
    }

    private static Set<String> words(String text) {
        Set<String> out = new HashSet<>();
        Matcher m = WORD.matcher(text == null ? "" : text.replace('_', ' '));
        while (m.find()) {
            String w = Translator.normalise(m.group());
            if (w.length() > 2) {
                out.add(w);
            }
        }
        return out;
    }

    private static String table(SchemaSnapshot schema, TableInfo t, Map<Long, FieldInfo> byId) {
        StringBuilder out = new StringBuilder();
        if (t.description() != null && !t.description().isBlank()) {
            out.append("-- ").append(t.description().replace('\n', ' ')).append('\n');
        }
        out.append("CREATE TABLE ").append(qualified(t)).append(" (\n");
        List<FieldInfo> fields = t.fields();
        for (int i = 0; i < fields.size(); i++) {
            FieldInfo f = fields.get(i);
            FieldInfo target = f.fkTargetFieldId() == null ? null : byId.get(f.fkTargetFieldId());
            TableInfo targetTable = target == null ? null : schema.table(target.tableId());
            out.append(column(f, target, targetTable, i + 1 == fields.size())).append('\n');
        }
        return out.append(");\n").toString();
    }

    private static String column(FieldInfo f, FieldInfo target, TableInfo targetTable, boolean last) {
        StringBuilder out = new StringBuilder("  \"").append(f.name()).append("\" ")
                .append(f.baseType() == null ? "UNKNOWN" : f.baseType().replace("type/", "").toUpperCase(Locale.ROOT));
        if ("type/PK".equals(f.semanticType())) {
            out.append(" PRIMARY KEY");
        }
        if (target != null && targetTable != null) {
            out.append(" REFERENCES ").append(qualified(targetTable)).append("(\"").append(target.name()).append("\")");
        }
        if (!last) {
            out.append(',');
        }
        List<String> notes = new ArrayList<>();
        if (f.displayName() != null && !f.displayName().equalsIgnoreCase(f.name().replace('_', ' '))) {
            notes.add(f.displayName());
        }
        if (f.semanticType() != null && !f.isKey()) {
            notes.add(f.semanticType().replace("type/", ""));
        }
        if (!f.values().isEmpty()) {
            List<String> shown = f.values().subList(0, Math.min(VALUES_SHOWN, f.values().size()));
            notes.add("values: " + String.join(", ", shown.stream().map(v -> "'" + v.replace("'", "''") + "'").toList())
                    + (f.values().size() > shown.size() ? ", ..." : ""));
        }
        if (!notes.isEmpty()) {
            out.append(" -- ").append(String.join("; ", notes).replace('\n', ' '));
        }
        return out.toString();
    }

    private static String qualified(TableInfo t) {
        return (t.schema() == null ? "" : "\"" + t.schema() + "\".") + "\"" + t.name() + "\"";
    }
}
