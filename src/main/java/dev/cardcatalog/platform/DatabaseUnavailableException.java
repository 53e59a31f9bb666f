package dev.cardcatalog.platform;

import java.sql.SQLException;

/**
 * PostgreSQL could not do the work: no connection, a connection lost, the server shutting down or out of resources,
 * a transaction rolled back by a deadlock (SERVICE.md §6.6). Worth trying again; nothing about the request or the
 * record is wrong. Answered {@code 503} problem+json {@code database-unavailable} with {@code Retry-After}; a job's
 * retry policy counts it as transient; the command consumer holds its record and tries again.
 */
public class DatabaseUnavailableException extends TransientFailure {

    public DatabaseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Whether {@code failure} means that PostgreSQL refused the values written (SQLSTATE class 22, data exception:
     * an untranslatable character, invalid JSON; class 23, integrity constraint violation), so the same write fails
     * again whatever the wait. Every other failure, including one with no SQLSTATE (the connection pool's), counts as
     * the database failing.
     */
    public static boolean valuesRefused(SQLException failure) {
        String state = failure.getSQLState();
        return state != null && (state.startsWith("22") || state.startsWith("23"));
    }
}
