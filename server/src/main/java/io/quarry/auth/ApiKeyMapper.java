package io.quarry.auth;

import java.time.OffsetDateTime;
import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface ApiKeyMapper {
    List<ApiKey> listApiKeys();

    long countApiKeys();

    ApiKey findApiKey(@Param("id") long id);

    ApiKey findApiKeyByPrefix(@Param("prefix") String prefix);

    ApiKey findApiKeyByName(@Param("name") String name);

    void insertApiKey(ApiKey key);

    int updateApiKeyName(@Param("id") long id, @Param("name") String name, @Param("by") long updatedBy, @Param("at") OffsetDateTime at);

    int updateApiKeySecret(@Param("id") long id, @Param("hash") String hash, @Param("prefix") String prefix,
                           @Param("by") long updatedBy, @Param("at") OffsetDateTime at);

    int touchApiKey(@Param("id") long id, @Param("by") long updatedBy, @Param("at") OffsetDateTime at);

    int deleteApiKey(@Param("id") long id);
}
