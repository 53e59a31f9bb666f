package dev.cardcatalog.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cardcatalog.platform.DatabaseUnavailableException;
import dev.cardcatalog.platform.InstanceId;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Jobs and runs in PostgreSQL (SERVICE.md §6.1): the only shared state of the job flow. "One job of a kind in
 * flight" is the partial unique index {@code job_one_in_flight_idx}, so it holds across replicas without a
 * check-then-act race. Every write to a run is conditional on the run still being {@code running}, so a run taken
 * over by another instance can no longer change anything.
 *
 * <p>One file on purpose (over 800 lines): it holds every statement that changes a job's or a run's state, and each
 * is correct only together with the others' conditions (which state a claim, a retry, a cancel or a take-over moves
 * from); split, a reader would have to gather them again to check one. Reads that change nothing are in
 * {@link JobQueries}.
 */
@ApplicationScoped
public class JobLedger {

    private static final TypeReference<List<CarriedHeader>> HEADERS = new TypeReference<>() {
    };

    /** A job row. */
    public record JobRecord(UUID id, JobKind kind, JobTrigger trigger, JobState state, int retryCount,
            int rateLimitStreak, int transientRetries, Instant retryAt, String lastError, String message,
            String source, Instant createdAt, Instant updatedAt, Instant finishedAt,
            List<CarriedHeader> carriedHeaders, boolean acceptFewerArtworks, String consentedBy,
            Instant cancelRequestedAt, String cancelledBy, JobTrace trace) {

        /** The command that brings this job back. */
        public Command command() {
            return Command.of(kind, id, trigger, acceptFewerArtworks);
        }
    }

    /**
     * An art build's consent to publish an index with fewer artworks than the current one (SERVICE.md §5.8).
     *
     * @param by who consented: the operator's name, or the Kafka record the command came from
     */
    public record Consent(boolean acceptFewerArtworks, String by) {
        /** No consent: the count rule holds. */
        public static final Consent NONE = new Consent(false, null);
    }

    /** What a heartbeat found. */
    public enum Beat {
        /** The run is still this instance's and may go on. */
        GOING_ON,
        /** The run is no longer this instance's (taken over after its heartbeat went stale): stop, write nothing. */
        TAKEN_OVER,
        /** An operator cancelled the job: stop at the next checkpoint and end it {@code cancelled}. */
        CANCEL_REQUESTED
    }

    /** What an operator's cancel did (SERVICE.md §6.6). */
    public sealed interface Cancellation {
        /** The job was queued or waiting and is now {@code cancelled}; {@code before} is its state before. */
        record Cancelled(JobRecord job, JobState before) implements Cancellation {
        }

        /** The job is running: its run stops at its next checkpoint and then ends {@code cancelled}. */
        record Requested(JobRecord job) implements Cancellation {
        }

        /** The job had already ended: nothing done. */
        record AlreadyFinished(JobRecord job) implements Cancellation {
        }
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
        record Duplicate(UUID jobId, JobState state) implements Registration {
        }

        /** The job was cancelled by an operator: the delivery (a delayed record, a replay) changes nothing. */
        record Cancelled(UUID jobId, String cancelledBy) implements Registration {
        }

        /**
         * The job waits until {@code retryAt} and the delivery came before it (a replayed or forged command): nothing
         * done. Only the delayed command, or an operator's run-now, brings a waiting job back (SERVICE.md §6.3).
         */
        record Early(UUID jobId, Instant retryAt) implements Registration {
        }
    }

    /** A run's progress as last reported. */
    public record RunProgress(String stage, long done, long total, Map<String, Long> counts, String version,
            String languages, Instant progressedAt) {
    }

    /** A running run and its job's kind and heartbeat, for the takeover sweep. */
    public record RunningRun(UUID runId, UUID jobId, JobKind kind, Instant heartbeatAt) {
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
     * Creates a {@code queued} job for an operator's request, in the trace of the current span (the request's, or
     * the run's that queues a follow-up).
     *
     * @throws JobInFlightException a job of the kind is queued, running or waiting
     */
    public JobRecord createQueued(JobKind kind, JobTrigger trigger, String source) {
        return createQueued(kind, trigger, source, Consent.NONE);
    }

