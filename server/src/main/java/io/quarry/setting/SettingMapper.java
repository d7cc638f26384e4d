package io.quarry.setting;

import java.util.List;
import java.util.Map;
import org.apache.ibatis.annotations.Param;

public interface SettingMapper {
    String findSettingValue(@Param("key") String key);

    List<StoredSetting> listSettings();

    int updateSetting(@Param("key") String key, @Param("value") String value);

    int insertSetting(@Param("key") String key, @Param("value") String value);

    int deleteSetting(@Param("key") String key);

    /** A user's own settings; null when there is no such user. */
    UserLocal findUserLocal(@Param("userId") long userId);

    int updateUserLocal(@Param("userId") long userId, @Param("settings") Map<String, Object> settings);

    final class UserLocal {
        public long userId;
        public Map<String, Object> settings;
    }

    final class StoredSetting {
        public String settingKey;
        public String settingValue;
    }
}
