package dev.cardcatalog.testing;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Every answer the service under test sends on its public port, whoever asked (RestAssured, java.net.http, a raw
 * socket, the browser) and whatever answered (a resource, a problem mapper, a handler on the event loop such as
 * MatchUploads or BodyLimit): its method, path and status, recorded as its headers go out. Part of every
 * {@code @QuarkusTest} service, since test classes are in its bean archive; {@link HttpAnswersCheck} compares them with
 * the OpenAPI document after each test class. Not in the packaged service.
 */
@ApplicationScoped
public class HttpAnswers {

    /** One answer: the request's method and raw path (no query), the status and the answer's media type. */
    public record Answer(String method, String path, int status, String mediaType) {
    }

    private static final ConcurrentLinkedQueue<Answer> ANSWERS = new ConcurrentLinkedQueue<>();

    void install(@Observes Router router) {
        // before every other handler of the public port (BodyLimit is at -3), so that none answers unseen
        router.route().order(Integer.MIN_VALUE).handler(this::record);
    }

    private void record(RoutingContext ctx) {
        String method = ctx.request().method().name();
        String path = ctx.request().path();
        ctx.addHeadersEndHandler(v -> {
            String type = ctx.response().headers().get(HttpHeaders.CONTENT_TYPE);
            ANSWERS.add(new Answer(method, path == null ? "" : path, ctx.response().getStatusCode(),
                    type == null ? null : type.split(";", 2)[0].strip()));
        });
        ctx.next();
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
