package io.quarry.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.card.CardResource;
import io.quarry.core.Caller;
import io.quarry.dashboard.DashboardResource;
import io.quarry.qp.DatasetResource;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;
import jakarta.ws.rs.core.Context;
import java.lang.reflect.Constructor;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Resources built once for every request ({@code @Singleton}, the query paths, so that a card query does not pay for
 * building its resource) must never hold what belongs to one request: a {@link Caller} taken by the constructor would be
 * the first caller's for every later request. They take {@code Provider<Caller>} and ask it per request.
 */
class SingletonResourcesTest {
    @Test
    void noSingletonResourceTakesARequestsCallerOrContextInItsConstructor() {
        List<String> wrong = new ArrayList<>();
        for (Class<?> resource : Resources.ALL) {
            if (!resource.isAnnotationPresent(Singleton.class)) {
                continue;
            }
            for (Constructor<?> constructor : resource.getConstructors()) {
                for (Parameter parameter : constructor.getParameters()) {
                    if (parameter.getType() == Caller.class || parameter.isAnnotationPresent(Context.class)) {
                        wrong.add(resource.getSimpleName() + "(" + parameter.getType().getSimpleName() + ")");
                    }
                }
            }
        }
        assertEquals(List.of(), wrong, "singleton resources holding one request's objects");
    }

    @Test
    void theQueryResourcesAreSingletonsThatAskForTheCallerPerRequest() {
        for (Class<?> resource : List.of(CardResource.class, DashboardResource.class, DatasetResource.class)) {
            assertTrue(resource.isAnnotationPresent(Singleton.class), resource.getSimpleName());
            boolean asksPerRequest = false;
            for (Parameter parameter : resource.getConstructors()[0].getParameters()) {
                asksPerRequest |= parameter.getType() == Provider.class
                        && parameter.getParameterizedType() instanceof ParameterizedType type
                        && type.getActualTypeArguments()[0] == Caller.class;
            }
            assertTrue(asksPerRequest, resource.getSimpleName() + " takes Provider<Caller>");
            assertFalse(resource.getConstructors().length > 1, resource.getSimpleName() + " has one constructor");
        }
    }
}
