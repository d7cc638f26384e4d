package io.quarry.render;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a card renders to for an e-mail or a preview: an HTML fragment and the PNGs it references by content id
 * ({@code <img src="cid:...">}).
 *
 * @param inlineImages content id → PNG bytes, in the order the HTML references them
 */
public record RenderedCard(String html, Map<String, byte[]> inlineImages) {
    public RenderedCard {
        Objects.requireNonNull(html, "html is null");
        inlineImages = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(inlineImages));
    }

    /**
     * The HTML with every {@code cid:} reference replaced by a {@code data:} URI, for a browser (previews) rather than
     * an e-mail client.
     */
    public String htmlWithDataUris() {
        String out = html;
        for (Map.Entry<String, byte[]> image : inlineImages.entrySet()) {
            out = out.replace("\"cid:" + image.getKey() + "\"",
                    "\"data:image/png;base64," + Base64.getEncoder().encodeToString(image.getValue()) + "\"");
        }
        return out;
    }
}
