package dev.cardcatalog.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cardcatalog.platform.InstanceId;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Jobs and runs in PostgreSQL (SERVICE.md §6.1): the only shared state of the job flow. "One job of a kind in
 * flight" is the partial unique index {@code job_one_in_flight_idx}, so it holds across replicas without a
 * check-then-act race. Every write to a run is conditional on the run still being {@code running}, so a run taken
 * over by another instance can no longer change anything.
 */
@ApplicationScoped
public class JobLedger {

    /** A job row. */
    public record JobRecord(UUID id, JobKind kind, JobTrigger trigger, String state, int retryCount,
            int rateLimitStreak, int transientRetries, Instant retryAt, String lastError, String message,
            String source, Instant createdAt, Instant updatedAt, Instant finishedAt) {
    }

    /** A run this instance just started: the job and the run's id and attempt number. */
    public record ClaimedRun(JobRecord job, UUID runId, int attempt) {
    }

    /** What registering a delivered command did. */
    public sealed interface Registration {
        /** The job is this instance's to run now. */
        record Claimed(ClaimedRun run) implements Registration {
        }

        /** Another job of the kind is in flight; this one was recorded as skipped. */
        record Skipped(UUID jobId, UUID inFlight) implements Registration {
        }

        /** The job already ran or runs for this delivery (a redelivery or a second forward): nothing done. */
        record Duplicate(UUID jobId, String state) implements Registration {
        }
    }

    private final DataSource dataSource;
    private final Clock clock;
    private final InstanceId instance;
    private final ObjectMapper json;

