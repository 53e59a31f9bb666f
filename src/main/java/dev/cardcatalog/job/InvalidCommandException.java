package dev.cardcatalog.job;

/** A record on the commands topic that is not a valid command; it goes to the dead-letter topic with this reason. */
public class InvalidCommandException extends RuntimeException {
    /**
     * @param reason why, in words; it becomes the {@code dead-letter-reason} header and a log line, so it is escaped
     *     to printable text and bounded here ({@link dev.cardcatalog.platform.PrintableText}) whatever input it quotes
     */
    public InvalidCommandException(String reason) {
        super(dev.cardcatalog.platform.PrintableText.of(reason, 400), null, false, false);
    }
}
