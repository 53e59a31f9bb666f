package dev.cardcatalog.job;

import dev.cardcatalog.platform.TransientFailure;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The marks of SERVICE.md §5.8 "an applied refresh while a build is in flight queues one more build after it", in
 * PostgreSQL's {@code art_build_follow_up} so that whichever replica ends the build sees them. One mark per art-build
 * job waited for, however many refreshes applied meanwhile; whoever deletes a mark queues the build.
 */
@ApplicationScoped
public class ArtBuildFollowUp {

    /**
     * A refresh that applied while art-build job {@code afterJob} was in flight.
     *
     * @param refreshId the first such refresh job
     * @param trigger   that refresh's trigger, given to the follow-up build
     */
    public record Mark(UUID afterJob, UUID refreshId, JobTrigger trigger) {
    }

    private final DataSource dataSource;
    private final Clock clock;

    public ArtBuildFollowUp(DataSource dataSource, Clock clock) {
        this.dataSource = dataSource;
        this.clock = clock;
    }

    /**
     * Marks that refresh {@code refreshId} applied while art-build job {@code afterJob} was in flight; a second mark
     * for the same build changes nothing.
     *
     * @throws TransientFailure if the database fails
     */
    public void mark(UUID afterJob, UUID refreshId, JobTrigger trigger) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("""
                        INSERT INTO art_build_follow_up (after_job, refresh_id, trigger, marked_at) VALUES (?, ?, ?, ?)
                        ON CONFLICT (after_job) DO NOTHING""")) {
            insert.setObject(1, afterJob);
            insert.setObject(2, refreshId);
            insert.setString(3, trigger.wire());
            insert.setTimestamp(4, Timestamp.from(clock.instant()));
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new TransientFailure("the follow-up art build could not be marked: " + e.getMessage(), e);
        }
    }

    /**
     * Takes (deletes) the mark left for art-build job {@code afterJob}: the caller that gets it queues the build.
     *
     * @return empty when there was none, or another caller took it
     * @throws TransientFailure if the database fails
     */
    public Optional<Mark> take(UUID afterJob) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = connection.prepareStatement(
                        "DELETE FROM art_build_follow_up WHERE after_job = ? RETURNING refresh_id, trigger")) {
            delete.setObject(1, afterJob);
            try (ResultSet rows = delete.executeQuery()) {
                if (!rows.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Mark(afterJob, rows.getObject(1, UUID.class),
                        JobTrigger.fromWire(rows.getString(2)).orElse(JobTrigger.MANUAL)));
            }
        } catch (SQLException e) {
            throw new TransientFailure("the follow-up art build could not be read: " + e.getMessage(), e);
        }
    }
}
