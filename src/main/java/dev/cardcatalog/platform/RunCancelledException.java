package dev.cardcatalog.platform;

/** The run was taken over by another instance (its heartbeat went stale) and must stop without writing more. */
public class RunCancelledException extends RuntimeException {
    public RunCancelledException(String message) {
        super(message);
    }
}
