package dev.cardcatalog.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MediaType;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * The JSON answers of the service's resources under test, as the client reads them: each entity a resource answers
 * with {@code application/json}, written by the service's own {@link ObjectMapper}, with the request's method and
 * path and the status. {@link HttpAnswersCheck} holds each to its operation's schema in the OpenAPI document after
 * every test class, so that a {@code null} the document does not allow fails the class (a generated client may
 * refuse it). Part of every {@code @QuarkusTest} service, since test classes are in its bean archive; not in the
 * packaged service.
 */
public class JsonAnswers {

    /** One JSON answer: the request's method and raw path (no query), the status and the body as a tree. */
    public record Answer(String method, String path, int status, JsonNode body) {
    }

    private static final ConcurrentLinkedQueue<Answer> ANSWERS = new ConcurrentLinkedQueue<>();

    @Inject
    ObjectMapper json;

    @ServerResponseFilter
    public void record(ContainerRequestContext request, ContainerResponseContext response) {
        Object entity = response.getEntity();
        if (entity == null || !MediaType.APPLICATION_JSON_TYPE.isCompatible(response.getMediaType())
                || entity instanceof byte[] || entity instanceof String || entity instanceof InputStream) {
            return;
        }
        ANSWERS.add(new Answer(request.getMethod(), request.getUriInfo().getPath(), response.getStatus(),
                json.valueToTree(entity)));
    }

    /** The answers recorded since the last call, oldest first; the record is emptied. */
    public static List<Answer> drain() {
        List<Answer> answers = new ArrayList<>();
        for (Answer answer = ANSWERS.poll(); answer != null; answer = ANSWERS.poll()) {
            answers.add(answer);
        }
        return answers;
    }
}
