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

    /** 404 for a missing resource. */
    public static ProblemException notFound(String detail) {
        return new ProblemException(Problem.of("not-found", "Not found", 404, detail));
    }
}
