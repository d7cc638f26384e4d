package io.quarry.qp;

import java.util.List;
import java.util.Map;

/**
 * A query after normalisation: legacy ({@code type: native|query}) and MBQL 5 ({@code lib/type: mbql/query}) requests
 * both end up here. For native queries {@code nativeSql} and {@code templateTags} are set; for structured ones
 * {@code mbql} holds the legacy inner query map.
 */
public record Query(long databaseId, Type type, String nativeSql, Map<String, Object> templateTags, Map<String, Object> mbql,
                    List<Map<String, Object>> parameters, Long maxResults, boolean jsIntToString) {
    public enum Type { NATIVE, MBQL }
}
