package dev.cardcatalog.job;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/** Reads of the ledger for operators: one job with its runs, and pages of jobs by kind and state. */
@ApplicationScoped
public class JobQueries {

    private static final TypeReference<Map<String, Long>> COUNTS = new TypeReference<>() {
    };

    private final DataSource dataSource;
    private final JobLedger ledger;
    private final JobConfig config;
    private final Clock clock;
    private final ObjectMapper json;

    public JobQueries(DataSource dataSource, JobLedger ledger, JobConfig config, Clock clock, ObjectMapper json) {
        this.dataSource = dataSource;
        this.ledger = ledger;
        this.config = config;
        this.clock = clock;
        this.json = json;
    }

    public Optional<JobView> view(UUID id) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT * FROM job WHERE id = ?")) {
            select.setObject(1, id);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    return Optional.empty();
                }
                JobLedger.JobRecord job = ledger.job(rows);
                return Optional.of(view(job, runs(connection, id, Integer.MAX_VALUE)));
            }
        } catch (SQLException e) {
            throw JobLedger.failure("read", e);
        }
    }

    /**
     * A page of jobs, newest first, each with its 5 newest runs.
     *
     * @param kind null for every kind
     * @param state null for every state
     * @param page from 1
     */
    public JobPage list(JobKind kind, JobState state, int page, int size) {
        StringBuilder where = new StringBuilder(" WHERE true");
        List<Object> parameters = new ArrayList<>();
        if (kind != null) {
            where.append(" AND kind = ?");
            parameters.add(kind.wire());
        }
        if (state != null) {
            where.append(" AND state = ?");
            parameters.add(state.wire());
        }
        try (Connection connection = dataSource.getConnection()) {
            long total;
            try (PreparedStatement count = connection.prepareStatement("SELECT count(*) FROM job" + where)) {
                bind(count, parameters);
                try (ResultSet rows = count.executeQuery()) {
                    rows.next();
                    total = rows.getLong(1);
                }
            }
            List<JobView> items = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT * FROM job" + where + " ORDER BY created_at DESC, id LIMIT ? OFFSET ?")) {
                bind(select, parameters);
                select.setInt(parameters.size() + 1, size);
                select.setLong(parameters.size() + 2, (long) (page - 1) * size);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        JobLedger.JobRecord job = ledger.job(rows);
                        items.add(view(job, runs(connection, job.id(), 5)));
                    }
                }
            }
            return new JobPage(items, page, size, total);
        } catch (SQLException e) {
            throw JobLedger.failure("read", e);
        }
    }

    /**
     * The newest job of {@code kind} with its newest run (SERVICE.md §8: what a kind's panel says), or empty when
     * no job of the kind was ever created. One index scan on {@code (kind, created_at)}.
     */
    public Optional<JobView> latest(JobKind kind) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT * FROM job WHERE kind = ? ORDER BY created_at DESC, id LIMIT 1")) {
            select.setString(1, kind.wire());
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    return Optional.empty();
                }
                JobLedger.JobRecord job = ledger.job(rows);
                return Optional.of(view(job, runs(connection, job.id(), 1)));
            }
        } catch (SQLException e) {
            throw JobLedger.failure("read", e);
        }
    }

    /** One run with its job's id and state, for a list of the newest runs of a kind. */
    public record RecentRun(UUID jobId, JobState jobState, JobView.RunView run) {
    }

    /** The {@code limit} newest runs of {@code kind}, across its jobs, newest started first. */
    public List<RecentRun> recentRuns(JobKind kind, int limit) {
        List<RecentRun> recent = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT r.*, j.state AS job_state FROM job_run r JOIN job j ON j.id = r.job_id"
                                + " WHERE j.kind = ? ORDER BY r.started_at DESC, r.id LIMIT ?")) {
            select.setString(1, kind.wire());
            select.setInt(2, limit);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    recent.add(new RecentRun(rows.getObject("job_id", UUID.class),
                            JobState.fromWire(rows.getString("job_state")).orElseThrow(), run(rows)));
                }
            }
        } catch (SQLException e) {
            throw JobLedger.failure("read", e);
        }
        return recent;
    }

    /**
     * When each trigger's last <em>successful</em> refresh ended: the newest refresh run that applied a catalog or
     * found its version already applied (a scheduled refresh skips then; it was not missed). Triggers without one
     * are absent. Read from the ledger, so every replica says the same.
     */
    public Map<JobTrigger, Instant> lastSuccessfulRefreshes() {
        Map<JobTrigger, Instant> last = new java.util.EnumMap<>(JobTrigger.class);
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("""
                        SELECT j.trigger, max(r.finished_at) FROM job_run r JOIN job j ON j.id = r.job_id
                        WHERE j.kind = 'refresh' AND r.status IN ('applied', 'skipped') AND r.finished_at IS NOT NULL
                        GROUP BY j.trigger""");
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                JobTrigger.fromWire(rows.getString(1)).ifPresent(trigger -> {
                    try {
                        last.put(trigger, JobLedger.instant(rows, "max"));
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
        } catch (SQLException e) {
            throw new JobLedger.LedgerException("the job ledger could not be read: " + e.getMessage(), e);
        }
        return last;
    }

    /** When the last successful refresh of any trigger ended (see {@link #lastSuccessfulRefreshes}). */
    public Optional<Instant> lastSuccessfulRefresh() {
        return lastSuccessfulRefreshes().values().stream().max(Instant::compareTo);
    }

    /** When the newest refresh that applied a catalog ended (the catalog's age), or empty when none did. */
    public Optional<Instant> lastAppliedRefresh() {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("""
                        SELECT max(r.finished_at) FROM job_run r JOIN job j ON j.id = r.job_id
                        WHERE j.kind = 'refresh' AND r.status = 'applied' AND r.finished_at IS NOT NULL""");
                ResultSet rows = select.executeQuery()) {
            rows.next();
            return Optional.ofNullable(JobLedger.instant(rows, "max"));
        } catch (SQLException e) {
            throw new JobLedger.LedgerException("the job ledger could not be read: " + e.getMessage(), e);
        }
    }

    /** How many jobs of each kind are in each state (kinds and states with none are absent). */
    public Map<JobKind, Map<JobState, Long>> countByKindAndState() {
        Map<JobKind, Map<JobState, Long>> counts = new java.util.EnumMap<>(JobKind.class);
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT kind, state, count(*) FROM job GROUP BY kind, state");
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                JobKind kind = JobKind.fromWire(rows.getString(1)).orElseThrow();
                counts.computeIfAbsent(kind, k -> new java.util.EnumMap<>(JobState.class))
                        .put(JobState.fromWire(rows.getString(2)).orElseThrow(), rows.getLong(3));
            }
        } catch (SQLException e) {
            throw new JobLedger.LedgerException("the job ledger could not be read: " + e.getMessage(), e);
        }
        return counts;
    }

    /** How many jobs are in each state (states with none are absent). */
    public Map<JobState, Long> countByState() {
        Map<JobState, Long> counts = new java.util.EnumMap<>(JobState.class);
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT state, count(*) FROM job GROUP BY state");
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                counts.put(JobState.fromWire(rows.getString(1)).orElseThrow(), rows.getLong(2));
            }
        } catch (SQLException e) {
            throw JobLedger.failure("read", e);
        }
        return counts;
    }

    private static void bind(PreparedStatement statement, List<Object> parameters) throws SQLException {
        for (int i = 0; i < parameters.size(); i++) {
            statement.setObject(i + 1, parameters.get(i));
        }
    }

    private List<JobView.RunView> runs(Connection connection, UUID jobId, int limit) throws SQLException {
        List<JobView.RunView> runs = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT * FROM job_run WHERE job_id = ? ORDER BY attempt DESC LIMIT ?")) {
            select.setObject(1, jobId);
            select.setInt(2, limit);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    runs.add(run(rows));
                }
            }
        }
        return runs;
    }

    private JobView.RunView run(ResultSet rows) throws SQLException {
        return new JobView.RunView(rows.getObject("id", UUID.class), rows.getInt("attempt"),
                RunStatus.fromWire(rows.getString("status")).orElseThrow(), rows.getString("stage"),
                nullableLong(rows, "done"),
                nullableLong(rows, "total"), counts(rows.getString("counts")), rows.getString("message"),
                rows.getString("version"), rows.getString("languages"), rows.getString("owner"),
                JobLedger.instant(rows, "started_at"), JobLedger.instant(rows, "heartbeat_at"),
                JobLedger.instant(rows, "progressed_at"), JobLedger.instant(rows, "finished_at"));
    }

    private JobView view(JobLedger.JobRecord job, List<JobView.RunView> runs) {
        boolean interrupted = false;
        if (job.state() == JobState.RUNNING && !runs.isEmpty() && runs.get(0).status() == RunStatus.RUNNING) {
            Duration stale = job.kind() == JobKind.REFRESH ? config.refreshStaleAfter() : config.artBuildStaleAfter();
            Instant heartbeat = runs.get(0).heartbeatAt();
            interrupted = heartbeat != null && heartbeat.plus(stale).isBefore(clock.instant());
        }
        return new JobView(job.id(), job.kind().wire(), job.trigger().wire(), job.state(), interrupted,
                job.retryCount(), job.retryAt(), job.lastError(), job.message(), job.source(), job.createdAt(),
                job.updatedAt(), job.finishedAt(), job.cancelRequestedAt(), job.cancelledBy(),
                job.acceptFewerArtworks(), job.consentedBy(), job.trace().traceId(), runs);
    }

    private Map<String, Long> counts(String text) {
        if (text == null) {
            return Map.of();
        }
        try {
            return json.readValue(text, COUNTS);
        } catch (IOException e) {
            return Map.of();
        }
    }

    private static Long nullableLong(ResultSet rows, String column) throws SQLException {
        long value = rows.getLong(column);
        return rows.wasNull() ? null : value;
    }
}
