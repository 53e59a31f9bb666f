package dev.cardcatalog.admin;

import dev.cardcatalog.art.ArtIndexName;
import dev.cardcatalog.job.JobConfig;
import dev.cardcatalog.job.JobKind;
import dev.cardcatalog.job.JobPage;
import dev.cardcatalog.job.JobQueries;
import dev.cardcatalog.job.JobState;
import dev.cardcatalog.job.JobView;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds the admin page's content, an {@link AdminPage}, from the job ledger (SERVICE.md §8): a panel per job kind
 * saying in words where it stands, the newest runs of each kind, and a page of the jobs list. Every time is read
 * from the service's clock. Five short queries a render, plus one per listed job for its runs (see
 * docs/benchmarks.md).
 */
@ApplicationScoped
public class AdminPageBuilder {

    /** The filters of the jobs list, in the order shown (SERVICE.md §8). */
    static final List<JobState> FILTERS = List.of(JobState.FAILED, JobState.WAITING, JobState.RUNNING, JobState.QUEUED);
    private static final int RECENT_RUNS = 5;
    private static final int MESSAGE_SHOWN = 300;
    /** A ready art build's message names its file first; the name itself is read by {@link ArtIndexName}. */
    private static final Pattern READY = Pattern.compile("^ready (\\S+)");

    private final JobQueries queries;
    private final JobConfig jobConfig;
    private final AdminConfig config;
    private final Clock clock;

    public AdminPageBuilder(JobQueries queries, JobConfig jobConfig, AdminConfig config, Clock clock) {
        this.queries = queries;
        this.jobConfig = jobConfig;
        this.config = config;
        this.clock = clock;
    }

    /**
     * The page for {@code user}.
     *
     * @param filter a job state of {@link #FILTERS}, or null for every job
     * @param page from 1
     * @param notice the result of the action that redirected here, or null
     */
    public AdminPage page(String user, boolean operator, JobState filter, int page, AdminPage.Notice notice) {
        Instant now = clock.instant();
        List<AdminPage.Panel> panels = new ArrayList<>();
        boolean poll = false;
        for (JobKind kind : JobKind.values()) {
            Optional<JobView> latest = queries.latest(kind);
            poll |= latest.map(job -> job.state().inFlight()).orElse(false);
            AdminPage.Panel panel = panel(kind, latest, queries.recentRuns(kind, RECENT_RUNS), now);
            panels.add(kind == JobKind.REFRESH && latest.isPresent() ? overdue(panel, now) : panel);
        }
        return new AdminPage(user, operator, notice, panels, jobs(filter, page, now), poll,
                config.pollInterval().toMillis(), Times.utc(now));
    }

    /**
     * The refresh panel with a warning added when the last successful refresh (applied, or its version already
     * applied) ended longer ago than {@code card-catalog.admin.refresh-overdue-after} (8 days: a weekly refresh was
     * missed), or when none has succeeded since the first refresh was asked for that long ago.
     */
    private AdminPage.Panel overdue(AdminPage.Panel panel, Instant now) {
        Duration after = config.refreshOverdueAfter();
        Optional<Instant> last = queries.lastSuccessfulRefresh();
        String warning;
        if (last.isPresent()) {
            if (Duration.between(last.get(), now).compareTo(after) <= 0) {
                return panel;
            }
            warning = "The last successful refresh ended " + Times.both(last.get(), now) + ", more than "
                    + Times.span(after) + " ago: a weekly refresh was missed.";
        } else {
            return panel;
        }
        String combined = panel.warning() == null ? warning : panel.warning() + " " + warning;
        return new AdminPage.Panel(panel.id(), panel.title(), panel.state(), panel.headline(), panel.lines(),
                combined, panel.progress(), panel.counts(), panel.job(), panel.start(), panel.jobAction(),
                panel.recent(), panel.cancel(), panel.consent());
    }

