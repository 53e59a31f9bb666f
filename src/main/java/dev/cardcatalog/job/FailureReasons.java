package dev.cardcatalog.job;

import dev.cardcatalog.platform.PrintableText;

/** The reason a run failed, in words an operator reads on the job: no class names, no stack traces. */
final class FailureReasons {

    private FailureReasons() {
    }

    /**
     * The reason, escaped to printable text ({@link PrintableText}): it goes to the job, the logs and Kafka headers.
     */
    static String describe(Throwable failure) {
        if (!isUnexpected(failure) && failure.getMessage() != null) {
            return PrintableText.of(failure.getMessage(), 1000);
        }
        return "unexpected error; see the service log" + (failure.getMessage() == null ? ""
                : " (" + PrintableText.of(failure.getMessage(), 300) + ")");
    }

    /** True for a failure none of the features raise on purpose: a defect or an outage worth a stack trace. */
    static boolean isUnexpected(Throwable failure) {
        return !FailureTaxonomy.of(failure).expected();
    }
}
