package io.quarry.web;

import io.quarry.boot.Resources;
import io.quarry.web.security.AccessFeature;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every endpoint declares who may call it: a forgotten check fails here before it fails at start-up. */
class AccessCoverageTest {
    @Test
    void everyResourceMethodDeclaresItsAccess() {
        List<String> missing = new ArrayList<>();
        int endpoints = 0;
        for (Class<?> resource : Resources.ALL) {
            assertTrue(resource.isAnnotationPresent(Path.class), resource + " is not a resource");
            for (Method method : resource.getMethods()) {
                if (isEndpoint(method)) {
                    endpoints++;
                    if (AccessFeature.accessOf(resource, method) == null) {
                        missing.add(resource.getSimpleName() + "." + method.getName());
                    }
                }
            }
        }
        assertTrue(endpoints > 0);
        assertEquals(List.of(), missing);
    }

    private static boolean isEndpoint(Method m) {
        return m.isAnnotationPresent(GET.class) || m.isAnnotationPresent(POST.class) || m.isAnnotationPresent(PUT.class)
                || m.isAnnotationPresent(DELETE.class) || m.isAnnotationPresent(PATCH.class);
    }
}
