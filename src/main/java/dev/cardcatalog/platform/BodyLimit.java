package dev.cardcatalog.platform;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The request body limit ({@code quarkus.http.limits.max-body-size}) answered as a problem: a request whose
 * {@code Content-Length} is over the limit gets {@code 413} {@code application/problem+json} of type
 * {@code body-too-large} naming the length and the limit (RFC 9110 §15.5.14), and the connection is closed once
 * the client has sent the body (which is dropped unread) or twice the limit, whichever comes first. Quarkus makes
 * the same check with an empty 413 and closes the connection at once, which a client still sending sees as a
 * reset; this handler runs just before it. A body sent without a length (chunked) that outgrows the limit is
 * refused by Quarkus REST where it is read, with a 413 without a body: by then the answer has been sent.
 */
@ApplicationScoped
public class BodyLimit {

    /** Just before Quarkus's own check ({@code HttpServerCommonHandlers.enforceMaxBodySize}, order -2). */
    private static final int ORDER = -3;

    private final Optional<MemorySize> maxBodySize;
    private final ObjectMapper json;

    public BodyLimit(@ConfigProperty(name = "quarkus.http.limits.max-body-size") Optional<MemorySize> maxBodySize,
            ObjectMapper json) {
        this.maxBodySize = maxBodySize;
        this.json = json;
    }

    void install(@Observes Router router) {
        maxBodySize.ifPresent(limit -> router.route().order(ORDER).handler(ctx -> refuseOverLimit(ctx,
                limit.asLongValue())));
    }

    /** The problem for a body of {@code length} bytes over a limit of {@code limit} bytes. */
    public static Problem tooLarge(long length, long limit) {
        return Problem.of("body-too-large", "Body too large", 413, "The body is " + length
                + " bytes, over the limit of " + limit + " bytes.").with("field", "body");
    }

    private void refuseOverLimit(RoutingContext ctx, long limit) {
        String declared = ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        long length;
        try {
            length = declared == null ? -1 : Long.parseLong(declared.trim());
        } catch (NumberFormatException e) {
            length = -1; // Vert.x's HTTP codec refuses a malformed length before any handler runs
        }
        if (length <= limit) {
            ctx.next();
            return;
        }
        String body;
        try {
            body = json.writeValueAsString(tooLarge(length, limit).at(ctx.request().path()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a problem record is always serialisable", e);
        }
        ctx.response().setStatusCode(413).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                .putHeader(HttpHeaders.CONNECTION, "close").end(body);
        // The body is read and dropped, so that a client that sends all of it before reading the answer (as most
        // do) gets the problem instead of a reset connection; past twice the limit the connection is cut, as
        // Quarkus's own check cuts it at once.
        long[] dropped = {0};
        ctx.request().handler(chunk -> {
            dropped[0] += chunk.length();
            if (dropped[0] > 2 * limit) {
                ctx.request().connection().close();
            }
        });
    }
}
