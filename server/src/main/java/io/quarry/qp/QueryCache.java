package io.quarry.qp;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import com.fasterxml.jackson.core.type.TypeReference;
import io.quarry.appdb.Db;
import io.quarry.core.Json;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.ibatis.exceptions.PersistenceException;

/**
 * Cached query results, in the application database so every instance sharing it uses them. The key is the
 * compiled query — database, SQL, bind values, row limit — so two cards asking the same thing share a result; the
 * value is the columns and rendered rows, gzipped JSON. Only results up to {@link #MAX_ROWS} rows are kept.
 */
public final class QueryCache {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(QueryCache.class);
    public static final int MAX_ROWS = 10_000;
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() { };

    private final Db db;
    private final Clock clock;
    private final Counter hits;
    private final Counter misses;

    /** {@code meters}: hits and misses are counted as {@code quarry_query_cache_total{result="hit"|"miss"}}. */
    public QueryCache(Db db, Clock clock, MeterRegistry meters) {
        this.db = db;
        hits = cacheCounter(meters, "hit");
        misses = cacheCounter(meters, "miss");
        // cached results are not what the application database's caches hold: storing one changes none of them
        db.writesNothingCached(QueryCacheMapper.class, "updateCachedResult", "insertCachedResult", "deleteCachedResultsBefore");
        this.clock = clock;
    }

    private static Counter cacheCounter(MeterRegistry meters, String result) {
        return Counter.builder("quarry.query.cache").description("Look-ups of the result cache by saved cards with a cache TTL")
                .tag("result", result).register(meters);
    }

    /** A stored row of query_cache. */
    public static final class Stored {
        public OffsetDateTime updatedAt;
        public byte[] results;
    }

    /** A result read back: columns, rendered rows, when it was computed. */
    public record Hit(List<Column> columns, List<Object[]> rows, boolean truncated, long rowLimit, OffsetDateTime cachedAt) {
    }

    public static String key(long databaseId, CompiledQuery query, long rowLimit) {
        List<Object> parts = new ArrayList<>();
        parts.add(databaseId);
        parts.add(query.sql());
        for (Object param : query.params()) {
            parts.add(param == null ? null : param.getClass().getSimpleName() + ":" + param);
        }
        parts.add(rowLimit);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(Json.write(parts).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The cached result for a key if younger than {@code ttl}, else null. */
    @SuppressWarnings("unchecked")
    public Hit find(String key, Duration ttl) {
        OffsetDateTime notBefore = OffsetDateTime.now(clock).minus(ttl);
        Stored stored = db.with(QueryCacheMapper.class, m -> m.findCachedResult(key, notBefore));
        if (stored == null) {
            misses.increment();
            return null;
        }
        hits.increment();
        Map<String, Object> json = gunzip(stored.results);
        List<Column> columns = new ArrayList<>();
        for (Object col : (List<Object>) json.get("cols")) {
            columns.add(Column.fromJson((Map<String, Object>) col));
        }
        List<Object[]> rows = new ArrayList<>();
        for (Object row : (List<Object>) json.get("rows")) {
            rows.add(((List<Object>) row).toArray());
        }
        return new Hit(columns, rows, Boolean.TRUE.equals(json.get("truncated")), ((Number) json.get("row_limit")).longValue(),
                stored.updatedAt);
    }

    public void store(String key, List<Column> columns, List<Object[]> rows, boolean truncated, long rowLimit) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("cols", columns.stream().map(Column::toJson).toList());
        json.put("rows", rows);
        json.put("truncated", truncated);
        json.put("row_limit", rowLimit);
        byte[] bytes = gzip(json);
        OffsetDateTime now = OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
        try {
            db.run(session -> {
                QueryCacheMapper mapper = session.getMapper(QueryCacheMapper.class);
                if (mapper.updateCachedResult(key, now, bytes) == 0) {
                    mapper.insertCachedResult(key, now, bytes);
                }
            });
        } catch (PersistenceException e) {
            // Most likely another request (or instance) stored the same result a moment ago, which is as good; but
            // say so, a cache that never stores must not go unnoticed.
            log.warn("Could not store a cached result: {}", e.getMessage());
        }
    }

    /** Deletes results older than the longest time any could still be used. */
    public int purgeOlderThan(Duration age) {
        OffsetDateTime before = OffsetDateTime.now(clock).minus(age);
        return db.with(QueryCacheMapper.class, m -> m.deleteCachedResultsBefore(before));
    }

    private static byte[] gzip(Map<String, Object> json) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            Json.MAPPER.writeValue(out, json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static Map<String, Object> gunzip(byte[] bytes) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            return Json.MAPPER.readValue(in, MAP);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A writer that passes everything on and keeps a rendered copy of the rows, stored in the cache once the result is
     * complete — unless it grew past {@link #MAX_ROWS}, or the client went away midway.
     */
    public final class Recording implements ResultWriter {
        private final ResultWriter delegate;
        private final String key;
        private final boolean jsIntToString;
        private final List<Object[]> rows = new ArrayList<>();
        private List<Column> columns;
        private boolean overflow;

        public Recording(ResultWriter delegate, String key, boolean jsIntToString) {
            this.delegate = delegate;
            this.key = key;
            this.jsIntToString = jsIntToString;
        }

        @Override
        public void begin(List<Column> columns) throws IOException {
            this.columns = columns;
            delegate.begin(columns);
        }

        @Override
        public void row(Object[] values) throws IOException {
            delegate.row(values);
            if (overflow) {
                return;
            }
            if (rows.size() >= MAX_ROWS) {
                overflow = true;
                rows.clear();
                return;
            }
            Object[] copy = new Object[values.length];
            for (int i = 0; i < values.length; i++) {
                copy[i] = ApiResultWriter.render(values[i], jsIntToString);
            }
            rows.add(copy);
        }

        @Override
        public void end(Summary summary) throws IOException {
            delegate.end(summary);
            if (!overflow) {
                store(key, columns, rows, summary.truncated(), summary.rowLimit());
            }
        }
    }
}
