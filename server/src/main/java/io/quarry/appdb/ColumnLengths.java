package io.quarry.appdb;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The longest text each {@code VARCHAR(n)} column of the application database holds, read from the Liquibase
 * changelog itself (the one source of truth: a column widened by a new changeSet is widened here too). Request bodies
 * are checked against it at the edge ({@code Body#storedIn}), so that a name too long for its column answers a 400
 * naming the field instead of a database error (a 500) after part of the work was done.
 */
public final class ColumnLengths {
    private static final String CHANGELOG = "db/changelog/changelog-master.xml";
    private static final Pattern VARCHAR = Pattern.compile("(?i)\\s*(?:VARCHAR|CHARACTER VARYING)\\s*\\((\\d+)\\)\\s*");
    /** table → column → length, both lower case. */
    private static final Map<String, Map<String, Integer>> TABLES = read();

    private ColumnLengths() {
    }

    /**
     * The {@code VARCHAR} columns of a table with their lengths (characters), by column name. An unknown table is a
     * programming error, not an empty map: a misspelt name would otherwise check nothing.
     */
    public static Map<String, Integer> of(String table) {
        Map<String, Integer> columns = TABLES.get(table.toLowerCase(Locale.ROOT));
        if (columns == null) {
            throw new IllegalArgumentException("No table " + table + " in the application database's changelog");
        }
        return columns;
    }

    /**
     * A name Quarry makes up from stored ones ({@code "Copy of " + name}, a file name, a person's names) cut to what its
     * column holds, never through a character (a surrogate pair): the 400 of the edge is for what people send, not
     * for what Quarry derives from valid data.
     */
    public static String cut(String table, String column, String text) {
        Integer max = of(table).get(column.toLowerCase(Locale.ROOT));
        if (max == null) {
            throw new IllegalArgumentException("No VARCHAR column " + table + "." + column);
        }
        if (text == null || text.length() <= max) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end);
    }

    private static Map<String, Map<String, Integer>> read() {
        Map<String, Map<String, Integer>> tables = new HashMap<>();
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            DocumentBuilder builder = factory.newDocumentBuilder();
            readFile(builder, CHANGELOG, tables);
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new IllegalStateException("The application database's changelog cannot be read", e);
        }
        Map<String, Map<String, Integer>> frozen = new HashMap<>();
        tables.forEach((table, columns) -> frozen.put(table, Map.copyOf(columns)));
        return Map.copyOf(frozen);
    }

    private static void readFile(DocumentBuilder builder, String resource, Map<String, Map<String, Integer>> tables)
            throws IOException, SAXException {
        try (InputStream in = ColumnLengths.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("Missing changelog file " + resource);
            }
            walk(builder, builder.parse(in).getDocumentElement(), tables);
        }
    }

    /** In document order, as Liquibase applies them: includes, created and added columns, changed types. */
    private static void walk(DocumentBuilder builder, Element element, Map<String, Map<String, Integer>> tables)
            throws IOException, SAXException {
        NodeList children = element.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (!(children.item(i) instanceof Element child)) {
                continue;
            }
            switch (child.getTagName()) {
                case "include" -> readFile(builder, child.getAttribute("file"), tables);
                case "createTable", "addColumn" -> {
                    Map<String, Integer> columns = tables.computeIfAbsent(lower(child.getAttribute("tableName")),
                            t -> new LinkedHashMap<>());
                    NodeList columnNodes = child.getElementsByTagName("column");
                    for (int c = 0; c < columnNodes.getLength(); c++) {
                        Element column = (Element) columnNodes.item(c);
                        put(columns, column.getAttribute("name"), column.getAttribute("type"));
                    }
                }
                case "modifyDataType" -> put(tables.computeIfAbsent(lower(child.getAttribute("tableName")),
                        t -> new LinkedHashMap<>()), child.getAttribute("columnName"), child.getAttribute("newDataType"));
                case "renameColumn" -> {
                    Map<String, Integer> columns = tables.get(lower(child.getAttribute("tableName")));
                    Integer length = columns == null ? null : columns.remove(lower(child.getAttribute("oldColumnName")));
                    if (length != null) {
                        columns.put(lower(child.getAttribute("newColumnName")), length);
                    }
                }
                default -> {
                    if (child.getTagName().equals("changeSet") || child.getTagName().equals("databaseChangeLog")) {
                        walk(builder, child, tables);
                    }
                }
            }
        }
    }

    private static void put(Map<String, Integer> columns, String name, String type) {
        Matcher varchar = VARCHAR.matcher(type == null ? "" : type);
        if (varchar.matches()) {
            columns.put(lower(name), Integer.parseInt(varchar.group(1)));
        } else {
            columns.remove(lower(name)); // created or changed to a type without a length (TEXT, INT...)
        }
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
