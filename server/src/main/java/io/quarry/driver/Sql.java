package io.quarry.driver;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A piece of SQL text with the values bound to its {@code ?} placeholders, in order. Fragments compose (a template's
 * {@code %s} slots are filled with fragments, lists are joined) so that the parameters of the whole statement always
 * follow its text order. Only Quarry's own templates and identifiers quoted by the dialect ever become text; values
 * never do.
 */
public final class Sql {
    private final String text;
    private final List<Object> params;

    private Sql(String text, List<Object> params) {
        this.text = text;
        this.params = params;
    }

    /** Fixed text with no parameters (keywords, quoted identifiers, numbers Quarry computed itself). */
    public static Sql raw(String text) {
        return new Sql(text, List.of());
    }

    /** One bound value: {@code ?}. */
    public static Sql param(Object value) {
        List<Object> params = new ArrayList<>(1);
        params.add(value);
        return new Sql("?", Collections.unmodifiableList(params));
    }

    /**
     * Fills a template's {@code %s} slots with fragments, in order; {@code %%} stands for a literal {@code %}. The
     * template is Quarry's own text; it must hold exactly as many slots as there are fragments.
     */
    public static Sql format(String template, Sql... parts) {
        StringBuilder text = new StringBuilder(template.length() + 32);
        List<Object> params = new ArrayList<>();
        int used = 0;
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            if (c == '%' && i + 1 < template.length() && (template.charAt(i + 1) == 's' || template.charAt(i + 1) == '%')) {
                if (template.charAt(i + 1) == '%') {
                    text.append('%');
                } else {
                    if (used == parts.length) {
                        throw new IllegalArgumentException("More slots than fragments in " + template);
                    }
                    text.append(parts[used].text);
                    params.addAll(parts[used].params);
                    used++;
                }
                i++;
            } else {
                text.append(c);
            }
        }
        if (used != parts.length) {
            throw new IllegalArgumentException("More fragments than slots in " + template);
        }
        return new Sql(text.toString(), Collections.unmodifiableList(params));
    }

    /** The fragments separated by {@code separator}. */
    public static Sql join(String separator, List<Sql> parts) {
        StringBuilder text = new StringBuilder();
        List<Object> params = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            if (i > 0) {
                text.append(separator);
            }
            text.append(parts.get(i).text);
            params.addAll(parts.get(i).params);
        }
        return new Sql(text.toString(), Collections.unmodifiableList(params));
    }

    /** This fragment, then {@code more}. */
    public Sql append(String more) {
        return new Sql(text + more, params);
    }

    public Sql append(Sql more) {
        if (more.params.isEmpty()) {
            return new Sql(text + more.text, params);
        }
        List<Object> all = new ArrayList<>(params);
        all.addAll(more.params);
        return new Sql(text + more.text, Collections.unmodifiableList(all));
    }

    /** {@code (fragment)}. */
    public Sql parenthesized() {
        return new Sql("(" + text + ")", params);
    }

    public String text() {
        return text;
    }

    public List<Object> params() {
        return params;
    }

    public boolean hasParams() {
        return !params.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Sql other && text.equals(other.text) && params.equals(other.params);
    }

    @Override
    public int hashCode() {
        return Objects.hash(text, params);
    }

    @Override
    public String toString() {
        return params.isEmpty() ? text : text + " " + params;
    }
}
