package io.quarry.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirectoryTest {
    @TempDir
    Path temp;

    @Test
    void writableWorkingDirectoryKeepsTheRootContextsFilesWhereTheyWere() {
        Path working = temp.resolve("cwd");
        assertEquals(working, DataDirectory.defaultFor(new DataDirectory.Deployment(working, "", null, null)));
        assertEquals(working.resolve("quarry-quarry"), DataDirectory.defaultFor(new DataDirectory.Deployment(working, "/quarry", null, null)));
    }

    @Test
    void readOnlyWorkingDirectoryUsesTheContainersDirectoryPerContext() throws Exception {
        // a file is never a writable directory, whoever runs the test (root can write anywhere)
        Path readOnly = Files.writeString(temp.resolve("not-a-directory"), "");
        Path catalinaBase = Files.createDirectories(temp.resolve("tomcat"));
        Path root = DataDirectory.defaultFor(new DataDirectory.Deployment(readOnly.resolve("x"), "", catalinaBase, null));
        Path quarry = DataDirectory.defaultFor(new DataDirectory.Deployment(readOnly.resolve("x"), "/quarry", catalinaBase, null));
        assertEquals(catalinaBase.resolve("work/quarry/ROOT"), root);
        assertEquals(catalinaBase.resolve("work/quarry/quarry"), quarry);
        Path tempDir = Files.createDirectories(temp.resolve("jetty-context-tmp"));
        assertEquals(tempDir.resolve("quarry-data"),
                DataDirectory.defaultFor(new DataDirectory.Deployment(readOnly.resolve("x"), "/quarry", null, tempDir)));
        assertNotEquals(root, quarry);
    }

    @Test
    void contextNamesAreFileNames() {
        assertEquals("ROOT", DataDirectory.contextName(""));
        assertEquals("ROOT", DataDirectory.contextName("/"));
        assertEquals("a#b", DataDirectory.contextName("/a/b"));
    }

    @Test
    void appConfigPutsTheH2FileAndSampleDatabaseInTheDataDirectory() {
        Path data = temp.resolve("data");
        AppConfig config = new AppConfig(Map.of("MB_DATA_DIR", data.toString())::get);
        assertEquals(data.resolve("quarry.db"), config.h2File());
        assertEquals(data.resolve("plugins"), config.pluginsDir());
        AppConfig explicit = new AppConfig(Map.of("MB_DATA_DIR", data.toString(), "MB_DB_FILE", temp.resolve("x.mv.db").toString(),
                "MB_PLUGINS_DIR", temp.resolve("p").toString())::get);
        assertEquals(temp.resolve("x"), explicit.h2File());
        assertEquals(temp.resolve("p"), explicit.pluginsDir());
    }
}
