package dev.cardcatalog.platform;

/**
 * The service cannot serve this request now and asks the client to come back: answered {@code 503} problem+json with
 * {@code Retry-After} in whole seconds (RFC 9110 §10.2.3), the same number in the problem's {@code retry_after}.
 */
public class UnavailableException extends ProblemException {

    private final long retryAfterSeconds;

    /**
     * @param problem the problem, status 503; {@code retry_after} is added here
     * @param retryAfterSeconds the wait asked for, in seconds; at least 1
     */
    public UnavailableException(Problem problem, long retryAfterSeconds) {
        super(problem.with("retry_after", Math.max(1, retryAfterSeconds)));
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    /** The wait asked for, in seconds, at least 1. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
