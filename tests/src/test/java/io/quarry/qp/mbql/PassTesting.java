package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quarry.driver.h2.H2Dialect;
import io.quarry.qp.QueryFailure;
import java.time.DayOfWeek;
import java.util.List;
import java.util.Map;

/** Runs one pass the way {@link MbqlPasses} does, against the shop metadata and the given references. */
final class PassTesting {
    private PassTesting() {
    }

    static MbqlCompiler.Context context(MbqlReferences references) {
        return context(FakeMetadata.shop(), references, DayOfWeek.SUNDAY);
    }

    /** H2 over {@code metadata}; 8 bins and a 10° width by default, weeks starting on {@code firstDayOfWeek}. */
    static MbqlCompiler.Context context(MbqlMetadata metadata, MbqlReferences references, DayOfWeek firstDayOfWeek) {
        return new MbqlCompiler.Context(new H2Dialect(), metadata, references, 1, MbqlCompilerTest.NOW, firstDayOfWeek, 8, 10.0);
    }

    /** A scope whose FROM is the table {@code tableId} of {@code metadata}, weeks starting on {@code firstDayOfWeek}. */
    static StageScope tableScope(FakeMetadata metadata, long tableId, DayOfWeek firstDayOfWeek) {
        MbqlCompiler.Context context = context(metadata, MbqlReferences.NONE, firstDayOfWeek);
        return StageScope.ofTable(context, context.metadata().table(tableId));
    }

    /** A JSON value as the compiler reads it (whole numbers as longs). */
    static Object json(String value) {
        return KeyQueries.parse("{\"v\": " + value + "}").get("v");
    }

    /** That a clause reads as the JSON (compared as text: the normaliser may pick other number classes). */
    static void assertClause(String expectedJson, Object actual) {
        assertEquals(String.valueOf(json(expectedJson)), String.valueOf(actual));
    }

    static Map<String, Object> run(MbqlPass pass, MbqlReferences references, String json) {
        return MbqlPasses.run(List.of(pass), KeyQueries.parse(json), new MbqlPass.Input(context(references), List.of(), 0));
    }

    /** The failure's message, after checking it is an invalid query that names the pass. */
    static String failure(MbqlPass pass, MbqlReferences references, String json) {
        QueryFailure failure = assertThrows(QueryFailure.class, () -> run(pass, references, json));
        assertEquals(QueryFailure.Type.INVALID_QUERY, failure.type());
        assertEquals(pass.name(), MbqlPasses.failedPass(failure));
        return failure.getMessage();
    }
}
