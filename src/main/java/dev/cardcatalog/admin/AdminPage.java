package dev.cardcatalog.admin;

import java.util.List;

/**
 * What the admin page shows, every sentence already written (SERVICE.md §8) by {@link AdminPageBuilder}, so the
 * template only lays it out.
 *
 * @param operator whether the reader may act (role {@code operator}); a viewer sees no buttons
 * @param notice the one-line result of the action that led here, or null
 * @param poll whether the page reloads its content every {@code pollMillis} (a job is queued, running or waiting)
 */
public record AdminPage(String user, boolean operator, Notice notice, List<Panel> panels, JobList jobs,
        boolean poll, long pollMillis, String renderedAt) {

    /** The result of an action: {@code refused} when the service said no, with the reason in {@code text}. */
    public record Notice(String text, boolean refused) {
    }

    /**
     * One job kind's panel.
     *
     * @param id {@code refresh} or {@code art-build}, for element ids
     * @param state one of {@code never-run}, {@code queued}, {@code waiting}, {@code running}, {@code stalled},
     *     {@code interrupted}, {@code succeeded}, {@code skipped}, {@code failed}
     * @param headline the state in words
     * @param lines further sentences (times, attempt, what happens next)
     * @param warning a warning (no progress for N minutes), or null
     * @param progress the progress bar, or null when the stage has no known total
     * @param counts the run's counts in words, or null
     * @param start the start button; its {@code refusal} says why it cannot be used now
     * @param jobAction "Run now" for a waiting job, "Retry" for a failed one, or null
     * @param cancel "Cancel" for a queued, waiting or running job not yet asked to stop, or null (SERVICE.md §6.6)
     * @param consent for an art build refused for its count alone, "Build again, accepting N fewer artworks" (a new
     *     build with the operator's consent, SERVICE.md §5.8), or null
     */
    public record Panel(String id, String title, String state, String headline, List<String> lines, String warning,
            ProgressBar progress, String counts, JobLink job, Action start, Action jobAction, List<RunRow> recent,
            Action cancel, Action consent) {
    }

    /** A {@code <progress>} with its value as text ({@code 45 % (1.2 MB of 2.6 MB)}). */
    public record ProgressBar(long value, long max, String text) {
    }

    /** A job's short id and the address of its JSON. */
    public record JobLink(String id, String shortId, String href) {
    }

    /** A form button: {@code path} to POST to; {@code refusal} non-null when it is disabled, with the reason. */
    public record Action(String label, String path, String refusal) {
    }

    /** One of the newest runs of a kind. */
    public record RunRow(JobLink job, int attempt, String status, String stage, String started, String startedUtc,
            String finished, String message) {
    }

    /** The jobs list: a filter by state, one page of jobs, and links to the pages around it. */
    public record JobList(List<Filter> filters, List<JobRow> rows, int page, int pages, long total,
            String previousHref, String nextHref) {
    }

    /** A filter link: {@code All}, {@code Failed (3)}, ...; {@code current} for the one shown. */
    public record Filter(String label, String href, boolean current) {
    }

    /**
     * One job in the list, with the action its state allows ("Run now" when waiting, "Retry" when failed),
     * "Cancel" while it is queued, waiting or running, and the address of its trace in the trace UI
     * ({@code card-catalog.admin.trace-url}), or null.
     */
    public record JobRow(JobLink job, String kind, String state, String trigger, String created, String createdUtc,
            String detail, Action action, Action cancel, String traceHref) {
    }
}