    /** The sentence for the result of an action, from the problem type's slug it ended with (or a success code). */
    public AdminPage.Notice notice(String result, UUID job, Instant until, UUID from) {
        if (result == null) {
            return null;
        }
        Instant now = clock.instant();
        String id = job == null ? "" : job.toString();
        return switch (result) {
            case "queued" -> new AdminPage.Notice(kindTitle(job) + " job " + id + " queued.", false);
            case "run-now" -> new AdminPage.Notice("Job " + id + " queued to run now.", false);
            case "queued-fewer" -> new AdminPage.Notice("Art index job " + id + " queued, accepting fewer artworks"
                    + " than the current index.", false);
            case "cancelled" -> new AdminPage.Notice("Job " + id + " cancelled.", false);
            case "cancel-requested" -> new AdminPage.Notice("Job " + id
                    + " is running: it stops at its next checkpoint and ends cancelled.", false);
            case "job-finished" -> new AdminPage.Notice("Refused: job " + id + " is "
                    + queries.view(job).map(v -> v.state().wire()).orElse("gone")
                    + "; only a queued, waiting or running job can be cancelled.", true);
            case "retried" -> new AdminPage.Notice("Failed job " + (from == null ? "" : from)
                    + " retried as new job " + id + ".", false);
            case "job-in-flight" -> new AdminPage.Notice("Refused: " + kindTitle(job) + " job " + id + " is "
                    + queries.view(job).map(v -> stateWords(v, now)).orElse("in flight")
                    + "; one job of a kind runs at a time.", true);
            case "quiet-window-open" -> new AdminPage.Notice("Refused: Scryfall asked for quiet until "
                    + Times.both(until, now) + "; job " + id + " cannot run sooner and still waits.", true);
            case "not-waiting" -> new AdminPage.Notice("Refused: job " + id + " is "
                    + queries.view(job).map(v -> v.state().wire()).orElse("gone") + "; only a waiting job can run now.",
                    true);
            case "not-failed" -> new AdminPage.Notice("Refused: job " + id + " is "
                    + queries.view(job).map(v -> v.state().wire()).orElse("gone")
                    + "; only a failed job can be retried.",
                    true);
            case "not-found" -> new AdminPage.Notice("Refused: there is no such job.", true);
            case AdminResource.EXPIRED -> new AdminPage.Notice(
                    "This page had expired, so nothing was done. Press the button again.", true);
            case "kafka-unavailable" -> new AdminPage.Notice(
                    "Refused: Kafka did not take the command; nothing changed. Try again later.", true);
            default -> null;
        };
    }

    private String kindTitle(UUID job) {
        if (job == null) {
            return "The";
        }
        return queries.view(job).flatMap(v -> JobKind.fromWire(v.kind())).map(AdminPageBuilder::title).orElse("The");
    }

    static String title(JobKind kind) {
        return kind == JobKind.REFRESH ? "Refresh" : "Art index";
    }

    private static String startLabel(JobKind kind) {
        return kind == JobKind.REFRESH ? "Refresh now" : "Build art index";
    }

    private static String startPath(JobKind kind) {
        return kind == JobKind.REFRESH ? "/admin/refreshes" : "/admin/art-builds";
    }

