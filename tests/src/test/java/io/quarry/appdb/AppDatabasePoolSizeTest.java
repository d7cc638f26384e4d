package io.quarry.appdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.core.AppConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE: Metabase's default, a given size, and a clear start-up error. */
class AppDatabasePoolSizeTest {
    private static AppConfig config(Map<String, String> values) {
        return new AppConfig(values::get);
    }

    @Test
    void defaultIsMetabases() {
        assertEquals(15, AppDatabase.maxPoolSize(config(Map.of())));
        assertEquals(15, AppDatabase.maxPoolSize(config(Map.of("MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE", " "))));
    }

    @Test
    void givenSizeIsUsed() {
        assertEquals(40, AppDatabase.maxPoolSize(config(Map.of("MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE", " 40 "))));
    }

    @Test
    void badSizeStopsStartUpNamingTheKey() {
        for (String bad : new String[]{"0", "-3", "many"}) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> AppDatabase.maxPoolSize(config(Map.of("MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE", bad))));
            assertTrue(e.getMessage().contains("MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE"), e.getMessage());
        }
    }
}
