package dev.cardcatalog.platform;

/** An exception that is answered with its {@link Problem} as it is. */
public class ProblemException extends RuntimeException {

    private final transient Problem problem;

    public ProblemException(Problem problem) {
        super(problem.detail());
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }

    /** 400 naming the field that is wrong. */
    public static ProblemException badRequest(String field, String detail) {
        return new ProblemException(Problem.of("invalid-request", "Invalid request", 400, detail).with("field", field));
    }

    /**
     * A value a client sent, fit to show in a detail: in double quotes, escaped to printable text by
     * {@link PrintableText}, at most 40 code points and then an ellipsis.
     */
    public static String quote(String text) {
        return "\"" + PrintableText.of(text, 40) + "\"";
    }

    /**
     * The text of a query parameter, trimmed; null when absent or blank.
     *
     * @throws ProblemException 400 naming {@code field} when the text holds a control character (a NUL, which
     *                          PostgreSQL text cannot hold, a line break)
     */
    public static String text(String field, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw badRequest(field, field + " must not hold control characters.");
        }
        return value.trim();
    }

    /** 404 for a missing resource. */
    public static ProblemException notFound(String detail) {
        return new ProblemException(Problem.of("not-found", "Not found", 404, detail));
    }
}