    private AdminPage.Panel panel(JobKind kind, Optional<JobView> latest, List<JobQueries.RecentRun> recent,
            Instant now) {
        List<AdminPage.RunRow> rows = recent.stream().map(r -> runRow(r, now)).toList();
        if (latest.isEmpty()) {
            String never = kind == JobKind.REFRESH ? "No refresh has run yet: the catalog is empty."
                    : "No art index has been built yet.";
            return new AdminPage.Panel(kind.wire(), title(kind), "never-run", "Never run.", List.of(never), null,
                    null, null, null, new AdminPage.Action(startLabel(kind), startPath(kind), null), null, rows, null,
                    null);
        }
        JobView job = latest.get();
        JobView.RunView run = job.runs().isEmpty() ? null : job.runs().get(0);
        AdminPage.JobLink link = link(job.id());
        String refusal = job.state().inFlight()
                ? "Refused while " + title(kind).toLowerCase(Locale.ROOT) + " job " + link.shortId() + " is "
                        + stateWords(job, now) + ": one runs at a time."
                : null;
        AdminPage.Action start = new AdminPage.Action(startLabel(kind), startPath(kind), refusal);
        List<String> lines = new ArrayList<>();
        String state = job.state().wire();
        String headline;
        String warning = null;
        AdminPage.ProgressBar progress = null;
        String counts = run == null ? null : counts(run.counts());
        AdminPage.Action action = null;
        AdminPage.Action consent = null;
        switch (job.state()) {
            case QUEUED -> {
                headline = job.retryCount() > 0 ? "Queued (retry " + job.retryCount() + ")." : "Queued.";
                lines.add("Queued " + Times.both(job.updatedAt(), now)
                        + "; it starts when an instance takes its command from Kafka.");
                if (run != null && run.finishedAt() != null) {
                    lines.add("The last run " + run.status() + " " + Times.relative(run.finishedAt(), now) + ": "
                            + shown(run.message()));
                }
                counts = null;
            }
            case WAITING -> {
                String stage = run == null ? "starting" : stageWords(run.stage());
                String reason = run != null && run.message() != null ? run.message() : job.lastError();
                headline = "Queued to retry. The last run failed while " + stage + ": " + shown(reason);
                lines.add("Retrying at " + Times.both(job.retryAt(), now));
                lines.add("Retry " + job.retryCount() + "; the command waits on the delayed topic, no worker waits.");
                action = new AdminPage.Action("Run now", "/admin/jobs/" + job.id() + "/run-now", null);
            }
            case RUNNING -> {
                String stage = run == null ? "starting" : stageWords(run.stage());
                if (job.interrupted() && run != null) {
                    state = "interrupted";
                    Duration stale = kind == JobKind.REFRESH ? jobConfig.refreshStaleAfter()
                            : jobConfig.artBuildStaleAfter();
                    headline = "Interrupted while " + stage + ": the run on " + run.owner()
                            + " stopped sending heartbeats.";
                    lines.add("Last heartbeat " + Times.both(run.heartbeatAt(), now) + "; a "
                            + title(kind).toLowerCase(Locale.ROOT) + " run without one for "
                            + Times.span(stale) + " is interrupted.");
                    lines.add("Next: an instance takes the job over at its next sweep (every "
                            + Times.span(jobConfig.sweepInterval()) + ") and runs it again from where it stopped;"
                            + " nothing is lost.");
                } else {
                    headline = "Running: " + stage + ".";
                    if (run != null) {
                        lines.add("Attempt " + run.attempt() + " on " + run.owner() + ", started "
                                + Times.both(run.startedAt(), now) + ".");
                        lines.add("Last progress " + Times.relative(run.progressedAt(), now) + ", heartbeat "
                                + Times.relative(run.heartbeatAt(), now) + ".");
                        Duration still = Duration.between(run.progressedAt(), now);
                        if (still.compareTo(config.stalledAfter()) >= 0) {
                            state = "stalled";
                            warning = "No progress for " + Times.span(still) + " (since "
                                    + Times.utc(run.progressedAt()) + "). The instance is alive (heartbeat "
                                    + Times.relative(run.heartbeatAt(), now) + "), but " + stage
                                    + " has not moved.";
                        }
                    }
                }
                if (run != null && run.total() != null && run.total() > 0 && run.done() != null) {
                    progress = progress(run);
                }
            }
            case SUCCEEDED -> {
                if (kind == JobKind.REFRESH) {
                    headline = "Applied " + (run == null ? "" : run.version()) + ".";
                    lines.add("Finished " + Times.both(job.finishedAt(), now) + ".");
                    lines.add("Catalog version " + (run == null ? "unknown" : run.version()) + ", languages "
                            + (run == null ? "" : run.languages()) + ".");
                } else {
                    Matcher ready = READY.matcher(run == null || run.message() == null ? "" : run.message());
                    Optional<ArtIndexName> file = ready.find()
                            ? ArtIndexName.parse(ready.group(1).replaceFirst(":$", "")) : Optional.empty();
                    if (file.isPresent()) {
                        headline = "Ready: " + file.get() + ".";
                        lines.add("Art index file " + file.get() + " with " + file.get().count()
                                + " artworks, built from catalog version " + file.get().catalogVersion() + ".");
                    } else {
                        headline = "Ready.";
                    }
                    lines.add("Finished " + Times.both(job.finishedAt(), now) + ".");
                    if (run != null && run.counts().getOrDefault("failed", 0L) > 0) {
                        lines.add(shown(run.message()));
                    }
                }
            }
            case SKIPPED -> {
                headline = "Skipped: " + shown(job.message() != null ? job.message()
                        : run == null ? null : run.message()) + ".";
                lines.add("Finished " + Times.both(job.finishedAt(), now) + "; nothing changed.");
            }
            case FAILED -> {
                String reason = job.message() != null ? job.message() : job.lastError();
                headline = "Failed: " + shown(reason);
                lines.add("Failed " + Times.both(job.finishedAt(), now) + " after " + (job.retryCount() + 1)
                        + (job.retryCount() == 0 ? " attempt." : " attempts."));
                if (run != null && run.message() != null && (reason == null || !reason.contains(run.message()))) {
                    lines.add("The last run ended: " + shown(run.message()));
                }
                if (kind == JobKind.ART_BUILD && run != null) {
                    lines.add("Failed images: " + run.counts().getOrDefault("failed", 0L) + ".");
                    Long wouldHold = run.counts().get("index_artworks");
                    Long current = run.counts().get("current_index_artworks");
                    if (wouldHold != null && current != null && wouldHold < current) {
                        long fewer = current - wouldHold;
                        lines.add(String.format(Locale.ROOT, "Refused for its count: the new index would hold %,d"
                                + " artworks, the current one holds %,d (%,d fewer).", wouldHold, current, fewer));
                        consent = new AdminPage.Action(String.format(Locale.ROOT,
                                "Build again, accepting %,d fewer artworks", fewer), "/admin/art-builds/accepting-fewer-artworks",
                                null);
                    }
                }
                action = new AdminPage.Action("Retry", "/admin/jobs/" + job.id() + "/retry", null);
            }
            case CANCELLED -> {
                headline = "Cancelled by " + (job.cancelledBy() == null ? "an operator" : job.cancelledBy()) + ".";
                lines.add("Cancelled " + Times.both(job.finishedAt(), now) + ".");
                if (run != null && run.status() == dev.cardcatalog.job.RunStatus.CANCELLED) {
                    lines.add("Its run stopped while " + stageWords(run.stage())
                            + "; what it wrote stays, and the next run carries on from it.");
                }
            }
            default -> headline = job.state().wire();
        }
        if (job.state() == JobState.RUNNING && job.cancelRequestedAt() != null) {
            lines.add("Cancel asked by " + job.cancelledBy() + " " + Times.relative(job.cancelRequestedAt(), now)
                    + ": the run stops at its next checkpoint.");
        }
        if (kind == JobKind.ART_BUILD && job.acceptFewerArtworks()) {
            lines.add("Accepts fewer artworks than the current index, by consent of " + job.consentedBy() + ".");
        }
        return new AdminPage.Panel(kind.wire(), title(kind), state, headline, lines, warning, progress, counts,
                link, start, action, rows, cancelAction(job), consent);
    }

