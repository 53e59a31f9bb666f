package dev.cardcatalog.platform;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.vertx.http.ManagementInterface;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The security headers (SERVICE.md §7), all set here, on every answer of both ports: the REST layer's, its problem
 * answers, the static files, and Vert.x's own (a 404 no route matched, a 413). They are written when the answer's
 * headers go out, so whatever answered cannot leave them out, and whether the answer was made for a user is known.
 * <ul>
 * <li>Every answer: {@code X-Content-Type-Options: nosniff} (a browser never guesses a type other than the one
 * given), {@code Referrer-Policy: same-origin}, and on the public port the Content-Security-Policy
 * {@value #CONTENT_SECURITY_POLICY}, with {@code X-Frame-Options: DENY} for browsers that predate
 * {@code frame-ancestors}. The HTML pages (the admin page, the {@code /scan} page) load their script and style as
 * static files, so the policy allows no inline script or style; JSON and files are unaffected by it. A page that
 * must show images from elsewhere widens {@code img-src} for its own answer only ({@link #showImagesFrom}).</li>
 * <li>An answer made for an authenticated user (HTTP Basic or a bearer token; the identity was checked for an
 * endpoint that needs one), and every 401 (the refusal of a request's credentials, or of their absence, on an
 * endpoint that needs a user): {@code Cache-Control: no-store}, so neither a shared cache nor the browser keeps it.
 * Public answers keep their own caching headers.</li>
 * <li>A Basic challenge names its character set: {@code WWW-Authenticate: Basic realm="card-catalog",
 * charset="UTF-8"} (RFC 7617 §2.1). Quarkus decodes Basic credentials as UTF-8 but does not say so.</li>
 * </ul>
 * The CSRF cookie's attributes are configuration: {@code quarkus.http.same-site-cookie."csrf-token".value},
 * {@code quarkus.rest-csrf.cookie-http-only} and {@code quarkus.rest-csrf.cookie-force-secure}.
 */
@ApplicationScoped
public class SecurityHeaders {

    /** The public port's Content-Security-Policy: only this origin, never in a frame, no inline script or style. */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'self'; frame-ancestors 'none'; "
            + "base-uri 'none'; form-action 'self'; object-src 'none'";

    /** Where the policy of one answer that shows images from elsewhere is kept ({@link #showImagesFrom}). */
    private static final String IMAGE_POLICY_KEY = SecurityHeaders.class.getName() + ".image-policy";
    /** A host name (labels of letters, digits and inner hyphens, dot-separated), optionally with a port. */
    private static final String LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
    private static final Pattern HOST = Pattern.compile(LABEL + "(?:\\." + LABEL + ")*(?::[0-9]{1,5})?");

    /**
     * Image sources beyond this origin, checked once, and the Content-Security-Policy that allows them: the public
     * port's {@value #CONTENT_SECURITY_POLICY} with {@code img-src 'self'} and the sources appended, every other
     * directive unchanged (scripts, styles, frames, forms and fetches stay this origin's only).
     */
    public static final class ImageSources {
        private final String policy;

        private ImageSources(String policy) {
            this.policy = policy;
        }

        /** The whole Content-Security-Policy header value. */
        public String policy() {
            return policy;
        }

        @Override
        public String toString() {
            return policy;
        }
    }

    /**
     * The image sources of a page, beyond this origin.
     *
     * @param blobs whether images made in the page ({@code blob:} URLs, such as a file the person chose) are shown
     * @param hosts hosts whose images are shown over https, such as {@code cards.scryfall.io}; each a host name,
     *     optionally with a port
     * @throws IllegalArgumentException for a host that is not a host name (a scheme, a path, a space, a quote, a
     *     semicolon: anything that would widen the policy further or end its directive), naming it
     */
    public static ImageSources imageSources(boolean blobs, List<String> hosts) {
        StringBuilder directive = new StringBuilder("img-src 'self'");
        if (blobs) {
            directive.append(" blob:");
        }
        for (String host : hosts) {
            if (host == null || !HOST.matcher(host).matches()) {
                throw new IllegalArgumentException("not a host name: \"" + PrintableText.of(String.valueOf(host), 100)
                        + "\" (a host such as cards.scryfall.io, without a scheme or path)");
            }
            directive.append(" https://").append(host.toLowerCase(Locale.ROOT));
        }
        return new ImageSources(CONTENT_SECURITY_POLICY + "; " + directive);
    }

    /**
     * Lets the answer to this request show images from {@code sources} (its Content-Security-Policy is
     * {@link ImageSources#policy()}). Only this answer: every other answer keeps {@value #CONTENT_SECURITY_POLICY}.
     */
    public static void showImagesFrom(RoutingContext context, ImageSources sources) {
        context.put(IMAGE_POLICY_KEY, sources);
    }

    void onPublicPort(@Observes Router router) {
        boolean devUi = LaunchMode.current() == LaunchMode.DEVELOPMENT;
        router.route().order(Integer.MIN_VALUE).handler(context -> {
            context.addHeadersEndHandler(ignored -> {
                MultiMap headers = context.response().headers();
                common(headers);
                // in dev mode only, Quarkus's Dev UI under /q/ uses inline script
                if (!(devUi && context.normalizedPath().startsWith("/q/"))) {
                    headers.set("Content-Security-Policy", context.get(IMAGE_POLICY_KEY) instanceof ImageSources images
                            ? images.policy() : CONTENT_SECURITY_POLICY);
                    headers.set("X-Frame-Options", "DENY");
                }
                if (authenticated(context) || context.response().getStatusCode() == 401) {
                    headers.set("Cache-Control", "no-store");
                }
                basicChallengeWithCharset(headers);
            });
            context.next();
        });
    }

    void onManagementPort(@Observes ManagementInterface management) {
        management.router().route().order(Integer.MIN_VALUE).handler(context -> {
            context.addHeadersEndHandler(ignored -> common(context.response().headers()));
            context.next();
        });
    }

    private static void common(MultiMap headers) {
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set("Referrer-Policy", "same-origin");
    }

    /** Whether the answer was made for a user: the endpoint needed one, and the request's credentials named one. */
    private static boolean authenticated(RoutingContext context) {
        return context.user() instanceof QuarkusHttpUser user && !user.getSecurityIdentity().isAnonymous();
    }

    private static void basicChallengeWithCharset(MultiMap headers) {
        List<String> challenges = headers.getAll("WWW-Authenticate");
        if (challenges.stream().noneMatch(SecurityHeaders::isBasic)) {
            return;
        }
        headers.remove("WWW-Authenticate");
        for (String challenge : challenges) {
            if (isBasic(challenge) && !challenge.toLowerCase(Locale.ROOT).contains("charset=")) {
                // Quarkus writes the scheme "basic"; schemes are case-insensitive (RFC 9110 §11.1)
                challenge = "Basic" + challenge.substring("basic".length()) + ", charset=\"UTF-8\"";
            }
            headers.add("WWW-Authenticate", challenge);
        }
    }

    private static boolean isBasic(String challenge) {
        return challenge.regionMatches(true, 0, "basic ", 0, 6);
    }
}
