package dev.cardcatalog.platform;

/**
 * The service is at its limit for this kind of request: answered {@code 503} problem+json {@code service-busy} with
 * {@code Retry-After} in whole seconds (RFC 9110 §10.2.3), the same number in the problem's {@code retry_after}.
 */
public class BusyException extends UnavailableException {

    /**
     * @param detail what is busy, for the client
     * @param retryAfterSeconds the wait asked for, in seconds; at least 1
     */
    public BusyException(String detail, long retryAfterSeconds) {
        super(Problem.of("service-busy", "Service busy", 503, detail), retryAfterSeconds);
    }
}
