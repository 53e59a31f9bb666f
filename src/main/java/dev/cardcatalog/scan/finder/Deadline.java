package dev.cardcatalog.scan.finder;

/**
 * The time a search may take, checked between its steps and inside its loops: the caller's own rule for what
 * happens past it (the service answers the upload 422, {@code scan.UploadDeadline}). The finder knows nothing of
 * uploads or HTTP.
 */
@FunctionalInterface
public interface Deadline {

    /**
     * Ends the search, by throwing the caller's own unchecked exception, when its time has passed.
     *
     * @param step what the search was doing ("finding the cards")
     */
    void check(String step);
}
