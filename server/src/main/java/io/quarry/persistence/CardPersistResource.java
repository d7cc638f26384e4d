package io.quarry.persistence;

import io.quarry.core.Caller;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Objects;

/**
 * The spec's {@code POST /api/card/:id/persist|unpersist|refresh} (v0.63 has them under {@code /api/persist/card}): one root
 * resource per path, so that each is a route of its own (and a path of {@code /api/docs}) without a {@code card/{id}} root
 * resource, which would shadow the card resource's own sub-paths.
 */
public final class CardPersistResource {
    private CardPersistResource() {
    }

    @Path("card/{id}/persist")
    @Produces(MediaType.APPLICATION_JSON)
    @Consumes(MediaType.APPLICATION_JSON)
    public static final class Persist {
        private final PersistenceService persistence;
        private final Caller caller;

        @Inject
        public Persist(PersistenceService persistence, Caller caller) {
            this.persistence = Objects.requireNonNull(persistence, "persistence is null");
            this.caller = Objects.requireNonNull(caller, "caller is null");
        }

        @POST
        @Access(Access.Level.SUPERUSER)
        public Response persist(@PathParam("id") PosInt id) {
            return act(persistence, caller, id.value(), "persist");
        }
    }

    @Path("card/{id}/unpersist")
    @Produces(MediaType.APPLICATION_JSON)
    @Consumes(MediaType.APPLICATION_JSON)
    public static final class Unpersist {
        private final PersistenceService persistence;
        private final Caller caller;

        @Inject
        public Unpersist(PersistenceService persistence, Caller caller) {
            this.persistence = Objects.requireNonNull(persistence, "persistence is null");
            this.caller = Objects.requireNonNull(caller, "caller is null");
        }

        @POST
        @Access(Access.Level.SUPERUSER)
        public Response unpersist(@PathParam("id") PosInt id) {
            return act(persistence, caller, id.value(), "unpersist");
        }
    }

    @Path("card/{id}/refresh")
    @Produces(MediaType.APPLICATION_JSON)
    @Consumes(MediaType.APPLICATION_JSON)
    public static final class Refresh {
        private final PersistenceService persistence;
        private final Caller caller;

        @Inject
        public Refresh(PersistenceService persistence, Caller caller) {
            this.persistence = Objects.requireNonNull(persistence, "persistence is null");
            this.caller = Objects.requireNonNull(caller, "caller is null");
        }

        @POST
        @Access(Access.Level.SUPERUSER)
        public Response refresh(@PathParam("id") PosInt id) {
            return act(persistence, caller, id.value(), "refresh");
        }
    }

    /** 204 once done: persist and refresh start a refresh, unpersist drops the table. */
    static Response act(PersistenceService persistence, Caller caller, long cardId, String action) {
        switch (action) {
            case "persist" -> persistence.persistCard(cardId, caller.userId());
            case "unpersist" -> persistence.unpersistCard(cardId);
            case "refresh" -> persistence.refreshCard(cardId);
            default -> throw new IllegalArgumentException(action);
        }
        return Response.noContent().build();
    }
}
