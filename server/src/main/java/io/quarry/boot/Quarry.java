package io.quarry.boot;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarry.action.ActionMapper;
import io.quarry.action.ActionModule;
import io.quarry.appdb.AppDatabase;
import io.quarry.appdb.Db;
import io.quarry.assistant.AssistantService;
import io.quarry.assistant.FeedbackMapper;
import io.quarry.mcp.McpModule;
import io.quarry.auth.ApiKeyMapper;
import io.quarry.auth.ApiKeyService;
import io.quarry.auth.AuthModule;
import io.quarry.auth.PasswordResetMapper;
import io.quarry.auth.PasswordResetService;
import io.quarry.auth.Passwords;
import io.quarry.auth.SessionMapper;
import io.quarry.auth.SessionService;
import io.quarry.bookmark.BookmarkMapper;
import io.quarry.bookmark.BookmarkService;
import io.quarry.card.CardMapper;
import io.quarry.card.CardModule;
import io.quarry.card.CardService;
import io.quarry.card.CardUploads;
import io.quarry.collection.CollectionAccess;
import io.quarry.collection.CollectionMapper;
import io.quarry.collection.CollectionModule;
import io.quarry.collection.CollectionPermissionMapper;
import io.quarry.collection.CollectionService;
import io.quarry.core.AppConfig;
import io.quarry.core.Caller;
import io.quarry.core.ConnectionPools;
import io.quarry.core.Json;
import io.quarry.dashboard.DashboardMapper;
import io.quarry.dashboard.DashboardModule;
import io.quarry.dashboard.SavedContent;
import io.quarry.driver.DatabasePools;
import io.quarry.driver.DriverSettings;
import io.quarry.driver.Drivers;
import io.quarry.embed.SharingModule;
import io.quarry.mail.MailModule;
import io.quarry.notification.NotificationMapper;
import io.quarry.notification.NotificationModule;
import io.quarry.notification.UnsubscribeService;
import io.quarry.outbound.HostStrategy;
import io.quarry.outbound.OutboundHttp;
import io.quarry.parameters.ParameterValues;
import io.quarry.permission.DataPermissionMapper;
import io.quarry.permission.DataPermissions;
import io.quarry.permission.PermissionModule;
import io.quarry.persistence.PersistedInfoMapper;
import io.quarry.persistence.PersistedTables;
import io.quarry.persistence.PersistenceModule;
import io.quarry.persistence.PersistenceService;
import io.quarry.qp.QueryCacheMapper;
import io.quarry.qp.QueryModule;
import io.quarry.qp.QueryProcessor;
import io.quarry.qp.Warehouses;
import io.quarry.qp.run.QueryRunner;
import io.quarry.render.RenderModule;
import io.quarry.revision.RevisionMapper;
import io.quarry.revision.Revisions;
import io.quarry.savedquestion.CardSources;
import io.quarry.savedquestion.SavedQuestionModule;
import io.quarry.savedquestion.SavedQuestionMapper;
import io.quarry.schedule.ClusterJobs;
import io.quarry.schedule.JobRunMapper;
import io.quarry.search.SearchMapper;
import io.quarry.search.SearchService;
import io.quarry.segment.SegmentMapper;
import io.quarry.segment.SegmentService;
import io.quarry.setting.CoreSettings;
import io.quarry.setting.SettingMapper;
import io.quarry.setting.Settings;
import io.quarry.setup.SetupService;
import io.quarry.snippet.SnippetMapper;
import io.quarry.snippet.SnippetService;
import io.quarry.sync.FieldValuesService;
import io.quarry.sync.SyncMapper;
import io.quarry.sync.SyncModule;
import io.quarry.sync.SyncSchedules;
import io.quarry.sync.SyncService;
import io.quarry.timeline.TimelineMapper;
import io.quarry.timeline.TimelineService;
import io.quarry.user.UserMapper;
import io.quarry.user.UserModule;
import io.quarry.user.UserService;
import io.quarry.util.Diagnostics;
import io.quarry.util.DiagnosticsMapper;
import io.quarry.util.HealthDetails;
import io.quarry.util.LogBuffer;
import io.quarry.util.LogLevels;
import io.quarry.util.OpsMetrics;
import io.quarry.util.PrometheusServer;
import io.quarry.util.RequestMeters;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.DatabaseUsage;
import io.quarry.warehouse.MetadataModule;
import io.quarry.warehouse.MetadataService;
import io.quarry.warehouse.SavedQuestions;
import io.quarry.warehouse.WarehouseMapper;
import io.quarry.warehouse.WarehouseModule;
import io.quarry.web.docs.ApiDocs;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: builds the modules once, in dependency order, and closes them in reverse. Each module with more
 * than one service is a record built by its own {@code create} (for example {@link UserModule}); a module of one service
 * is that service. {@link #start()} starts the periodic work once everything is built.
 *
 * <p>{@link QuarryApplication} binds for injection every final field: a module's services one by one (each record
 * component by its type), any other field by its type. Only what tests and tools read is public; the rest is there for
 * the resources, which receive it by constructor.
 */
