package io.quarry.web.body;

import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
import java.util.List;
import org.glassfish.jersey.server.model.ModelProcessor;
import org.glassfish.jersey.server.model.Resource;
import org.glassfish.jersey.server.model.ResourceMethod;
import org.glassfish.jersey.server.model.ResourceModel;

/**
 * Lets every JSON endpoint take form fields too, as Metabase's do (COMPAT-2 §G): a method that consumes JSON also
 * consumes {@code application/x-www-form-urlencoded}, and {@link ParsedBodyReader} gives it the fields as its body.
 * A method with a form-specific sibling (same path and verb, the export endpoints) is left alone so the sibling
 * still gets the form.
 */
@Provider
public final class FormAcceptingModel implements ModelProcessor {
    private static final MediaType FORM = MediaType.APPLICATION_FORM_URLENCODED_TYPE;

    @Override
    public ResourceModel processResourceModel(ResourceModel model, Configuration configuration) {
        ResourceModel.Builder builder = new ResourceModel.Builder(false);
        for (Resource resource : model.getResources()) {
            builder.addResource(process(resource));
        }
        return builder.build();
    }

    @Override
    public ResourceModel processSubResource(ResourceModel model, Configuration configuration) {
        ResourceModel.Builder builder = new ResourceModel.Builder(true);
        for (Resource resource : model.getResources()) {
            builder.addResource(process(resource));
        }
        return builder.build();
    }

    private static Resource process(Resource resource) {
        Resource.Builder builder = Resource.builder(resource);
        boolean changed = false;
        for (ResourceMethod method : resource.getResourceMethods()) {
            if (acceptsJsonOnly(method) && !hasFormSibling(resource.getResourceMethods(), method)) {
                builder.updateMethod(method).consumes(FORM);
                changed = true;
            }
        }
        for (Resource child : resource.getChildResources()) {
            Resource processed = process(child);
            if (processed != child) {
                builder.replaceChildResource(child, processed);
                changed = true;
            }
        }
        return changed ? builder.build() : resource;
    }

    private static boolean acceptsJsonOnly(ResourceMethod method) {
        List<MediaType> types = method.getConsumedTypes();
        return types.stream().anyMatch(t -> t.isCompatible(MediaType.APPLICATION_JSON_TYPE) && !t.isWildcardType())
                && types.stream().noneMatch(t -> t.isCompatible(FORM));
    }

    private static boolean hasFormSibling(List<ResourceMethod> methods, ResourceMethod method) {
        return methods.stream().anyMatch(other -> other != method && other.getHttpMethod().equals(method.getHttpMethod())
                && other.getConsumedTypes().stream().anyMatch(t -> t.equals(FORM)));
    }
}
