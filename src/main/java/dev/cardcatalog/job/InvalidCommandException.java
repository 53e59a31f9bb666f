package dev.cardcatalog.job;

/** A record on the commands topic that is not a valid command; it goes to the dead-letter topic with this reason. */
public class InvalidCommandException extends RuntimeException {
    public InvalidCommandException(String reason) {
        super(reason, null, false, false);
    }
}