    /**
     * Creates a {@code queued} job for an operator's request, with the operator's consent to a smaller art index.
     *
     * @throws JobInFlightException a job of the kind is queued, running or waiting
     */
    public JobRecord createQueued(JobKind kind, JobTrigger trigger, String source, Consent consent) {
        UUID id = UUID.randomUUID();
        JobTrace trace = JobTrace.current();
        return inTransaction(connection -> {
            if (insertJob(connection, id, kind, trigger, JobState.QUEUED, null, source, 0, List.of(),
                    consent, trace) == 0) {
                UUID inFlight = inFlight(connection, kind).orElse(null);
                throw new JobInFlightException(kind, inFlight);
            }
            return find(connection, id).orElseThrow();
        });
    }

    /**
     * Fails a queued job whose command could not be published.
     *
     * @return false when the job was no longer queued: the command reached Kafka after all and was claimed
     */
    public boolean failUnpublished(UUID jobId, String reason) {
        return inTransaction(connection -> {
            Instant now = clock.instant();
            try (PreparedStatement update = connection.prepareStatement("""
                    UPDATE job SET state = 'failed', last_error = ?, message = ?, updated_at = ?, finished_at = ?
                    WHERE id = ? AND state = 'queued'""")) {
                update.setString(1, reason);
                update.setString(2, reason);
                update.setTimestamp(3, Timestamp.from(now));
                update.setTimestamp(4, Timestamp.from(now));
                update.setObject(5, jobId);
                return update.executeUpdate() == 1;
            }
        });
    }

    /**
     * Registers a delivered command and, when it is the job's turn, claims it for this instance: the job goes
     * {@code running} and a new run starts. A new command (no retry count) for a job the ledger does not know
     * creates it; while another job of the kind is in flight it is recorded as {@code skipped}. A retried command for
     * a job the ledger does not know is refused ({@link InvalidCommandException}: the dead-letter topic). A
     * delivery whose retry count does not match the job's, or for a job not queued or waiting (a redelivery, or a
     * second forward of a delayed command), changes nothing. A {@code waiting} job is claimed only at or after its
     * {@code retry_at}, compared in whole milliseconds as the relay's {@code not-before} header carries it; an earlier
     * delivery changes nothing ({@link Registration.Early}).
     *
     * @param jobId the command's job id (derived from topic, partition and offset when the command had none)
     * @param retryCount the command's {@code retry-count} header, 0 when absent
     * @param headers the record's headers this service does not own, kept to carry over on a retry
     * @param trace the trace the delivery came in, kept on a job the command creates
     */
    public Registration register(UUID jobId, Command command, int retryCount, String source,
            List<CarriedHeader> headers, JobTrace trace) {
        JobKind kind = command.kind();
        Consent consent = command.acceptsFewerArtworks() ? new Consent(true, "Kafka command " + source)
                : Consent.NONE;
        return inTransaction(connection -> {
            Optional<JobRecord> existing = lock(connection, jobId);
            if (existing.isEmpty() && retryCount > 0) {
                throw new InvalidCommandException("retry-count " + retryCount + " for job " + jobId
                        + ", which the ledger does not know");
            }
            if (existing.isEmpty()) {
                if (insertJob(connection, jobId, kind, command.jobTrigger(), JobState.QUEUED, null, source, 0,
                        headers, consent, trace) == 0) {
                    existing = lock(connection, jobId);
                    if (existing.isEmpty()) {
                        UUID inFlight = inFlight(connection, kind).orElse(null);
                        insertJob(connection, jobId, kind, command.jobTrigger(), JobState.SKIPPED,
                                "already in flight: " + inFlight, source, 0, headers, consent, trace);
                        return new Registration.Skipped(jobId, inFlight);
                    }
                } else {
                    existing = lock(connection, jobId);
                }
            }
            JobRecord job = existing.orElseThrow();
            if (job.kind() == kind && job.state() == JobState.CANCELLED) {
                return new Registration.Cancelled(jobId, job.cancelledBy());
            }
            if (job.kind() != kind || !(job.state() == JobState.QUEUED || job.state() == JobState.WAITING)
                    || job.retryCount() != retryCount) {
                return new Registration.Duplicate(jobId, job.state());
            }
            if (job.state() == JobState.WAITING && job.retryAt() != null
                    && job.retryAt().truncatedTo(ChronoUnit.MILLIS).isAfter(clock.instant())) {
                return new Registration.Early(jobId, job.retryAt());
            }
            return new Registration.Claimed(startRun(connection, job, headers));
        });
    }

