package io.quarry.card;

import java.util.ArrayList;
import java.util.List;

/** A small RFC 4180 reader: quoted fields, doubled quotes, CRLF or LF, line breaks inside quotes; a detected separator. */
final class Csv {
    private Csv() {
    }

    static List<List<String>> parse(String text) {
        if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
            text = text.substring(1);
        }
        char separator = separator(text);
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
                        field.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
                any = true;
            } else if (c == separator) {
                row.add(field.toString());
                field.setLength(0);
                any = true;
            } else if (c == '\n' || c == '\r') {
                if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                    i++;
                }
                row.add(field.toString());
                field.setLength(0);
                if (any || row.size() > 1 || !row.get(0).isEmpty()) {
                    rows.add(row);
                }
                row = new ArrayList<>();
                any = false;
            } else {
                field.append(c);
                any = true;
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("The CSV file has an unterminated quoted value.");
        }
        if (any || field.length() > 0) {
            row.add(field.toString());
            rows.add(row);
        }
        return rows;
    }

    /** Comma, unless the first line has none and has semicolons or tabs. */
    private static char separator(String text) {
        int end = text.indexOf('\n');
        String first = end < 0 ? text : text.substring(0, end);
        if (first.indexOf(',') >= 0) {
            return ',';
        }
        if (first.indexOf(';') >= 0) {
            return ';';
        }
        return first.indexOf('\t') >= 0 ? '\t' : ',';
    }
}