    /** "Cancel" for a job in flight that no one has yet asked to stop. */
    private static AdminPage.Action cancelAction(JobView job) {
        return job.state().inFlight() && job.cancelRequestedAt() == null
                ? new AdminPage.Action("Cancel", "/admin/jobs/" + job.id() + "/cancel", null) : null;
    }

    /** {@code queued}, {@code running}, {@code interrupted}, {@code waiting to retry at 12:04:05 UTC (in 4 min)}. */
    static String stateWords(JobView job, Instant now) {
        return switch (job.state()) {
            case RUNNING -> job.interrupted() ? "interrupted" : "running";
            case WAITING -> "waiting to retry at " + Times.both(job.retryAt(), now);
            default -> job.state().wire();
        };
    }

    /** What a run was doing, for "failed while …" and "Running: …". */
    static String stageWords(String stage) {
        if (stage == null) {
            return "starting";
        }
        return switch (stage) {
            case "download" -> "downloading the bulk file";
            case "sets" -> "loading the sets";
            case "sync" -> "syncing the cards";
            case "retire" -> "retiring cards";
            case "fingerprint" -> "fingerprinting images";
            case "index" -> "writing the index file";
            case "starting" -> "starting";
            default -> stage;
        };
    }

    private static AdminPage.ProgressBar progress(JobView.RunView run) {
        long total = run.total();
        long done = Math.max(0, Math.min(run.done(), total));
        long percent = done * 100 / total;
        boolean bytes = "download".equals(run.stage()) || "sync".equals(run.stage());
        String amounts = bytes ? bytes(done) + " of " + bytes(total)
                : String.format(Locale.ROOT, "%,d of %,d%s", done, total,
                        "fingerprint".equals(run.stage()) ? " images" : "");
        return new AdminPage.ProgressBar(done, total, percent + " % (" + amounts + ")");
    }