    private ClaimedRun startRun(Connection connection, JobRecord job, List<CarriedHeader> headers)
            throws SQLException {
        Instant now = clock.instant();
        try (PreparedStatement update = connection.prepareStatement("""
                UPDATE job SET state = 'running', retry_at = NULL, updated_at = ?,
                    carried_headers = coalesce(?::jsonb, carried_headers)
                WHERE id = ?""")) {
            update.setTimestamp(1, Timestamp.from(now));
            update.setString(2, headers == null ? null : toJson(headers));
            update.setObject(3, job.id());
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

    /**
     * Writes a run's progress and heartbeat, and reads back whether an operator asked to cancel its job.
     *
     * @return {@link Beat#TAKEN_OVER} when the run is no longer running (taken over): the caller must stop;
     *     {@link Beat#CANCEL_REQUESTED} when its job is to be cancelled (SERVICE.md §6.6)
     */
    public Beat writeProgress(UUID runId, RunProgress progress) {
        return inTransaction(connection -> {
            try (PreparedStatement update = connection.prepareStatement("""
                    UPDATE job_run SET stage = ?, done = ?, total = ?, counts = ?::jsonb, version = ?, languages = ?,
                        heartbeat_at = ?, progressed_at = ?
                    WHERE id = ? AND status = 'running'
                    RETURNING (SELECT j.cancel_requested_at IS NOT NULL FROM job j WHERE j.id = job_run.job_id)
                    """)) {
                update.setString(1, progress.stage());
                update.setObject(2, progress.done() < 0 ? null : progress.done(), Types.BIGINT);
                update.setObject(3, progress.total() < 0 ? null : progress.total(), Types.BIGINT);
                update.setString(4, toJson(progress.counts()));
                update.setString(5, progress.version());
                update.setString(6, progress.languages());
                update.setTimestamp(7, Timestamp.from(clock.instant()));
                update.setTimestamp(8, Timestamp.from(progress.progressedAt()));
                update.setObject(9, runId);
                try (ResultSet rows = update.executeQuery()) {
                    if (!rows.next()) {
                        return Beat.TAKEN_OVER;
                    }
                    return rows.getBoolean(1) ? Beat.CANCEL_REQUESTED : Beat.GOING_ON;
                }
            }
        });
    }

    /**
     * Closes a run and its job with the same message.
     *
     * @param runStatus {@link RunStatus#APPLIED}, {@link RunStatus#SKIPPED} or {@link RunStatus#FAILED}
     * @param jobState {@link JobState#SUCCEEDED}, {@link JobState#SKIPPED} or {@link JobState#FAILED}
     * @return false when the run was no longer this instance's (taken over): nothing was changed
     */
    public boolean finish(ClaimedRun run, RunStatus runStatus, JobState jobState, RunProgress progress, String message,
            String lastError) {
        return finish(run, runStatus, jobState, progress, message, message, lastError);
    }

    /** Closes a run and its job, each with a message of its own. */
    public boolean finish(ClaimedRun run, RunStatus runStatus, JobState jobState, RunProgress progress,
            String runMessage,
            String jobMessage, String lastError) {
        return inTransaction(connection -> {
            if (!closeRun(connection, run.runId(), runStatus, progress, runMessage)) {
                return false;
            }
            Instant now = clock.instant();
            try (PreparedStatement update = connection.prepareStatement("""
                    UPDATE job SET state = ?, message = ?, last_error = coalesce(?, last_error), updated_at = ?,
                        finished_at = ?, retry_at = NULL
                    WHERE id = ?""")) {
                update.setString(1, jobState.wire());
                update.setString(2, jobMessage);
                update.setString(3, lastError);
                update.setTimestamp(4, Timestamp.from(now));
                update.setTimestamp(5, Timestamp.from(now));
                update.setObject(6, run.job().id());
                update.executeUpdate();
            }
            return true;
        });
    }

    /**
     * Closes the run as failed and sets the job {@code waiting} until {@code retryAt} (SERVICE.md §6.4).
     *
     * @return false when the run was no longer this instance's: nothing was changed
     */
    public boolean scheduleRetry(ClaimedRun run, RunProgress progress, String reason, Instant retryAt,
            int retryCount, int rateLimitStreak, int transientRetries) {
        return inTransaction(connection -> {
            if (!closeRun(connection, run.runId(), RunStatus.FAILED, progress, reason)) {
                return false;
            }
            try (PreparedStatement update = connection.prepareStatement("""
                    UPDATE job SET state = 'waiting', retry_at = ?, retry_count = ?, rate_limit_streak = ?,
                        transient_retries = ?, last_error = ?, message = ?, updated_at = ?
                    WHERE id = ?""")) {
                update.setTimestamp(1, Timestamp.from(retryAt));
                update.setInt(2, retryCount);
                update.setInt(3, rateLimitStreak);
                update.setInt(4, transientRetries);
                update.setString(5, reason);
                update.setString(6, "queued to retry at " + retryAt + "; the last run failed: " + reason);
                update.setTimestamp(7, Timestamp.from(clock.instant()));
                update.setObject(8, run.job().id());
                update.executeUpdate();
            }
            return true;
        });
    }

    private boolean closeRun(Connection connection, UUID runId, RunStatus status, RunProgress progress,
            String message)
            throws SQLException {
        Instant now = clock.instant();
        try (PreparedStatement update = connection.prepareStatement("""
                UPDATE job_run SET status = ?, message = ?, finished_at = ?, heartbeat_at = ?,
                    stage = CASE WHEN ? THEN ? ELSE stage END, done = CASE WHEN ? THEN ? ELSE done END,
                    total = CASE WHEN ? THEN ? ELSE total END, counts = coalesce(?::jsonb, counts),
                    version = coalesce(?, version), languages = coalesce(?, languages)
                WHERE id = ? AND status = 'running'""")) {
            boolean reported = progress != null;
            update.setString(1, status.wire());
            update.setString(2, message);
            update.setTimestamp(3, Timestamp.from(now));
            update.setTimestamp(4, Timestamp.from(now));
            update.setBoolean(5, reported);
            update.setString(6, reported ? progress.stage() : null);
            update.setBoolean(7, reported);
            update.setObject(8, reported && progress.done() >= 0 ? progress.done() : null, Types.BIGINT);
            update.setBoolean(9, reported);
            update.setObject(10, reported && progress.total() >= 0 ? progress.total() : null, Types.BIGINT);
            update.setString(11, reported ? toJson(progress.counts()) : null);
            update.setString(12, reported ? progress.version() : null);
            update.setString(13, reported ? progress.languages() : null);
            update.setObject(14, runId);
            return update.executeUpdate() == 1;
        }
    }

    // ---- takeover and overdue retries ----------------------------------------------------------------------------

    /** Running runs whose heartbeat is older than {@code before}. */
    public List<RunningRun> runningSince(Instant before) {
        return inTransaction(connection -> {
            List<RunningRun> runs = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("""
                    SELECT r.id, r.job_id, j.kind, r.heartbeat_at FROM job_run r JOIN job j ON j.id = r.job_id
                    WHERE r.status = 'running' AND r.heartbeat_at < ?""")) {
                select.setTimestamp(1, Timestamp.from(before));
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        runs.add(new RunningRun(rows.getObject(1, UUID.class), rows.getObject(2, UUID.class),
                                JobKind.fromWire(rows.getString(3)).orElseThrow(), instant(rows, "heartbeat_at")));
                    }
                }
            }
            return runs;
        });
    }

