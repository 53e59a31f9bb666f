package dev.cardcatalog.platform;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidDefinitionException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.quarkus.logging.Log;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The one place errors leave the service: every failure becomes {@code application/problem+json} with a stable
 * {@code type}; no stack trace or class name reaches a client, and a 5xx is logged here.
 */
public class ProblemMappers {

    private final AcceptedTypes accepted;

    public ProblemMappers(AcceptedTypes accepted) {
        this.accepted = accepted;
    }

    @ServerExceptionMapper
    public Response problem(ProblemException e, UriInfo uri) {
        return respond(e.problem().at(uri.getPath()));
    }

    @ServerExceptionMapper
    public Response constraintViolation(ConstraintViolationException e, UriInfo uri) {
        ConstraintViolation<?> first = e.getConstraintViolations().stream()
                .min(Comparator.comparing(v -> v.getPropertyPath().toString()))
                .orElse(null);
        String field = first == null ? null : leafName(first.getPropertyPath().toString());
        String detail = first == null ? "The request is not valid." : field + ": " + first.getMessage();
        return respond(Problem.of("invalid-request", "Invalid request", 400, detail).with("field", field)
                .at(uri.getPath()));
    }

    /**
     * A JSON body that could not be read: not JSON at all (field {@code body}), or JSON whose value at some field
     * has the wrong shape (that field, as a dotted path).
     */
    @ServerExceptionMapper
    public Response unreadableJson(JsonProcessingException e, UriInfo uri) {
        if (e instanceof InvalidDefinitionException) {
            // a type Jackson cannot handle at all: the service's fault, not the client's
            Log.errorf(e, "request %s failed", PrintableText.of(uri.getPath()));
            return respond(internal(uri));
        }
        return respond(unreadable(e).at(uri.getPath()));
    }

    /**
     * The same for JSON of the wrong shape. Quarkus REST maps this exception itself (priority 5100, an empty body
     * outside dev mode); this mapper, at the default priority 5000, takes precedence.
     */
    @ServerExceptionMapper
    public Response mismatchedJson(MismatchedInputException e, UriInfo uri) {
        return respond(unreadable(e).at(uri.getPath()));
    }

    private static Problem unreadable(JsonProcessingException e) {
        if (e instanceof JsonMappingException mapping && !(e instanceof JsonParseException)) {
            if (mapping.getPath().isEmpty()) {
                return Problem.of("invalid-request", "Invalid request", 400, "The body must be a JSON object.")
                        .with("field", "body");
            }
            String field = mapping.getPath().stream()
                    .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                    .collect(java.util.stream.Collectors.joining(".")).replace(".[", "[");
            return Problem.of("invalid-request", "Invalid request", 400, field + ": " + wrongShape(mapping) + ".")
                    .with("field", field);
        }
        if (e instanceof StreamConstraintsException) {
            return Problem.of("invalid-request", "Invalid request", 400,
                    "The body is beyond the JSON reader's limits (nesting depth, or length of a number or string).")
                    .with("field", "body");
        }
        return Problem.of("invalid-request", "Invalid request", 400, "The body is not valid JSON: "
                + e.getOriginalMessage()).with("field", "body");
    }

    /**
     * What is wrong with a field's value, in words: not a field of the request (with the fields it has), or not of
     * the type it needs (said for the types requests carry); otherwise "the value is not of the expected type".
     */
    private static String wrongShape(JsonMappingException e) {
        if (e instanceof UnrecognizedPropertyException unknown) {
            List<String> known = unknown.getKnownPropertyIds() == null ? List.of()
                    : unknown.getKnownPropertyIds().stream().map(String::valueOf).sorted().toList();
            return "not a field of this request" + (known.isEmpty() ? "" : " (its fields: "
                    + String.join(", ", known) + ")");
        }
        Class<?> target = e instanceof MismatchedInputException mismatch ? mismatch.getTargetType() : null;
        if (target == Boolean.class || target == boolean.class) {
            return "must be true or false";
        }
        if (target == String.class) {
            return "must be a string";
        }
        if (target != null && (Number.class.isAssignableFrom(target) || target == int.class || target == long.class)) {
            return "must be a number";
        }
        return "the value is not of the expected type";
    }

    @ServerExceptionMapper
    public Response notFound(NotFoundException e, UriInfo uri) {
        return respond(nothingAt(uri.getPath()));
    }

    /** The 404 of a path where nothing is, in the words every such answer uses; {@code instance} is the path. */
    public static Problem nothingAt(String path) {
        return Problem.of("not-found", "Not found", 404, "Nothing is at " + path + ".").at(path);
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e, UriInfo uri, Request request) {
        int status = e.getResponse() == null ? 500 : e.getResponse().getStatus();
        if (status >= 500) {
            Log.errorf(e, "request %s failed", PrintableText.of(uri.getPath()));
            return respond(internal(uri));
        }
        for (Throwable cause = e.getCause(); status == 400 && cause != null; cause = cause.getCause()) {
            if (cause instanceof JsonProcessingException json) {
                return respond(unreadable(json).at(uri.getPath()));
            }
        }
        String reason = Response.Status.fromStatusCode(status) == null ? "Request refused"
                : Response.Status.fromStatusCode(status).getReasonPhrase();
        String detail = switch (status) {
            case 400 -> "The request body or a parameter could not be read.";
            case 405 -> "This method is not allowed here.";
            case 406 -> "No acceptable representation.";
            case 415 -> Objects.requireNonNullElse(
                    AcceptedTypes.sentence(accepted.at(request.getMethod(), uri.getPath())),
                    "This content type is not supported here.");
            default -> reason + ".";
        };
        return respond(Problem.of(slug(reason), reason, status, detail).at(uri.getPath()));
    }

    @ServerExceptionMapper(priority = jakarta.ws.rs.Priorities.USER + 100)
    public Response unexpected(Throwable e, UriInfo uri) {
        Log.errorf(e, "request %s failed", PrintableText.of(uri.getPath()));
        return respond(internal(uri));
    }

    private static Problem internal(UriInfo uri) {
        return Problem.of("internal-error", "Internal error", 500,
                "The service could not complete the request; the error is logged.").at(uri.getPath());
    }

    private static String slug(String reason) {
        return reason.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    }

    private static String leafName(String path) {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? path : path.substring(dot + 1);
    }

    /** The response for a problem. */
    public static Response respond(Problem problem) {
        return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(problem).build();
    }
}
