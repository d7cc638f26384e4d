package io.quarry.setting;

import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface SettingMapper {
    String findSettingValue(@Param("key") String key);

    List<StoredSetting> listSettings();

    int updateSetting(@Param("key") String key, @Param("value") String value);

    int insertSetting(@Param("key") String key, @Param("value") String value);

    int deleteSetting(@Param("key") String key);

    final class StoredSetting {
        public String settingKey;
        public String settingValue;
    }
}