    /**
     * Takes over a run whose heartbeat is older than {@code staleBefore}: closes it {@code interrupted} and starts a
     * new run of its job for this instance. The update is conditional, so only one instance wins a given run.
     *
     * @return the new run, or empty when the run was no longer stale or another instance took it
     */
    public Optional<ClaimedRun> takeOver(UUID runId, Instant staleBefore) {
        return inTransaction(connection -> {
            UUID jobId;
            Instant heartbeat;
            try (PreparedStatement update = connection.prepareStatement("""
                    UPDATE job_run SET status = 'interrupted', finished_at = ?, message = ?
                    WHERE id = ? AND status = 'running' AND heartbeat_at < ?
                    RETURNING job_id, heartbeat_at""")) {
                update.setTimestamp(1, Timestamp.from(clock.instant()));
                update.setString(2, "interrupted: its heartbeat stopped; taken over by " + instance.value());
                update.setObject(3, runId);
                update.setTimestamp(4, Timestamp.from(staleBefore));
                try (ResultSet rows = update.executeQuery()) {
                    if (!rows.next()) {
                        return Optional.<ClaimedRun>empty();
                    }
                    jobId = rows.getObject(1, UUID.class);
                    heartbeat = instant(rows, "heartbeat_at");
                }
            }
            Optional<JobRecord> job = lock(connection, jobId);
            if (job.isEmpty() || job.get().state() != JobState.RUNNING) {
                return Optional.<ClaimedRun>empty();
            }
            ClaimedRun run = startRun(connection, job.get(), null);
            Log.infof("took over %s job %s: run %d had no heartbeat since %s", job.get().kind().wire(), jobId,
                    run.attempt() - 1, heartbeat);
            return Optional.of(run);
        });
    }

