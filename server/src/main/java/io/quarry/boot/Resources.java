package io.quarry.boot;

import io.quarry.auth.ApiKeyResource;
import io.quarry.auth.ExternalAuthResource;
import io.quarry.auth.LoginHistoryResource;
import io.quarry.auth.PasswordResetResource;
import io.quarry.auth.SessionResource;
import io.quarry.card.CardResource;
import io.quarry.mail.EmailResource;
import io.quarry.notification.PulseUnsubscribeResource;
import io.quarry.notification.SessionUnsubscribeResource;
import io.quarry.qp.DatasetResource;
import io.quarry.setting.SettingResource;
import io.quarry.setup.SetupResource;
import io.quarry.sync.FieldValuesResource;
import io.quarry.sync.SyncResource;
import io.quarry.user.GroupResource;
import io.quarry.user.MembershipResource;
import io.quarry.user.UserResource;
import io.quarry.util.HealthDetailsResource;
import io.quarry.util.HealthResource;
import io.quarry.util.MetricsResource;
import io.quarry.util.UtilResource;
import io.quarry.warehouse.DatabaseMetadataResource;
import io.quarry.warehouse.DatabaseResource;
import io.quarry.warehouse.FieldMetadataResource;
import io.quarry.warehouse.TableMetadataResource;
import java.util.List;

/** Every resource class of the API, registered explicitly (no classpath scanning). */
public final class Resources {
    public static final List<Class<?>> ALL = List.of(
            HealthResource.class,
            HealthDetailsResource.class,
            MetricsResource.class,
            SessionResource.class,
            SetupResource.class,
            UserResource.class,
            GroupResource.class,
            MembershipResource.class,
            PasswordResetResource.class,
            ExternalAuthResource.class,
            SessionUnsubscribeResource.class,
            PulseUnsubscribeResource.class,
            io.quarry.notification.PulseResource.class,
            io.quarry.notification.AlertResource.class,
            io.quarry.notification.ChannelResource.class,
            io.quarry.notification.TaskResource.class,
            SettingResource.class,
            EmailResource.class,
            io.quarry.user.TestEmailResource.class,
            ApiKeyResource.class,
            LoginHistoryResource.class,
            UtilResource.class,
            UtilResource.PasswordCheck.class,
            UtilResource.Logger.class,
            UtilResource.BugReporting.class,
            UtilResource.Analytics.class,
            DatabaseResource.class,
            DatasetResource.class,
            CardResource.class,
            DatabaseMetadataResource.class,
            TableMetadataResource.class,
            FieldMetadataResource.class,
            SyncResource.class,
            io.quarry.sync.TableSyncResource.class,
            FieldValuesResource.class,
            io.quarry.qp.export.ExportResource.class,
            io.quarry.card.CardExportResource.class,
            io.quarry.qp.QueryMetadataResource.class,
            io.quarry.qp.TableDataResource.class,
            io.quarry.dashboard.DashboardResource.class,
            io.quarry.timeline.TimelineResource.class,
            io.quarry.timeline.TimelineEventResource.class,
            io.quarry.timeline.CollectionTimelinesResource.class,
            io.quarry.timeline.CardTimelinesResource.class,
            io.quarry.permission.DataPermissionResource.class,
            io.quarry.search.SearchResource.class,
            io.quarry.revision.RevisionResource.class,
            io.quarry.bookmark.BookmarkResource.class,
            io.quarry.search.activity.ActivityResource.class,
            io.quarry.card.CardParamsResource.class,
            io.quarry.card.CardSeriesResource.class,
            io.quarry.card.CardsResource.class,
            io.quarry.card.CardTableResource.class,
            io.quarry.card.CardUploadResource.class,
            io.quarry.card.CardUploadResource.Upload.class,
            io.quarry.card.TableUploadResource.class,
            io.quarry.segment.SegmentResource.class,
            io.quarry.snippet.SnippetResource.class,
            io.quarry.collection.CollectionResource.class,
            io.quarry.dashboard.DashboardParamsResource.class,
            io.quarry.web.docs.DocsResource.class,
            io.quarry.publicsharing.PublicResource.class,
            io.quarry.action.ActionResource.class,
            io.quarry.action.PublicActionResource.class,
            io.quarry.embed.EmbedResource.class,
            io.quarry.render.PreviewResource.class,
            io.quarry.render.PreviewResource.Info.class,
            io.quarry.render.PreviewResource.Png.class,
            io.quarry.persistence.PersistResource.class,
            io.quarry.persistence.CardPersistResource.Persist.class,
            io.quarry.persistence.CardPersistResource.Unpersist.class,
            io.quarry.persistence.CardPersistResource.Refresh.class,
            io.quarry.persistence.DatabasePersistResource.Persist.class,
            io.quarry.persistence.DatabasePersistResource.Unpersist.class,
            io.quarry.assistant.AssistantResource.class,
            io.quarry.assistant.AssistantResource.Metabot.class,
            io.quarry.assistant.LlmResource.class,
            io.quarry.mcp.McpResource.class,
            io.quarry.mcp.McpResource.Alias.class,
            io.quarry.embed.PreviewEmbedResource.class,
            io.quarry.embed.PreviewEmbedResource.Hyphen.class);

    private Resources() {
    }
}
