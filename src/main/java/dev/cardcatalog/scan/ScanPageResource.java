package dev.cardcatalog.scan;

import dev.cardcatalog.art.ArtConfig;
import dev.cardcatalog.platform.SecurityHeaders;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The page for people (SERVICE.md §5.12): {@code GET /scan}, public like the match it sends photos to. A person
 * chooses a photo; the page's script ({@code /scan/page.js}) shows it, sends it as the request body (its own type,
 * never a form) to {@code POST /api/art-index/matches} and draws every card found over the photo, with a list of
 * the cards in reading order: each one's {@code small} image, name, set and collector number, and status.
 *
 * <p>Its Content-Security-Policy is the public port's with {@code img-src} widened, for this page's answer only
 * ({@link SecurityHeaders#showImagesFrom}), to {@code blob:} (the chosen photo, shown from the file itself, never
 * uploaded twice) and {@code https://} each of {@code card-catalog.art.image-hosts} (the {@code small} images of the
 * printings, which the person's browser loads from Scryfall's image host as the index's images were). Nothing else
 * is widened: script, style, fetches and frames stay this origin's.
 */
@Path(ScanPageResource.PATH)
@PermitAll
@Startup // a host in card-catalog.art.image-hosts that is not a host name fails the start, not the first visit
public class ScanPageResource {

    /** The page's path. */
    static final String PATH = "/scan";

    @CheckedTemplate
    static class Templates {
        static native TemplateInstance page(ScanPage page);
    }

    private final ScanPage page;
    private final SecurityHeaders.ImageSources images;

    public ScanPageResource(ArtConfig art,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size") Optional<MemorySize> maxBodySize) {
        List<String> hosts = art.imageHosts();
        try {
            this.images = SecurityHeaders.imageSources(true, hosts);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("card-catalog.art.image-hosts: " + e.getMessage(), e);
        }
        long maxBytes = maxBodySize.map(MemorySize::asLongValue).orElse((long) MatchResource.MAX_BODY_BYTES);
        this.page = new ScanPage(maxBytes, size(maxBytes), MatchStatus.MARGIN,
                String.join(" ", hosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).toList()));
    }

    /** The page. Its answer alone may show the chosen photo and the printings' images (see the class). */
    @GET
    @Produces(MediaType.TEXT_HTML)
    public TemplateInstance page(RoutingContext routing) {
        SecurityHeaders.showImagesFrom(routing, images);
        return Templates.page(page);
    }

    /** Bytes in words, in MB (of 1,048,576 bytes) to one decimal when not whole: "20 MB", "0.5 MB". */
    static String size(long bytes) {
        double mb = bytes / (1024.0 * 1024.0);
        return (mb == Math.rint(mb) ? String.valueOf((long) mb) : String.format(Locale.ROOT, "%.1f", mb)) + " MB";
    }
}
