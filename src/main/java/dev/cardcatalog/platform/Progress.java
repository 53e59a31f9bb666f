package dev.cardcatalog.platform;

/**
 * What a long piece of work reports while it runs: its stage, done/total for the stage (bytes while downloading
 * and reading, records otherwise) and named counts. The job ledger writes it at a bounded cadence; work calls
 * these as often as it likes. {@link #checkCancelled()} throws when the run was taken over by another instance.
 */
public interface Progress {

    void stage(String stage, long total);

    void done(long done);

    void count(String name, long value);

    /** Marks that the work moved forward (resets the job's "rate limits in a row without progress"). */
    void progressed();

    /** Records the version of the source being applied and the languages it is read for. */
    void version(String version, String languages);

    /** Throws {@link RunCancelledException} when this run may no longer continue. */
    void checkCancelled();

    /** A progress that records nothing: for tools and tests. */
    Progress NONE = new Progress() {
        @Override
        public void stage(String stage, long total) {
        }

        @Override
        public void done(long done) {
        }

        @Override
        public void count(String name, long value) {
        }

        @Override
        public void progressed() {
        }

        @Override
        public void version(String version, String languages) {
        }

        @Override
        public void checkCancelled() {
        }
    };
}
