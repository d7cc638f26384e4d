package io.quarry.card;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The CSV reader a row at a time: rows and quoted values across its buffer's end, separators, blank lines, the BOM. */
class CsvStreamTest {
    @Test
    void rowsComeOneAtATimeAcrossTheBuffer() throws IOException {
        String wide = "x".repeat(40_000);
        String text = "\uFEFFa;b\r\n\r\n1;\"" + wide + "\n\"\"q\"\"\"\n2;" + wide + "\n\n3;\n";
        Csv csv = new Csv(new StringReader(text));
        assertEquals(List.of("a", "b"), csv.next());
        assertEquals(List.of("1", wide + "\n\"q\""), csv.next());
        assertEquals(List.of("2", wide), csv.next());
        assertEquals(List.of("3", ""), csv.next());
        assertNull(csv.next());
        assertNull(csv.next());
    }

    @Test
    void theSmallCasesReadAsBefore() {
        assertEquals(List.of(List.of("a", "b"), List.of("1", "")), Csv.parse("a,b\n1,"));
        assertEquals(List.of(List.of("a", "b"), List.of("1", "2")), Csv.parse("a\tb\n1\t2"), "a tab-separated header");
        assertEquals(List.of(), Csv.parse(""));
        assertEquals(List.of(), Csv.parse("\n\n"));
        assertThrows(IllegalArgumentException.class, () -> Csv.parse("a\n\"open\n"));
        assertEquals(List.of("a", "b"), CardUploads.parse("a,b\n1,2\n").columns());
        assertEquals(2, CardUploads.parse("a,b\n1,2\n3,4\n").rows());
    }
}
