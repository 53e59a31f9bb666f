package dev.cardcatalog.platform;

/**
 * A dependency failed in a way worth trying again later: the database or the disk. The job's retry policy counts
 * it as transient (SERVICE.md §6.4).
 */
public class TransientFailure extends RuntimeException {
    public TransientFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
