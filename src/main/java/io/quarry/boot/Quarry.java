package io.quarry.boot;

import io.quarry.appdb.AppDatabase;
import io.quarry.appdb.Db;
import io.quarry.auth.ApiKeyMapper;
import io.quarry.auth.ApiKeyService;
import io.quarry.auth.AuthSettings;
import io.quarry.auth.ExternalAuthService;
import io.quarry.auth.LoginHistory;
import io.quarry.auth.PasswordResetMapper;
import io.quarry.auth.PasswordResetService;
import io.quarry.auth.Passwords;
import io.quarry.auth.SessionMapper;
import io.quarry.auth.SessionService;
import io.quarry.bookmark.BookmarkMapper;
import io.quarry.card.CardLookups;
import io.quarry.card.CardMapper;
import io.quarry.card.CardService;
import io.quarry.collection.CollectionAccess;
import io.quarry.collection.CollectionGraph;
import io.quarry.collection.CollectionItems;
import io.quarry.collection.CollectionMapper;
import io.quarry.collection.CollectionPermissionMapper;
import io.quarry.collection.CollectionService;
import io.quarry.collection.CollectionTree;
import io.quarry.collection.GraphCollectionAccess;
import io.quarry.core.AppConfig;
import io.quarry.core.Json;
import io.quarry.web.docs.ApiDocs;
import io.quarry.core.ConnectionPools;
import io.quarry.dashboard.DashboardMapper;
import io.quarry.dashboard.DashboardService;
import io.quarry.driver.ConnectionTester;
import io.quarry.driver.DatabasePools;
import io.quarry.driver.DriverSettings;
import io.quarry.driver.Drivers;
import io.quarry.mail.EmailService;
import io.quarry.mail.Mailer;
import io.quarry.notification.UnsubscribeService;
import io.quarry.permission.DataPermissionGraph;
import io.quarry.permission.DataPermissionMapper;
import io.quarry.permission.DataPermissions;
import io.quarry.qp.QueryCache;
import io.quarry.qp.QueryCacheMapper;
import io.quarry.qp.QueryExecutor;
import io.quarry.qp.QueryMetadata;
import io.quarry.qp.QueryProcessor;
import io.quarry.qp.run.QueryRunner;
import io.quarry.revision.RevisionMapper;
import io.quarry.revision.Revisions;
import io.quarry.savedquestion.CardSources;
import io.quarry.savedquestion.SavedQuestionMapper;
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
import io.quarry.sync.SchemaSync;
import io.quarry.sync.SyncMapper;
import io.quarry.sync.SyncSchedules;
import io.quarry.sync.SyncService;
import io.quarry.timeline.TimelineMapper;
import io.quarry.timeline.TimelineService;
import io.quarry.user.GroupService;
import io.quarry.user.InviteMailer;
import io.quarry.user.UserMapper;
import io.quarry.user.UserService;
import io.quarry.util.Diagnostics;
import io.quarry.util.DiagnosticsMapper;
import io.quarry.util.LogBuffer;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.DatabaseUsage;
import io.quarry.warehouse.DetailsCodec;
import io.quarry.warehouse.MetadataService;
import io.quarry.warehouse.SampleDatabaseService;
import io.quarry.warehouse.SavedQuestions;
import io.quarry.warehouse.TableQueryMetadata;
import io.quarry.warehouse.WarehouseMapper;
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
 * The composition root: builds every long-lived service once, in dependency order, and closes them in reverse.
 * Every public final field is bound for injection by {@link QuarryApplication}, so adding a service
 * is adding a field here.
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
            CollectionMapper.class);

    public final AppConfig config;
    public final Clock clock;
    public final AppDatabase appDatabase;
    public final Db db;
    public final Settings settings;
    public final Passwords passwords;
    public final Mailer mailer;
    public final SessionService sessions;
    public final ApiKeyService apiKeys;
    public final UserService users;
    public final SetupService setup;
    public final GroupService groups;
    public final InviteMailer invites;
    public final ScheduledExecutorService scheduler;
    public final PasswordResetService passwordResets;
    public final ExternalAuthService externalAuth;
    public final UnsubscribeService unsubscribes;
    public final LoginHistory loginHistory;
    public final EmailService email;
    public final ConnectionPools connectionPools;
    public final Diagnostics diagnostics;
    public final Drivers drivers;
    public final DatabasePools databasePools;
    public final DatabaseService databases;
    public final SchemaSync schemaSync;
    public final SyncService sync;
    public final QueryProcessor queryProcessor;
    public final QueryCache queryCache;
    public final QueryRunner queryRunner;
    public final CardService cards;
    public final MetadataService metadata;
    public final TableQueryMetadata tableQueryMetadata;
    public final QueryMetadata queryMetadata;
    public final SavedQuestions savedQuestions;
    public final DatabaseUsage databaseUsage;
    public final FieldValuesService fieldValues;
    public final SyncSchedules syncSchedules;
    public final ConnectionTester connectionTester;
    public final SampleDatabaseService sampleDatabases;
    public final CollectionAccess collectionAccess;
    public final Revisions revisions;
    public final DashboardService dashboards;
    public final TimelineService timelines;
    public final DataPermissions dataPermissions;
    public final DataPermissionGraph dataPermissionGraph;
    public final SearchService search;
    public final SegmentService segments;
    public final SnippetService snippets;
    public final CardSources cardSources;
    public final CollectionService collections;
    public final CollectionItems collectionItems;
    public final CollectionTree collectionTree;
    public final CollectionGraph collectionGraph;
    public final ApiDocs apiDocs;
    public final io.quarry.publicsharing.PublicSharing publicSharing;
    public final io.quarry.embed.EmbedTokens embedTokens;

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
        this.appDatabase = appDatabase;
        db = new Db(appDatabase.sessionFactory(), appDatabase.status());
        passwords = new Passwords(config);
        settings = new Settings(db, config);
        mailer = new Mailer(settings);
        sessions = new SessionService(db, settings, config, clock);
        apiKeys = new ApiKeyService(db, clock);
        users = new UserService(db, clock);
        setup = new SetupService(db, settings, users);
        groups = new GroupService(db, users);
        invites = new InviteMailer(settings, mailer);
        CoreSettings.register(settings, () -> db.with(UserMapper.class, UserMapper::countPeople) > 0, passwords::rule);
        progress.set(0.9);
        // One scheduler for all background work (sync, field values, persistence, notifications); a few threads so
        // that a long sync does not hold up everything else.
        scheduler = Executors.newScheduledThreadPool(4, named("quarry-scheduler"));
        passwordResets = new PasswordResetService(db, settings, mailer, sessions, config, clock, scheduler);
        externalAuth = new ExternalAuthService(db, settings, sessions, users, config, clock);
        unsubscribes = new UnsubscribeService(settings, config, clock);
        AuthSettings.register(settings);
        LogBuffer.install();
        loginHistory = new LoginHistory(db, sessions, clock);
        email = new EmailService(settings, Duration.ofSeconds(5), Duration.ofSeconds(15));
        connectionPools = new ConnectionPools();
        connectionPools.register("app-db", appDatabase::poolInfo);
        diagnostics = new Diagnostics(db, appDatabase, settings, connectionPools, clock);
        // the H2 driver refuses Quarry's own application database file
        drivers = Drivers.standard(config.dbType == AppConfig.DbType.H2 ? config.dbUrl : null);
        databasePools = new DatabasePools(connectionPools, config.queryTimeoutSeconds);
        connectionTester = new ConnectionTester(drivers, () -> DriverSettings.connectionTimeoutMillis(settings));
        databases = new DatabaseService(db, drivers, databasePools, DetailsCodec.forKey(config.encryptionSecretKey),
                connectionTester, clock);
        schemaSync = new SchemaSync(db, databases, clock);
        sync = new SyncService(databases, schemaSync, scheduler);
        // What the query processor reads while it compiles and checks rights, built before it: collection rights,
        // revisions (segments record theirs), data permissions, then the look-ups of cards, segments and snippets.
        collectionAccess = new GraphCollectionAccess(db);
        revisions = new Revisions(clock);
        dataPermissions = new DataPermissions(db);
        segments = new SegmentService(db, revisions, dataPermissions, clock);
        snippets = new SnippetService(db, collectionAccess, clock);
        CardLookups cardLookups = new CardLookups(db, collectionAccess);
        queryProcessor = new QueryProcessor(databases, new QueryExecutor(databases), db, settings, clock,
                config.queryTimeoutSeconds, new QueryProcessor.Lookups(cardLookups::cardQuery, cardLookups,
                        segments::filterOf, snippets::contentByName, dataPermissions::mayRunQuery));
        queryCache = new QueryCache(db, clock);
        cards = new CardService(db, databases, queryProcessor, settings, clock);
        queryRunner = new QueryRunner(queryProcessor, queryCache, cards::touch, clock);
        // Metabase's longest cache TTL is measured in days: results older than a month are of no use to anyone.
        every(Duration.ofHours(6), "query cache purge", () -> queryCache.purgeOlderThan(Duration.ofDays(31)));
        metadata = new MetadataService(db, databases, sync, clock);
        tableQueryMetadata = new TableQueryMetadata(databases, metadata, dataPermissions);
        queryMetadata = new QueryMetadata(databases, metadata, tableQueryMetadata);
        savedQuestions = new SavedQuestions();
        databaseUsage = new DatabaseUsage();
        databaseUsage.register("question", id -> cards.countOnDatabase(id, "question"));
        databaseUsage.register("dataset", id -> cards.countOnDatabase(id, "model"));
        databaseUsage.register("metric", id -> cards.countOnDatabase(id, "metric"));
        every(Duration.ofHours(1), "session purge", sessions::purgeExpired);
        fieldValues = sync.fieldValues();
        syncSchedules = new SyncSchedules(db, sync, databasePools, scheduler, clock);
        syncSchedules.start();
        DriverSettings.register(settings, drivers);
        sampleDatabases = new SampleDatabaseService(databases, sync, config, scheduler);
        dashboards = new DashboardService(db, collectionAccess, revisions, settings, clock);
        timelines = new TimelineService(db, collectionAccess, clock);
        dataPermissionGraph = new DataPermissionGraph(db, clock);
        databases.onCreate((session, database) -> dataPermissions.grantDatabaseDefaults(session, database.id));
        groups.onCreate(dataPermissions::grantGroupDefaults);
        search = new SearchService(db, collectionAccess, dataPermissions);
        cards.use(collectionAccess, revisions);
        revisions.register("dashboard", dashboards);
        publicSharing = new io.quarry.publicsharing.PublicSharing(settings, cards, dashboards, queryRunner,
                new io.quarry.parameters.ParameterValues(db, queryProcessor, fieldValues, dataPermissions));
        embedTokens = new io.quarry.embed.EmbedTokens(settings, clock);
        cardSources = new CardSources(db, collectionAccess, dataPermissions, databases);
        savedQuestions.register(cardSources);
        collections = new CollectionService(db, collectionAccess, clock);
        collectionItems = new CollectionItems(db, collections);
        collectionTree = new CollectionTree(db, collections);
        collectionGraph = new CollectionGraph(db, clock);
        apiDocs = new ApiDocs(Resources.ALL, Json.MAPPER);
    }

    /**
     * Runs a task periodically on the shared scheduler. A periodic task that throws is silently never run again, so
     * failures are caught and logged here.
     */
    public void every(Duration period, String name, Runnable task) {
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.warn("Scheduled task '{}' failed", name, e);
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
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
        scheduler.shutdownNow();
        queryProcessor.close();
        databasePools.close();
        connectionTester.close();
        drivers.release();
        try {
            if (!scheduler.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("Scheduled tasks did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        appDatabase.close();
    }

    /** How far start-up has got, for {@code GET /api/health} while starting. */
    public interface StartupProgress {
        void set(double fraction);
    }
}
