package io.quarry.notification;

import java.util.Collection;
import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface NotificationMapper {
    // --- channels ------------------------------------------------------------------------------------------------
    void insertChannel(Channel channel);

    Channel findChannel(@Param("id") long id);

    Channel findChannelByName(@Param("name") String name);

    /** By name; inactive ones too when asked. */
    List<Channel> channels(@Param("includeInactive") boolean includeInactive);

    int updateChannel(Channel channel);

    int countActiveChannels(@Param("type") String type);

    /** Deletes the pulse channels that deliver through a channel (it was deactivated). */
    int deletePulseChannelsOfChannel(@Param("channelId") long channelId);

    // --- pulses ----------------------------------------------------------------------------------------------------
    void insertPulse(Pulse pulse);

    Pulse findPulse(@Param("id") long id);

    /** Subscriptions ({@code alerts} false) or alerts, archived or not, optionally of one dashboard or one card. */
    List<Pulse> pulses(@Param("alerts") boolean alerts, @Param("archived") Boolean archived, @Param("dashboardId") Long dashboardId,
                       @Param("cardId") Long cardId);

    int updatePulse(Pulse pulse);

    void insertPulseCard(PulseCard card);

    List<PulseCard> pulseCards(@Param("pulseIds") Collection<Long> pulseIds);

    int deletePulseCards(@Param("pulseId") long pulseId);

    void insertPulseChannel(PulseChannel channel);

    PulseChannel findPulseChannel(@Param("id") long id);

    List<PulseChannel> pulseChannels(@Param("pulseIds") Collection<Long> pulseIds);

    /** Every enabled channel of a live pulse (live dashboard, if any), for the scheduler. */
    List<PulseChannel> schedulableChannels();

    int updatePulseChannel(PulseChannel channel);

    int deletePulseChannel(@Param("id") long id);

    int deletePulseChannels(@Param("pulseId") long pulseId);

    int setChannelsEnabled(@Param("pulseId") long pulseId, @Param("enabled") boolean enabled);

    void insertRecipient(@Param("pulseChannelId") long pulseChannelId, @Param("userId") long userId);

    int deleteRecipient(@Param("pulseChannelId") long pulseChannelId, @Param("userId") long userId);

    /** Active user recipients, by user id. */
    List<Recipient> recipients(@Param("channelIds") Collection<Long> channelIds);

    /** Ids of the pulses a user receives on an email channel. */
    List<Long> pulsesReceivedBy(@Param("userId") long userId);

    /** Active users by id: those that may be recipients. */
    List<Recipient> activeUsers(@Param("ids") Collection<Long> ids);

    // --- task history ----------------------------------------------------------------------------------------------
    void insertTaskRun(TaskRun run);

    int finishTaskRun(TaskRun run);

    List<TaskRun> taskRuns(@Param("limit") int limit, @Param("offset") int offset);

    TaskRun findTaskRun(@Param("id") long id);

    long countTaskRuns();
}
