package io.quarry.boot;

import io.quarry.auth.AuthFilter;
import io.quarry.embed.CsrfFilter;
import io.quarry.core.Caller;
import io.quarry.web.JsonCharsetFilter;
import io.quarry.web.JsonProvider;
import io.quarry.web.QueryFailureClassFilter;
import io.quarry.web.body.FormAcceptingModel;
import io.quarry.web.body.ParsedBodyReader;
import io.quarry.web.body.RequestBodies;
import io.quarry.web.body.UnreadBodies;
import io.quarry.web.error.ApiExceptionMapper;
import io.quarry.web.error.AppDatabaseUnavailableMapper;
import io.quarry.web.error.JsonSyntaxExceptionMapper;
import io.quarry.web.error.UnauthenticatedExceptionMapper;
import io.quarry.web.error.UnexpectedExceptionMapper;
import io.quarry.web.error.WebExceptionMapper;
import io.quarry.web.param.ParamConverters;
import io.quarry.web.security.AccessFeature;
import io.quarry.web.security.CallerFactory;
import jakarta.servlet.ServletContext;
import jakarta.ws.rs.core.Context;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.glassfish.jersey.internal.inject.AbstractBinder;
import org.glassfish.jersey.jackson.JacksonFeature;
import org.glassfish.jersey.process.internal.RequestScoped;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

/**
 * The JAX-RS application under {@code /api}. Created by {@link io.quarry.boot.ApiServlet} only once {@link Quarry} is
 * built, so every service exists by now.
 */
public final class QuarryApplication extends ResourceConfig {
    public QuarryApplication(@Context ServletContext context) {
        this(AppState.of(context).quarry());
    }

    public QuarryApplication(Quarry quarry) {
        property(ServerProperties.WADL_FEATURE_DISABLE, true);
        property(ServerProperties.BV_FEATURE_DISABLE, true);
        // Jersey's own Jackson exception mappers answer with their texts; ours use Metabase's error shapes.
        register(JacksonFeature.withoutExceptionMappers());
        register(JsonProvider.class);
        register(JsonCharsetFilter.class);
        register(io.quarry.web.AnyAccept.class);
        register(ParamConverters.class);
        register(RequestBodies.class);
        register(UnreadBodies.class);
        register(ParsedBodyReader.class);
        register(FormAcceptingModel.class);
        register(AuthFilter.class);
        register(CsrfFilter.class);
        register(io.quarry.embed.SdkCors.class);
        register(AccessFeature.class);
        register(new io.quarry.search.activity.ViewRecording(quarry.recentViews));
        register(ApiExceptionMapper.class);
        register(WebExceptionMapper.class);
        register(JsonSyntaxExceptionMapper.class);
        register(AppDatabaseUnavailableMapper.class);
        register(UnexpectedExceptionMapper.class);
        register(QueryFailureClassFilter.class);
        register(UnauthenticatedExceptionMapper.class);
        for (Class<?> resource : Resources.ALL) {
            register(resource);
        }
        register(new AbstractBinder() {
            @Override
            protected void configure() {
                bindServices(this, quarry);
                // the caller is made once per request; the factory that makes it once (it holds only a provider of the
                // current request): built per request, HK2 resolved its constructor for every caller (~2 % of a card query)
                bindFactory(CallerFactory.class, jakarta.inject.Singleton.class).to(Caller.class).in(RequestScoped.class);
            }
        });
    }

    /**
     * Binds every final instance field of the composition root (public or not): a module (a record) as each of its
     * services under the component's declared type, any other field under its declared type. Each service is bound too under each of
     * Quarry's own interfaces it implements that no other service implements (so a module can ask for a narrow interface
     * it declares, such as the warehouse module's {@code SyncLauncher}, instead of the class of the module providing it).
     * A service reachable twice (a module's service and its shortcut field) is bound once.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void bindServices(AbstractBinder binder, Quarry quarry) {
        binder.bind(quarry).to(Quarry.class);
        Map<Class<?>, Object> byType = new LinkedHashMap<>();
        for (Field field : Quarry.class.getDeclaredFields()) {
            if (Modifier.isFinal(field.getModifiers()) && !Modifier.isStatic(field.getModifiers())) {
                Object value = read(field, quarry);
                if (value instanceof Record module) {
                    for (RecordComponent component : module.getClass().getRecordComponents()) {
                        put(byType, component.getType(), read(component, module));
                    }
                } else {
                    put(byType, field.getType(), value);
                }
            }
        }
        Map<Class<?>, Set<Object>> byInterface = new HashMap<>();
        byType.forEach((type, service) -> {
            binder.bind(service).to((Class) type);
            for (Class<?> contract : service.getClass().getInterfaces()) {
                if (contract.getName().startsWith("io.quarry.") && !byType.containsKey(contract)) {
                    byInterface.computeIfAbsent(contract, t -> Collections.newSetFromMap(new IdentityHashMap<>())).add(service);
                }
            }
        });
        byInterface.forEach((type, services) -> {
            if (services.size() == 1) {
                binder.bind(services.iterator().next()).to((Class) type);
            }
        });
    }

    private static void put(Map<Class<?>, Object> byType, Class<?> type, Object service) {
        if (service == null) {
            return;
        }
        Object bound = byType.putIfAbsent(type, service);
        if (bound != null && bound != service) {
            throw new IllegalStateException("Two services of type " + type.getName() + " to inject");
        }
    }

    private static Object read(Field field, Object owner) {
        try {
            return field.get(owner);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object read(RecordComponent component, Record module) {
        try {
            return component.getAccessor().invoke(module);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
