package io.quarry.web;

import io.quarry.boot.AppState;
import io.quarry.boot.Quarry;
import io.quarry.web.body.FormAcceptingModel;
import io.quarry.web.body.ParsedBodyReader;
import io.quarry.web.body.RequestBodies;
import io.quarry.web.error.ApiExceptionMapper;
import io.quarry.web.error.JsonSyntaxExceptionMapper;
import io.quarry.web.error.UnexpectedExceptionMapper;
import io.quarry.web.error.WebExceptionMapper;
import io.quarry.web.param.ParamConverters;
import io.quarry.web.security.AccessFeature;
import io.quarry.web.security.AuthFilter;
import io.quarry.core.Caller;
import io.quarry.web.security.CallerFactory;
import jakarta.servlet.ServletContext;
import jakarta.ws.rs.core.Context;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
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
        register(AccessFeature.class);
        register(ApiExceptionMapper.class);
        register(WebExceptionMapper.class);
        register(JsonSyntaxExceptionMapper.class);
        register(UnexpectedExceptionMapper.class);
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

    /** Binds every public final field of the composition root under its declared type. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void bindServices(AbstractBinder binder, Quarry quarry) {
        binder.bind(quarry).to(Quarry.class);
        for (Field field : Quarry.class.getFields()) {
            if (Modifier.isFinal(field.getModifiers()) && !Modifier.isStatic(field.getModifiers())) {
                try {
                    Object service = field.get(quarry);
                    if (service != null) {
                        binder.bind(service).to((Class) field.getType());
                    }
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }
}
