package io.quarry.dashboard;

import java.time.OffsetDateTime;
import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface DashboardMapper {
    void insertDashboard(Dashboard dashboard);

    Dashboard findDashboard(@Param("id") long id);

    /** Every dashboard, or those of one creator; archived or not; by lower-cased name. */
    List<Dashboard> listDashboards(@Param("archived") boolean archived, @Param("creatorId") Long creatorId);

    int updateDashboard(Dashboard dashboard);

    int deleteDashboard(@Param("id") long id);

    List<Long> dashboardIdsInCollections(@Param("ids") List<Long> collectionIds);

    /** The live dashboard shared under this public UUID (idx_dashboard_public_uuid), or null. */
    Long findPublicDashboardId(@Param("uuid") String uuid);

    /** The id of the dashboard with this NanoID {@code entity_id}, or null. */
    Long findIdByEntityId(@Param("entityId") String entityId);

    int setPublicUuid(@Param("id") long id, @Param("uuid") String uuid, @Param("userId") Long userId);

    List<Dashboard> publicDashboards();

    List<Dashboard> embeddableDashboards();

    // --- tabs ---

    void insertTab(DashboardTab tab);

    List<DashboardTab> tabsOf(@Param("dashboardId") long dashboardId);

    int updateTab(@Param("id") long id, @Param("name") String name, @Param("position") int position, @Param("at") OffsetDateTime at);

    int deleteTab(@Param("id") long id);

    // --- dashcards ---

    void insertDashcard(Dashcard dashcard);

    List<Dashcard> dashcardsOf(@Param("dashboardId") long dashboardId);

    Dashcard findDashcard(@Param("id") long id);

    int updateDashcard(Dashcard dashcard);

    int deleteDashcard(@Param("id") long id);

    void insertSeries(SeriesRow series);

    int deleteSeriesOf(@Param("dashcardId") long dashcardId);

    List<SeriesRow> seriesOfDashboard(@Param("dashboardId") long dashboardId);

    // --- what dashboards refer to ---

    CardRow findCard(@Param("id") long id);

    List<CardRow> findCards(@Param("ids") List<Long> ids);

    /** Live (not archived) cards on these tables, by id. */
    List<CardRow> liveCardsOnTables(@Param("tableIds") List<Long> tableIds);

    void insertCardCopy(CardRow card);

    CollectionRow findCollection(@Param("id") long id);

    List<CollectionRow> findCollections(@Param("ids") List<Long> ids);

    /** The newest revision of every dashboard ({@code id} null) or of one, with its author. */
    List<LastEditRow> lastEdits(@Param("id") Long id);

    /** Fields named by parameter mappings, for {@code param_fields}. */
    List<java.util.Map<String, Object>> findFields(@Param("ids") List<Long> ids);
}