    public JobLedger(DataSource dataSource, Clock clock, InstanceId instance, ObjectMapper json) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.instance = instance;
        this.json = json;
    }

    // ---- accepting work ----------------------------------------------------------------------------------------

    /**
     * Creates a {@code queued} job for an operator's request.
     *
     * @throws JobInFlightException a job of the kind is queued, running or waiting
     */
    public JobRecord createQueued(JobKind kind, JobTrigger trigger, String source) {
        UUID id = UUID.randomUUID();
        return inTransaction(connection -> {
            if (insertJob(connection, id, kind, trigger, "queued", null, source) == 0) {
                UUID inFlight = inFlight(connection, kind).orElse(null);
                throw new JobInFlightException(kind, inFlight);
            }
            return find(connection, id).orElseThrow();
        });
    }

    /** Fails a queued job whose command could not be published. */
    public void failUnpublished(UUID jobId, String reason) {
        inTransaction(connection -> {
            Instant now = clock.instant();
            try (PreparedStatement update = connection.prepareStatement("""
                    UPDATE job SET state = 'failed', last_error = ?, message = ?, updated_at = ?, finished_at = ?
                    WHERE id = ? AND state = 'queued'""")) {
                update.setString(1, reason);
                update.setString(2, reason);
                update.setTimestamp(3, Timestamp.from(now));
                update.setTimestamp(4, Timestamp.from(now));
                update.setObject(5, jobId);
                update.executeUpdate();
            }
            return null;
        });
    }

    /**
     * Registers a delivered command and, when it is the job's turn, claims it for this instance: the job goes
     * {@code running} and a new run starts. A command for a job that does not exist creates it; while another job of
     * the kind is in flight it is recorded as {@code skipped}. A delivery whose retry count does not match the job's
     * (a redelivery, or a second forward of a delayed command) changes nothing.
     *
     * @param jobId the command's job id (derived from topic, partition and offset when the command had none)
     * @param retryCount the command's {@code retry-count} header, 0 when absent
     */
    public Registration register(UUID jobId, Command command, int retryCount, String source) {
        JobKind kind = command.kind();
        return inTransaction(connection -> {
            Optional<JobRecord> existing = lock(connection, jobId);
            if (existing.isEmpty()) {
                if (insertJob(connection, jobId, kind, command.jobTrigger(), "queued", null, source) == 0) {
                    existing = lock(connection, jobId);
                    if (existing.isEmpty()) {
                        UUID inFlight = inFlight(connection, kind).orElse(null);
                        insertJob(connection, jobId, kind, command.jobTrigger(), "skipped",
                                "already in flight: " + inFlight, source);
                        return new Registration.Skipped(jobId, inFlight);
                    }
                } else {
                    existing = lock(connection, jobId);
                }
            }
            JobRecord job = existing.orElseThrow();
            if (job.kind() != kind || !(job.state().equals("queued") || job.state().equals("waiting"))
                    || job.retryCount() != retryCount) {
                return new Registration.Duplicate(jobId, job.state());
            }
            return new Registration.Claimed(startRun(connection, job));
        });
    }

    private ClaimedRun startRun(Connection connection, JobRecord job) throws SQLException {
        Instant now = clock.instant();
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE job SET state = 'running', retry_at = NULL, updated_at = ? WHERE id = ?")) {
            update.setTimestamp(1, Timestamp.from(now));
            update.setObject(2, job.id());
            update.executeUpdate();
        }
        int attempt;
        try (PreparedStatement next = connection.prepareStatement(
                "SELECT coalesce(max(attempt), 0) + 1 FROM job_run WHERE job_id = ?")) {
            next.setObject(1, job.id());
            try (ResultSet rows = next.executeQuery()) {
                rows.next();
                attempt = rows.getInt(1);
            }
        }
        UUID runId = UUID.randomUUID();
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO job_run (id, job_id, attempt, status, stage, owner, started_at, heartbeat_at,
                                     progressed_at)
                VALUES (?, ?, ?, 'running', 'starting', ?, ?, ?, ?)""")) {
            insert.setObject(1, runId);
            insert.setObject(2, job.id());
            insert.setInt(3, attempt);
            insert.setString(4, instance.value());
            insert.setTimestamp(5, Timestamp.from(now));
            insert.setTimestamp(6, Timestamp.from(now));
            insert.setTimestamp(7, Timestamp.from(now));
            insert.executeUpdate();
        }
        return new ClaimedRun(find(connection, job.id()).orElseThrow(), runId, attempt);
    }

    // ---- progress and outcome ----------------------------------------------------------------------------------

    /** A run's progress as last reported. */
    public record RunProgress(String stage, long done, long total, Map<String, Long> counts, String version,
            String languages, Instant progressedAt) {
    }

    /**
     * Writes a run's progress and heartbeat.
     *
     * @return false when the run is no longer running (taken over): the caller must stop
     */
    public boolean writeProgress(UUID runId, RunProgress progress) {
        return inTransaction(connection -> {
            try (PreparedStatement update = connection.prepareStatement("""
                    UPDATE job_run SET stage = ?, done = ?, total = ?, counts = ?::jsonb, version = ?, languages = ?,
                        heartbeat_at = ?, progressed_at = ?
                    WHERE id = ? AND status = 'running'""")) {
                update.setString(1, progress.stage());
                update.setObject(2, progress.done() < 0 ? null : progress.done(), java.sql.Types.BIGINT);
                update.setObject(3, progress.total() < 0 ? null : progress.total(), java.sql.Types.BIGINT);
                update.setString(4, toJson(progress.counts()));
                update.setString(5, progress.version());
                update.setString(6, progress.languages());
                update.setTimestamp(7, Timestamp.from(clock.instant()));
                update.setTimestamp(8, Timestamp.from(progress.progressedAt()));
                update.setObject(9, runId);
                return update.executeUpdate() == 1;
            }
        });
    }

    /**
     * Closes a run and its job.
     *
     * @param runStatus {@code applied}, {@code skipped} or {@code failed}
     * @param jobState {@code succeeded}, {@code skipped} or {@code failed}
     * @return false when the run was no longer this instance's (taken over): nothing was changed
     */
    public boolean finish(ClaimedRun run, String runStatus, String jobState, RunProgress progress, String message,
            String lastError) {
        return inTransaction(connection -> {
            if (!closeRun(connection, run.runId(), runStatus, progress, message)) {
                return false;
            }
            Instant now = clock.instant();
            try (PreparedStatement update = connection.prepareStatement("""
                    UPDATE job SET state = ?, message = ?, last_error = coalesce(?, last_error), updated_at = ?,
                        finished_at = ?
                    WHERE id = ?""")) {
                update.setString(1, jobState);
                update.setString(2, message);
                update.setString(3, lastError);
                update.setTimestamp(4, Timestamp.from(now));
                update.setTimestamp(5, Timestamp.from(now));
                update.setObject(6, run.job().id());
                update.executeUpdate();
            }
            return true;
        });
    }

    boolean closeRun(Connection connection, UUID runId, String status, RunProgress progress, String message)
            throws SQLException {
        Instant now = clock.instant();
        try (PreparedStatement update = connection.prepareStatement("""
                UPDATE job_run SET status = ?, message = ?, finished_at = ?, heartbeat_at = ?,
                    stage = CASE WHEN ? THEN ? ELSE stage END, done = CASE WHEN ? THEN ? ELSE done END,
                    total = CASE WHEN ? THEN ? ELSE total END, counts = coalesce(?::jsonb, counts),
                    version = coalesce(?, version), languages = coalesce(?, languages)
                WHERE id = ? AND status = 'running'""")) {
            update.setString(1, status);
            update.setString(2, message);
            update.setTimestamp(3, Timestamp.from(now));
            update.setTimestamp(4, Timestamp.from(now));
            boolean reported = progress != null;
            update.setBoolean(5, reported);
            update.setString(6, reported ? progress.stage() : null);
            update.setBoolean(7, reported);
            update.setObject(8, reported && progress.done() >= 0 ? progress.done() : null, java.sql.Types.BIGINT);
            update.setBoolean(9, reported);
            update.setObject(10, reported && progress.total() >= 0 ? progress.total() : null, java.sql.Types.BIGINT);
            update.setString(11, reported ? toJson(progress.counts()) : null);
            update.setString(12, reported ? progress.version() : null);
            update.setString(13, reported ? progress.languages() : null);
            update.setObject(14, runId);
            return update.executeUpdate() == 1;
        }
    }

    // ---- reading -----------------------------------------------------------------------------------------------

    public Optional<JobRecord> find(UUID id) {
        return inTransaction(connection -> find(connection, id));
    }

    /** The job of {@code kind} that is queued, running or waiting, if any. */
    public Optional<UUID> inFlight(JobKind kind) {
        return inTransaction(connection -> inFlight(connection, kind));
    }

    private Optional<JobRecord> find(Connection connection, UUID id) throws SQLException {
        return selectJob(connection, "SELECT * FROM job WHERE id = ?", id);
    }

    private Optional<JobRecord> lock(Connection connection, UUID id) throws SQLException {
        return selectJob(connection, "SELECT * FROM job WHERE id = ? FOR UPDATE", id);
    }

    private Optional<JobRecord> selectJob(Connection connection, String sql, UUID id) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setObject(1, id);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? Optional.of(job(rows)) : Optional.empty();
            }
        }
    }

    private static Optional<UUID> inFlight(Connection connection, JobKind kind) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT id FROM job WHERE kind = ? AND state IN ('queued', 'running', 'waiting')")) {
            select.setString(1, kind.wire());
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? Optional.of(rows.getObject(1, UUID.class)) : Optional.empty();
            }
        }
    }

    static JobRecord job(ResultSet rows) throws SQLException {
        return new JobRecord(rows.getObject("id", UUID.class),
                JobKind.fromWire(rows.getString("kind")).orElseThrow(),
                JobTrigger.fromWire(rows.getString("trigger")).orElseThrow(),
                rows.getString("state"), rows.getInt("retry_count"), rows.getInt("rate_limit_streak"),
                rows.getInt("transient_retries"), instant(rows, "retry_at"), rows.getString("last_error"),
                rows.getString("message"), rows.getString("source"), instant(rows, "created_at"),
                instant(rows, "updated_at"), instant(rows, "finished_at"));
    }

    static Instant instant(ResultSet rows, String column) throws SQLException {
        Timestamp value = rows.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }

    private int insertJob(Connection connection, UUID id, JobKind kind, JobTrigger trigger, String state,
            String message, String source) throws SQLException {
        Instant now = clock.instant();
        boolean finished = !state.equals("queued");
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO job (id, kind, trigger, state, message, source, command, created_at, updated_at,
                                 finished_at)
                VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?)
                ON CONFLICT DO NOTHING""")) {
            insert.setObject(1, id);
            insert.setString(2, kind.wire());
            insert.setString(3, trigger.wire());
            insert.setString(4, state);
            insert.setString(5, message);
            insert.setString(6, source);
            insert.setString(7, toJson(new Command(kind.wire(), id, trigger.wire())));
            insert.setTimestamp(8, Timestamp.from(now));
            insert.setTimestamp(9, Timestamp.from(now));
            insert.setTimestamp(10, finished ? Timestamp.from(now) : null);
            return insert.executeUpdate();
        }
    }

    String toJson(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- transactions ------------------------------------------------------------------------------------------

    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    <T> T inTransaction(Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new LedgerException("the job ledger could not be written: " + e.getMessage(), e);
        }
    }

    /** The ledger's database failed. */
    public static class LedgerException extends RuntimeException {
        LedgerException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