public final class Quarry implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Quarry.class);

    /** Every MyBatis mapper; adding the class loads the XML beside it. */
    static final List<Class<?>> MAPPERS = List.of(UserMapper.class, SettingMapper.class, SessionMapper.class, ApiKeyMapper.class,
            PasswordResetMapper.class, DiagnosticsMapper.class, WarehouseMapper.class, CardMapper.class, QueryCacheMapper.class,
            SyncMapper.class, RevisionMapper.class,
            CollectionPermissionMapper.class,
            DashboardMapper.class, TimelineMapper.class,
            DataPermissionMapper.class, SearchMapper.class,
            BookmarkMapper.class,
            SegmentMapper.class, SnippetMapper.class,
            SavedQuestionMapper.class,
            CollectionMapper.class, NotificationMapper.class,
            JobRunMapper.class,
            ActionMapper.class,
            PersistedInfoMapper.class,
            FeedbackMapper.class,
            io.quarry.search.activity.RecentViewMapper.class);

    // the kernel
    final AppConfig config;
    final Clock clock;
    public final AppDatabase appDatabase;
    public final Db db;
    public final Settings settings;
    final ScheduledExecutorService scheduler;
    final ConnectionPools connectionPools;
    /** The metrics every module records into; served by {@code GET /api/metrics} and the separate listener. */
    public final OpsMetrics metrics;
    /** The API's requests, counted by the servlet. */
    public final RequestMeters requestMeters;
    final Diagnostics diagnostics;
    /** The temporary log-level adjustment of {@code /api/logger/adjustment}. */
    final LogLevels logLevels;
    final OutboundHttp outboundHttp;
    public final ClusterJobs clusterJobs;
    // the modules, in the order they are built (the constructor's steps)
    // 2. mail, data permissions
    final MailModule mailModule;
    final PermissionModule permissionModule;
    // 3. people
    final UserModule userModule;
    final AuthModule authModule;
    final SetupService setup;
    // 4. warehouses
    final WarehouseModule warehouseModule;
    public final SyncModule syncModule;
    final MetadataModule metadataModule;
    // 5. what the query processor reads, then the query processor
    final CollectionModule collectionModule;
    final Revisions revisions;
    final SegmentService segments;
    final SnippetService snippets;
    public final PersistedTables persistedTables;
    final QueryModule queryModule;
    // 6. the runner, then what runs queries through it
    final QueryRunner queryRunner;
    final ParameterValues parameterValues;
    final CardModule cardModule;
    final PersistenceModule persistenceModule;
    final DashboardModule dashboardModule;
    final TimelineService timelines;
    final SearchService search;
    final BookmarkService bookmarks;
    final io.quarry.search.activity.RecentViews recentViews;
    // 7. the warehouse views of cards
    final SavedQuestionModule savedQuestionModule;
    // 8. what strangers may see
    final SharingModule sharingModule;
    final ApiDocs apiDocs;
    // 9. actions
    final ActionModule actionModule;
    // 10. rendering
    final RenderModule renderModule;
    // 11. notifications
    public final NotificationModule notificationModule;
    final UnsubscribeService unsubscribes;
    // 12. the assistant
    final AssistantService assistant;
    // 13. the MCP server
    final McpModule mcpModule;
    // 14. what operators see
    final HealthDetails healthDetails;
    /** The separate metrics listener ({@code MB_PROMETHEUS_SERVER_PORT}), started by {@link #start()}; null when off. */
    private volatile PrometheusServer prometheusServer;
    // shortcuts to services of the modules above, for tests and tools
    public final CardService cards;
    public final PersistenceService persistence;
    public final CardSources cardSources;
    public final SavedQuestions savedQuestions;
    public final DatabaseUsage databaseUsage;
    public final UserService users;
    public final SessionService sessions;
    public final ApiKeyService apiKeys;
    public final PasswordResetService passwordResets;
    public final Drivers drivers;
    public final DatabasePools databasePools;
    public final Warehouses warehouses;
    public final DatabaseService databases;
    public final SyncService sync;
    public final FieldValuesService fieldValues;
    public final SyncSchedules syncSchedules;
    public final MetadataService metadata;

    public Quarry(AppConfig config, Clock clock, StartupProgress progress) {
        this(config, clock, progress, openAppDatabase(config, progress));
    }

    /** The application database, migrated: the part of start-up that depends on the environment. */
    public static AppDatabase openAppDatabase(AppConfig config, StartupProgress progress) {
        progress.set(0.1);
        AppDatabase opened = new AppDatabase(config, MAPPERS);
        progress.set(0.6);
        return opened;
    }

    /** Builds every service over an application database already open and migrated. */
    public Quarry(AppConfig config, Clock clock, StartupProgress progress, AppDatabase appDatabase) {
        this.config = config;
        this.clock = clock;
        // 1. The kernel: the application database (opened and migrated by the caller), settings, the scheduler and
        //    the pool registry.
        this.appDatabase = appDatabase;
        db = new Db(appDatabase.sessionFactory(), appDatabase.status(), appDatabase.cacheRevision());
        settings = new Settings(db, config);
        // Settings are listed in the order they are registered (GET /api/setting): core, auth, card uploads, drivers.
        Passwords passwords = new Passwords(config);
        CoreSettings.register(settings, () -> db.with(UserMapper.class, UserMapper::countPeople) > 0, passwords::rule);
        progress.set(0.9);
        // One scheduler for all background work (sync, field values, persistence, notifications); a few threads so
        // that a long sync does not hold up everything else.
        scheduler = Executors.newScheduledThreadPool(4, named("quarry-scheduler"));
        LogBuffer.install();
        // The pool registry, then the metrics: they read every pool at each scrape, and the modules built below record
        // into them as they work.
        connectionPools = new ConnectionPools();
        connectionPools.register("app-db", appDatabase::poolInfo);
        metrics = new OpsMetrics(connectionPools, Boolean.parseBoolean(config.get("MB_PROMETHEUS_API_ENABLED")));
        metrics.monitor(scheduler, "quarry-scheduler");
        requestMeters = new RequestMeters(metrics.registry());
        MeterRegistry meters = metrics.registry();
        // Scheduled work that must run once across the instances sharing the application database (syncs, sends).
        clusterJobs = new ClusterJobs(db, appDatabase.dataSource(), scheduler, clock, meters);
        diagnostics = new Diagnostics(db, appDatabase, settings, connectionPools, clock);
        logLevels = new LogLevels(scheduler);
        // Every call to a URL a user gave (webhooks, HTTP actions) goes through this guard. Metabase reads the strategy
        // from the environment only, never from a stored setting.
        outboundHttp = new OutboundHttp(parseHostStrategy(config.get("MB_HTTP_CHANNEL_HOST_STRATEGY")));

        // 2. Mail, then data permissions: new groups and new databases get their default permissions in the
        //    transaction that creates them, so permissions come before users and warehouses.
        mailModule = MailModule.create(settings, meters);
        permissionModule = PermissionModule.create(db, clock);
        DataPermissions dataPermissions = permissionModule.dataPermissions();

        // 3. People: users, then authentication (it reads users), setup (it creates the first one).
        userModule = UserModule.create(db, settings, mailModule.mailer(), clock, dataPermissions::grantGroupDefaults);
        authModule = AuthModule.create(config, clock, db, settings, passwords, mailModule.mailer(), userModule.users(),
                scheduler);
        setup = new SetupService(db, settings, userModule.users());

        // 4. Warehouses: connections, sync (it reads their schemas), then metadata (it starts syncs).
        warehouseModule = WarehouseModule.create(config, clock, db,
                () -> DriverSettings.connectionTimeoutMillis(settings),
                (session, database) -> dataPermissions.grantDatabaseDefaults(session, database.id));
        DatabaseService databaseService = warehouseModule.databases();
        // The one door to the connected databases (the query runner's): every connection to them, for reads and writes
        // alike, is borrowed there. Quarry may write to a database while actions or model persistence are on for it,
        // or while it is the uploads database.
        databasePools = new DatabasePools(connectionPools, config.queryTimeoutSeconds, () -> DriverSettings.maxPoolSize(settings));
        warehouses = new Warehouses(warehouseModule.drivers(), databasePools,
                database -> DatabaseService.mayWrite(database) || CardUploads.isUploadsDatabase(settings, database.id),
                config.queryTimeoutSeconds);
        databaseService.onConnectionChanged(warehouses::forget);
        syncModule = SyncModule.create(clock, db, databaseService, warehouses, scheduler, clusterJobs);
        metrics.observe(syncModule.sync());
        metadataModule = MetadataModule.create(config, clock, db, databaseService, syncModule.sync(), dataPermissions, scheduler);

        // 5. What the query processor reads while it compiles and checks rights, built before it: collection rights,
        //    revisions (segments record theirs), segment filters, snippet texts, and the parts of two later modules
        //    that queries read.
        collectionModule = CollectionModule.create(clock, db);
        CollectionAccess collectionAccess = collectionModule.collectionAccess();
        revisions = new Revisions(db, clock);
        segments = new SegmentService(db, revisions, dataPermissions, clock);
        snippets = new SnippetService(db, collectionAccess, clock);
        // The card module's part for the query path comes before the rest of it: the processor compiles card
        // references through its look-ups, and the runner (step 6) records card use in its usage writer; the cards
        // themselves run queries through the runner.
        CardModule.ForQueries cardsForQueries = CardModule.ForQueries.create(db, collectionAccess, clock);
        // Persistence's tables come before the rest of it: a persisted model is read from its table wherever a query
        // uses it (card__N sources, joins, {{#N}} tags); refreshes run through the runner (step 6).
        persistedTables = PersistenceModule.tables(db, settings, databaseService, warehouses);
        queryModule = QueryModule.create(clock, db, settings, config.queryTimeoutSeconds, databaseService, warehouses,
                metadataModule.metadata(), metadataModule.tableQueryMetadata(), new QueryProcessor.Lookups(
                        id -> persistedTables.withTable(id, cardsForQueries.lookups().cardQuery(id)),
                        cardsForQueries.lookups(), segments::filterOf, snippets::contentByName, dataPermissions::mayRunQuery),
                meters);

        // 6. The runner (it records cards' use in their usage writer), then filter values (cards', dashboards', and
        //    those of public links and signed embeds, through the runner), then what runs queries through it: cards
        //    (their result metadata), persistence (model refreshes), dashboards (their filters' values); timelines,
        //    search, bookmarks, recent views.
        queryRunner = new QueryRunner(queryModule.queryProcessor(), queryModule.queryCache(), cardsForQueries.usage()::record,
                clock);
        parameterValues = new ParameterValues(metadataModule.metadata(), queryRunner, syncModule.fieldValues(),
                dataPermissions);
        cardModule = CardModule.create(cardsForQueries, clock, db, settings, collectionAccess, revisions, databaseService,
                warehouses, metadataModule.metadata(), syncModule.schemaSync(), queryRunner, parameterValues, persistedTables, dataPermissions);
        cards = cardModule.cards();
        // refreshes run on the shared scheduler's threads, and once per cluster on the refresh schedule
        persistenceModule = PersistenceModule.create(persistedTables, clock, db, settings, databaseService, warehouses, cards,
                userModule.users(), queryRunner, scheduler);
        clusterJobs.addSource(persistenceModule.refreshJobs());
        // after the card upload settings, in the order of GET /api/setting (step 1)
        DriverSettings.register(settings, warehouseModule.drivers());
        // saving a transient dashboard makes its new cards as POST /api/card does, in a generated-dashboards collection
        CardService savedCards = cards;
        CollectionService savedCollections = collectionModule.collections();
        dashboardModule = DashboardModule.create(db, collectionAccess, revisions, settings, parameterValues, clock, new SavedContent() {
            @Override
            public long createCard(Caller caller, com.fasterxml.jackson.databind.JsonNode card) {
                return savedCards.create(card, caller).id;
            }

            @Override
            public void deleteCard(Caller caller, long id) {
                savedCards.delete(id, caller);
            }

            @Override
            public long generatedDashboardsCollection(Caller caller) {
                return savedCollections.generatedDashboardsCollection(caller);
            }
        });
        timelines = new TimelineService(db, collectionAccess, clock);
        search = new SearchService(db, collectionAccess, dataPermissions);
        bookmarks = new BookmarkService(db, collectionAccess, clock);
        recentViews = new io.quarry.search.activity.RecentViews(db, collectionAccess, dataPermissions, clock);
        // Revisions is written to by the services that keep a history and reads back through them for a revert: they
        // need it first, so they are made reachable through /api/revision here, once they exist.
        revisions.register("card", cards);
        revisions.register("dashboard", dashboardModule.dashboards());
        // a collection deleted for good takes its cards and dashboards with it, through their modules
        collectionModule.collections().registerContents(cards.contents());
        collectionModule.collections().registerContents(dashboardModule.dashboards().contents());

        // 7. The warehouse views of cards: the Saved Questions virtual database, and how many cards use a database.
        //    The warehouse module shows them, but it comes long before the cards they read.
        savedQuestionModule = SavedQuestionModule.create(db, collectionAccess, dataPermissions, databaseService, cards);

        // 8. What strangers may see: public links and signed embeds run saved cards and dashboards through the runner,
        //    with their filters' values; the API description is read from the registered resources.
        sharingModule = SharingModule.create(settings, clock, cards, dashboardModule.dashboards(), queryRunner, parameterValues);
        apiDocs = new ApiDocs(Resources.ALL, Json.MAPPER);

        // 9. Actions: writes attached to models, run on the model's database (and shared by public link).
        actionModule = ActionModule.create(clock, db, settings, config.encryptionSecretKey, cards, databaseService, warehouses,
                metadataModule.metadata(), dataPermissions, userModule.users(), outboundHttp);

        // 10. Rendering: cards as e-mail HTML and chart PNGs (subscriptions, alerts, webhooks, previews).
        renderModule = RenderModule.create(cards, queryRunner, settings);

        // 11. Notifications: subscriptions and alerts run their cards through the runner as their creator, render them,
        //     and go out by email and through the outbound guard to webhooks; their schedule runs once per cluster.
        notificationModule = NotificationModule.create(config, clock, db, settings, collectionAccess, cards,
                dashboardModule.dashboards(), userModule.users(), queryRunner, renderModule.renderer(), mailModule.mailer(), outboundHttp,
                meters);
        unsubscribes = notificationModule.unsubscribes();
        clusterJobs.addSource(notificationModule.schedule());

        // 12. The assistant: questions in plain language become queries, compiled by the query processor with the
        //     caller's rights (its language-model settings are registered here).
        assistant = new AssistantService(db, settings, config.encryptionSecretKey, databaseService, metadataModule.metadata(),
                dataPermissions, queryModule.queryProcessor(), queryRunner, cards, clock);

        // 13. The MCP server: its tools run as the caller through the services above (search, table metadata, the
        //     runner, cards, dashboards, collections, the chart renderer); its settings are registered here.
        mcpModule = McpModule.create(clock, settings, search, metadataModule.metadata(), metadataModule.tableQueryMetadata(),
                dataPermissions, queryModule.queryProcessor(), queryRunner, cards, dashboardModule.dashboards(),
                collectionModule.collections(), renderModule.renderer());
        // 14. What operators see: each dependency checked on request (GET /api/health/details).
        healthDetails = new HealthDetails(appDatabase, databaseService, warehouses, connectionPools, mailModule.mailer(), clusterJobs);

        users = userModule.users();
        sessions = authModule.sessions();
        apiKeys = authModule.apiKeys();
        passwordResets = authModule.passwordResets();
        drivers = warehouseModule.drivers();
        databases = databaseService;
        sync = syncModule.sync();
        fieldValues = syncModule.fieldValues();
        syncSchedules = syncModule.syncSchedules();
        metadata = metadataModule.metadata();
        persistence = persistenceModule.persistence();
        cardSources = savedQuestionModule.cardSources();
        savedQuestions = savedQuestionModule.savedQuestions();
        databaseUsage = savedQuestionModule.databaseUsage();
    }

    /**
     * Starts the periodic work: sync schedules and purges. Called by the listener once everything is built, before
     * Quarry answers requests; a Quarry that is never started (a test of a few services) runs nothing in the background
     * but what its requests start.
     */
    public void start() {
        String port = config.get("MB_PROMETHEUS_SERVER_PORT");
        if (port != null) {
            int parsed;
            try {
                parsed = Integer.parseInt(port.trim());
            } catch (NumberFormatException e) {
                throw new IllegalStateException("MB_PROMETHEUS_SERVER_PORT must be a port number, not '" + port + "'", e);
            }
            prometheusServer = PrometheusServer.start(parsed, metrics);
        }
        syncModule.start();
        clusterJobs.start();
        // Metabase's longest cache TTL is measured in days: results older than a month are of no use to anyone.
        every(Duration.ofHours(6), "query cache purge", () -> queryModule.queryCache().purgeOlderThan(Duration.ofDays(31)));
        every(Duration.ofHours(1), "session purge", authModule.sessions()::purgeExpired);
        // cards' views and last use, counted in memory by the queries, written in batches (and at close)
        every(Duration.ofMillis(config.usageFlushIntervalMillis), "card usage", cards::flushUsage);
    }

    /**
     * Runs a task periodically on the shared scheduler. A periodic task that throws is silently never run again, so
     * failures are caught and logged here.
     */
    public void every(Duration period, String name, Runnable task) {
        Timer ok = scheduledTaskTimer(name, "ok");
        Timer failed = scheduledTaskTimer(name, "failed");
        scheduler.scheduleWithFixedDelay(() -> {
            long began = System.nanoTime();
            try {
                task.run();
                ok.record(System.nanoTime() - began, TimeUnit.NANOSECONDS);
            } catch (RuntimeException e) {
                failed.record(System.nanoTime() - began, TimeUnit.NANOSECONDS);
                log.warn("Scheduled task '{}' failed", name, e);
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    private Timer scheduledTaskTimer(String name, String outcome) {
        return Timer.builder("quarry.scheduled.task.duration").description("Periodic tasks of this instance (purges, usage writes)")
                .tag("task", name).tag("outcome", outcome).register(metrics.registry());
    }

    /** The port of the separate metrics listener, or -1 when {@code MB_PROMETHEUS_SERVER_PORT} is not set. */
    public int prometheusPort() {
        PrometheusServer server = prometheusServer;
        return server == null ? -1 : server.port();
    }

    private static HostStrategy parseHostStrategy(String value) {
        try {
            return HostStrategy.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public void close() {
        PrometheusServer server = prometheusServer;
        if (server != null) {
            server.close();
        }
        healthDetails.close();
        logLevels.close();
        clusterJobs.stop();
        scheduler.shutdownNow();
        queryModule.queryProcessor().close();
        outboundHttp.close();
        databasePools.close();
        warehouseModule.close();
        try {
            if (!scheduler.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("Scheduled tasks did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // after the scheduler (no flush runs concurrently), before the application database goes
        cards.closeUsage();
        appDatabase.close();
        metrics.close();
    }

    /** How far start-up has got, for {@code GET /api/health} while starting. */
    public interface StartupProgress {
        void set(double fraction);
    }
}
