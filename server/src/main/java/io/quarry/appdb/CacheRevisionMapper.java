package io.quarry.appdb;

/** The application database's cache revision (table {@code quarry_cache_revision}, one row). */
public interface CacheRevisionMapper {
    long findRevision();

    int bumpRevision();
}