    /**
     * Hands a run back because its instance is stopping: the run is closed {@code interrupted} with {@code message},
     * and the job is {@code queued} again, its retry counts untouched, so a stop (a rolling deploy) is never
     * charged as a failure. Its command is sent again by the caller or, failing that, by the sweep of any instance
     * once the job has been queued for the overdue grace.
     *
     * @return false when the run was no longer this instance's: nothing was changed
     */
    public boolean release(ClaimedRun run, RunProgress progress, String message) {
        return inTransaction(connection -> {
            if (!closeRun(connection, run.runId(), RunStatus.INTERRUPTED, progress, message)) {
                return false;
            }
            try (PreparedStatement update = connection.prepareStatement("""
                    UPDATE job SET state = 'queued', message = ?, updated_at = ?
                    WHERE id = ? AND state = 'running'""")) {
                update.setString(1, message);
                update.setTimestamp(2, Timestamp.from(clock.instant()));
                update.setObject(3, run.job().id());
                update.executeUpdate();
            }
            return true;
        });
    }

    /** Waiting jobs whose retry time is before {@code before}. */
    public List<JobRecord> waitingSince(Instant before) {
        return inTransaction(connection -> {
            List<JobRecord> jobs = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT * FROM job WHERE state = 'waiting' AND retry_at < ?")) {
                select.setTimestamp(1, Timestamp.from(before));
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        jobs.add(job(rows));
                    }
                }
            }
            return jobs;
        });
    }

    /** Queued jobs not claimed since before {@code before}: their command may have been lost. */
    public List<JobRecord> queuedSince(Instant before) {
        return inTransaction(connection -> {
            List<JobRecord> jobs = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT * FROM job WHERE state = 'queued' AND updated_at < ?")) {
                select.setTimestamp(1, Timestamp.from(before));
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        jobs.add(job(rows));
                    }
                }
            }
            return jobs;
        });
    }

    /** Marks a queued job as just sent again, so the sweep waits its grace before sending it once more. */
    public void touchQueued(UUID jobId) {
        inTransaction(connection -> {
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE job SET updated_at = ? WHERE id = ? AND state = 'queued'")) {
                update.setTimestamp(1, Timestamp.from(clock.instant()));
                update.setObject(2, jobId);
                update.executeUpdate();
            }
            return null;
        });
    }

    /** Moves a waiting job's retry time (after its command was sent again). */
    public void postponeRetry(UUID jobId, Instant retryAt) {
        inTransaction(connection -> {
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE job SET retry_at = ?, updated_at = ? WHERE id = ? AND state = 'waiting'")) {
                update.setTimestamp(1, Timestamp.from(retryAt));
                update.setTimestamp(2, Timestamp.from(clock.instant()));
                update.setObject(3, jobId);
                update.executeUpdate();
            }
            return null;
        });
    }

    // ---- operator actions --------------------------------------------------------------------------------------

    /**
     * An operator's cancel (SERVICE.md §6.6). A {@code queued} or {@code waiting} job becomes {@code cancelled} at
     * once, which frees its kind's in-flight place. A {@code running} job is marked: its heartbeat reads the mark and
     * its run stops at the next checkpoint ({@link #finishCancelled}). A job already ended is left as it is.
     *
     * @param by who cancelled (the operator's name)
     * @return empty when there is no such job
     */
    public Optional<Cancellation> cancel(UUID jobId, String by) {
        return inTransaction(connection -> {
            Optional<JobRecord> found = lock(connection, jobId);
            if (found.isEmpty()) {
                return Optional.<Cancellation>empty();
            }
            JobRecord job = found.get();
            Instant now = clock.instant();
            switch (job.state()) {
                case QUEUED, WAITING -> {
                    try (PreparedStatement update = connection.prepareStatement("""
                            UPDATE job SET state = 'cancelled', retry_at = NULL, message = ?, cancel_requested_at = ?,
                                cancelled_by = ?, updated_at = ?, finished_at = ?
                            WHERE id = ?""")) {
                        update.setString(1, "cancelled by " + by + " while " + job.state());
                        update.setTimestamp(2, Timestamp.from(now));
                        update.setString(3, by);
                        update.setTimestamp(4, Timestamp.from(now));
                        update.setTimestamp(5, Timestamp.from(now));
                        update.setObject(6, jobId);
                        update.executeUpdate();
                    }
                    return Optional.<Cancellation>of(
                            new Cancellation.Cancelled(find(connection, jobId).orElseThrow(), job.state()));
                }
                case RUNNING -> {
                    try (PreparedStatement update = connection.prepareStatement("""
                            UPDATE job SET cancel_requested_at = coalesce(cancel_requested_at, ?),
                                cancelled_by = coalesce(cancelled_by, ?), updated_at = ?
                            WHERE id = ?""")) {
                        update.setTimestamp(1, Timestamp.from(now));
                        update.setString(2, by);
                        update.setTimestamp(3, Timestamp.from(now));
                        update.setObject(4, jobId);
                        update.executeUpdate();
                    }
                    return Optional.<Cancellation>of(
                            new Cancellation.Requested(find(connection, jobId).orElseThrow()));
                }
                default -> {
                    return Optional.<Cancellation>of(new Cancellation.AlreadyFinished(job));
                }
            }
        });
    }

    /** Whether an operator asked to cancel the job (read when a run fails, before its retry is scheduled). */
    public boolean cancelRequested(UUID jobId) {
        return inTransaction(connection -> find(connection, jobId).map(job -> job.cancelRequestedAt() != null)
                .orElse(false));
    }

    /**
     * Ends a run stopped at a checkpoint by an operator's cancel: the run is closed {@code cancelled} with what it
     * reported, the job {@code cancelled}. What the run wrote stays; the next run of its kind carries on from it.
     *
     * @return the job as cancelled, or empty when the run was no longer this instance's: nothing was changed
     */
    public Optional<JobRecord> finishCancelled(ClaimedRun run, RunProgress progress) {
        return inTransaction(connection -> {
            Optional<JobRecord> job = lock(connection, run.job().id());
            String by = job.map(JobRecord::cancelledBy).orElse(null);
            String stage = progress == null ? "starting" : progress.stage();
            if (!closeRun(connection, run.runId(), RunStatus.CANCELLED, progress,
                    "cancelled by " + by + " at a checkpoint of stage " + stage)) {
                return Optional.<JobRecord>empty();
            }
            Instant now = clock.instant();
            try (PreparedStatement update = connection.prepareStatement("""
                    UPDATE job SET state = 'cancelled', retry_at = NULL, message = ?, updated_at = ?, finished_at = ?
                    WHERE id = ?""")) {
                update.setString(1, "cancelled by " + by + " while running (stage " + stage + ")");
                update.setTimestamp(2, Timestamp.from(now));
                update.setTimestamp(3, Timestamp.from(now));
                update.setObject(4, run.job().id());
                update.executeUpdate();
            }
            return find(connection, run.job().id());
        });
    }

    /**
     * Queues a waiting job to run now instead of at its retry time (the operator's "run now").
     *
     * @return the job as it was before (waiting, with its retry time), or empty when it is not waiting
     */
    public Optional<JobRecord> queueNow(UUID jobId) {
        return inTransaction(connection -> {
            Optional<JobRecord> before = lock(connection, jobId);
            if (before.isEmpty() || before.get().state() != JobState.WAITING) {
                return Optional.<JobRecord>empty();
            }
            try (PreparedStatement update = connection.prepareStatement("""
                    UPDATE job SET state = 'queued', retry_at = NULL, message = 'queued to run now by an operator',
                        updated_at = ?
                    WHERE id = ?""")) {
                update.setTimestamp(1, Timestamp.from(clock.instant()));
                update.setObject(2, jobId);
                update.executeUpdate();
            }
            return before;
        });
    }

    /** Puts a job queued by {@link #queueNow} back to waiting, when its command could not be sent. */
    public void backToWaiting(JobRecord before) {
        inTransaction(connection -> {
            try (PreparedStatement update = connection.prepareStatement("""
                    UPDATE job SET state = 'waiting', retry_at = ?, message = ?, updated_at = ?
                    WHERE id = ? AND state = 'queued'""")) {
                update.setTimestamp(1, Timestamp.from(before.retryAt()));
                update.setString(2, before.message());
                update.setTimestamp(3, Timestamp.from(clock.instant()));
                update.setObject(4, before.id());
                update.executeUpdate();
            }
            return null;
        });
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

    /** Maps a {@code job} row. */
    JobRecord job(ResultSet rows) throws SQLException {
        List<CarriedHeader> headers;
        try {
            String text = rows.getString("carried_headers");
            headers = text == null ? List.of() : json.readValue(text, HEADERS);
        } catch (IOException e) {
            headers = List.of();
        }
        return new JobRecord(rows.getObject("id", UUID.class),
                JobKind.fromWire(rows.getString("kind")).orElseThrow(),
                JobTrigger.fromWire(rows.getString("trigger")).orElseThrow(),
                JobState.fromWire(rows.getString("state")).orElseThrow(), rows.getInt("retry_count"),
                rows.getInt("rate_limit_streak"),
                rows.getInt("transient_retries"), instant(rows, "retry_at"), rows.getString("last_error"),
                rows.getString("message"), rows.getString("source"), instant(rows, "created_at"),
                instant(rows, "updated_at"), instant(rows, "finished_at"), headers,
                rows.getBoolean("accept_fewer_artworks"), rows.getString("consented_by"),
                instant(rows, "cancel_requested_at"), rows.getString("cancelled_by"),
                new JobTrace(rows.getString("traceparent"), rows.getString("tracestate")));
    }

    static Instant instant(ResultSet rows, String column) throws SQLException {
        Timestamp value = rows.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }

    private int insertJob(Connection connection, UUID id, JobKind kind, JobTrigger trigger, JobState state,
            String message, String source, int retryCount, List<CarriedHeader> headers, Consent consent,
            JobTrace trace)
            throws SQLException {
        Instant now = clock.instant();
        boolean finished = state != JobState.QUEUED;
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO job (id, kind, trigger, state, message, source, command, created_at, updated_at,
                                 finished_at, retry_count, carried_headers, accept_fewer_artworks, consented_by,
                                 traceparent, tracestate)
                VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?)
                ON CONFLICT DO NOTHING""")) {
            insert.setObject(1, id);
            insert.setString(2, kind.wire());
            insert.setString(3, trigger.wire());
            insert.setString(4, state.wire());
            insert.setString(5, message);
            insert.setString(6, source);
            insert.setString(7, toJson(Command.of(kind, id, trigger, consent.acceptFewerArtworks())));
            insert.setTimestamp(8, Timestamp.from(now));
            insert.setTimestamp(9, Timestamp.from(now));
            insert.setTimestamp(10, finished ? Timestamp.from(now) : null);
            insert.setInt(11, retryCount);
            insert.setString(12, toJson(headers == null ? List.of() : headers));
            insert.setBoolean(13, consent.acceptFewerArtworks());
            insert.setString(14, consent.acceptFewerArtworks() ? consent.by() : null);
            insert.setString(15, trace == null ? null : trace.traceparent());
            insert.setString(16, trace == null ? null : trace.tracestate());
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
            throw failure("written", e);
        }
    }

    /**
     * The exception for a failed read or write of the ledger ({@code doing}: "read", "written"): a
     * {@link DatabaseUnavailableException} when the database failed, worth trying again; a {@link LedgerException}
     * when it refused the values (SQLSTATE class 22 or 23), which would fail again.
     */
    static RuntimeException failure(String doing, SQLException e) {
        if (DatabaseUnavailableException.valuesRefused(e)) {
            return new LedgerException("the job ledger refused the values: " + e.getMessage(), e);
        }
        return new DatabaseUnavailableException("the job ledger could not be " + doing + ": " + e.getMessage(), e);
    }

    /** The ledger's database refused the values written (SQLSTATE class 22 or 23): trying again would not help. */
    public static class LedgerException extends RuntimeException {
        LedgerException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
