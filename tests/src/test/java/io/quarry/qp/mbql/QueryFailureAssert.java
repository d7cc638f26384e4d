package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quarry.qp.QueryFailure;
import org.junit.jupiter.api.function.Executable;

final class QueryFailureAssert {
    private QueryFailureAssert() {
    }

    /** That the body fails as an invalid query with the message, from the named pass. */
    static void invalid(String message, String pass, Executable body) {
        QueryFailure failure = assertThrows(QueryFailure.class, body);
        assertEquals(QueryFailure.Type.INVALID_QUERY, failure.type());
        assertEquals(message, failure.getMessage());
        assertEquals(pass, MbqlPasses.failedPass(failure));
    }
}
