package io.quarry.action;

import io.quarry.appdb.Db;
import io.quarry.card.CardService;
import io.quarry.outbound.OutboundHttp;
import io.quarry.permission.DataPermissions;
import io.quarry.setting.Settings;
import io.quarry.user.UserService;
import io.quarry.qp.Warehouses;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.DetailsCodec;
import io.quarry.warehouse.MetadataService;
import java.time.Clock;

/**
 * The action module: writes attached to models, run on the model's database or, for HTTP actions, through the
 * outbound guard; and the throttle of their public links.
 */
public record ActionModule(ActionService actions, PublicActionThrottle publicActionThrottle) {
    /** {@code encryptionSecretKey}: HTTP templates hold credentials, stored encrypted like database details. */
    public static ActionModule create(Clock clock, Db db, Settings settings, String encryptionSecretKey, CardService cards,
            DatabaseService databases, Warehouses warehouses, MetadataService metadata, DataPermissions dataPermissions,
            UserService users, OutboundHttp outboundHttp) {
        ActionService actions = new ActionService(db, cards, databases, dataPermissions, users, settings,
                new ActionRunner(databases, warehouses, metadata, clock), outboundHttp, DetailsCodec.forKey(encryptionSecretKey), clock);
        return new ActionModule(actions, new PublicActionThrottle(clock));
    }
}