    static String bytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KB", bytes / 1024.0);
        }
        return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024));
    }

    private static String counts(Map<String, Long> counts) {
        if (counts.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((name, value) -> parts.add(name.replace('_', ' ') + " "
                + String.format(Locale.ROOT, "%,d", value)));
        return String.join(" · ", parts);
    }

    private AdminPage.RunRow runRow(JobQueries.RecentRun recent, Instant now) {
        JobView.RunView run = recent.run();
        return new AdminPage.RunRow(link(recent.jobId()), run.attempt(), run.status().wire(),
                run.stage() == null ? "" : run.stage(), Times.relative(run.startedAt(), now),
                Times.utc(run.startedAt()), run.finishedAt() == null ? "" : Times.relative(run.finishedAt(), now),
                run.message() == null ? "" : shown(run.message()));
    }

    private AdminPage.JobList jobs(JobState filter, int page, Instant now) {
        Map<JobState, Long> byState = queries.countByState();
        List<AdminPage.Filter> filters = new ArrayList<>();
        filters.add(new AdminPage.Filter("All (" + byState.values().stream().mapToLong(Long::longValue).sum() + ")",
                "/admin#jobs", filter == null));
        for (JobState state : FILTERS) {
            String name = state.wire();
            filters.add(new AdminPage.Filter(Character.toUpperCase(name.charAt(0)) + name.substring(1) + " ("
                    + byState.getOrDefault(state, 0L) + ")", "/admin?state=" + name + "#jobs", state == filter));
        }
        int size = config.jobsPageSize();
        JobPage jobs = queries.list(null, filter, page, size);
        List<AdminPage.JobRow> rows = jobs.items().stream().map(job -> jobRow(job, now)).toList();
        int pages = (int) Math.max(1, (jobs.total() + size - 1) / size);
        String base = filter == null ? "/admin?" : "/admin?state=" + filter + "&";
        String previous = page > 1 ? base + "page=" + (page - 1) + "#jobs" : null;
        String next = page < pages ? base + "page=" + (page + 1) + "#jobs" : null;
        return new AdminPage.JobList(filters, rows, page, pages, jobs.total(), previous, next);
    }

    private AdminPage.JobRow jobRow(JobView job, Instant now) {
        String detail = switch (job.state()) {
            case WAITING -> "Retrying at " + Times.both(job.retryAt(), now) + ". " + shown(job.lastError());
            case FAILED, SKIPPED, CANCELLED -> shown(job.message() != null ? job.message() : job.lastError());
            case RUNNING -> job.interrupted() ? "Interrupted: heartbeat stale; taken over at the next sweep."
                    : job.runs().isEmpty() ? "" : "Stage " + job.runs().get(0).stage() + ".";
            case SUCCEEDED -> job.runs().isEmpty() ? "" : shown(job.runs().get(0).message());
            default -> "";
        };
        AdminPage.Action action = switch (job.state()) {
            case WAITING -> new AdminPage.Action("Run now", "/admin/jobs/" + job.id() + "/run-now", null);
            case FAILED -> new AdminPage.Action("Retry", "/admin/jobs/" + job.id() + "/retry", null);
            default -> null;
        };
        String state = job.state() == JobState.RUNNING && job.interrupted() ? "interrupted" : job.state().wire();
        return new AdminPage.JobRow(link(job.id()), JobKind.fromWire(job.kind()).map(AdminPageBuilder::title)
                .orElse(job.kind()), state, job.trigger(), Times.relative(job.createdAt(), now),
                Times.utc(job.createdAt()), detail, action, cancelAction(job), traceHref(job.traceId()));
    }

    /** The job's trace in the trace UI when {@code card-catalog.admin.trace-url} is set, else null. */
    String traceHref(String traceId) {
        if (traceId == null || !traceId.matches("[0-9a-f]{32}")) {
            return null;
        }
        return config.traceUrl()
                .filter(url -> url.startsWith("https://") || url.startsWith("http://"))
                .filter(url -> url.contains("{trace_id}"))
                .map(url -> url.replace("{trace_id}", traceId))
                .orElse(null);
    }

    private static AdminPage.JobLink link(UUID id) {
        String text = id.toString();
        return new AdminPage.JobLink(text, text.substring(0, 8), "/api/jobs/" + text);
    }

    /** A message from the ledger, bounded in length. */
    private static String shown(String message) {
        if (message == null) {
            return "no reason recorded";
        }
        return message.length() <= MESSAGE_SHOWN ? message : message.substring(0, MESSAGE_SHOWN) + "…";
    }
}
