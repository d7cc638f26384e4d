package io.quarry.qp;

import java.time.OffsetDateTime;
import org.apache.ibatis.annotations.Param;

public interface QueryCacheMapper {
    QueryCache.Stored findCachedResult(@Param("hash") String hash, @Param("notBefore") OffsetDateTime notBefore);

    int updateCachedResult(@Param("hash") String hash, @Param("at") OffsetDateTime at, @Param("results") byte[] results);

    int insertCachedResult(@Param("hash") String hash, @Param("at") OffsetDateTime at, @Param("results") byte[] results);

    int deleteCachedResultsBefore(@Param("before") OffsetDateTime before);
}
