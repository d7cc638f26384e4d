package io.quarry.boot;

import io.quarry.auth.AuthFilter;
import io.quarry.core.Caller;
import io.quarry.web.JsonCharsetFilter;
import io.quarry.web.JsonProvider;
import io.quarry.web.QueryFailureClassFilter;
import io.quarry.web.body.FormAcceptingModel;
import io.quarry.web.body.ParsedBodyReader;
import io.quarry.web.body.RequestBodies;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
        register(ParamConverters.class);
        register(RequestBodies.class);
        register(ParsedBodyReader.class);
        register(FormAcceptingModel.class);
        register(AuthFilter.class);
        register(io.quarry.embed.SdkCors.class);
        register(AccessFeature.class);
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
                bindFactory(CallerFactory.class).to(Caller.class).in(RequestScoped.class);
            }
        });
    }

    /**
     * Binds every public final field of the composition root under its declared type, and under each of Quarry's own
     * interfaces it implements that no other service implements (so a module can ask for a narrow interface it
     * declares, such as the warehouse module's {@code SyncLauncher}, instead of the class of the module providing it).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void bindServices(AbstractBinder binder, Quarry quarry) {
        binder.bind(quarry).to(Quarry.class);
        Map<Class<?>, List<Object>> byInterface = new HashMap<>();
        for (Field field : Quarry.class.getFields()) {
            if (Modifier.isFinal(field.getModifiers()) && !Modifier.isStatic(field.getModifiers())) {
                Object service;
                try {
                    service = field.get(quarry);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
                if (service != null) {
                    binder.bind(service).to((Class) field.getType());
                    for (Class<?> type : service.getClass().getInterfaces()) {
                        if (type.getName().startsWith("io.quarry.") && type != field.getType()) {
                            byInterface.computeIfAbsent(type, t -> new ArrayList<>()).add(service);
                        }
                    }
                }
            }
        }
        byInterface.forEach((type, services) -> {
            if (services.size() == 1) {
                binder.bind(services.get(0)).to((Class) type);
            }
        });
    }
}
