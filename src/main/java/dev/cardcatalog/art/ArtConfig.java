package dev.cardcatalog.art;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;

/** {@code card-catalog.art.*}: the art build and the art index (SERVICE.md §5). */
@ConfigMapping(prefix = "card-catalog.art")
public interface ArtConfig {

    /** When true, an applied catalog refresh starts an art build. */
    @WithDefault("true")
    boolean enabled();

    /** The only hosts images are fetched from, over https. */
    @WithDefault("cards.scryfall.io")
    List<String> imageHosts();

    /** Artworks fingerprinted between two writes of their fingerprints. */
    @WithDefault("50")
    int batchSize();

    /** The largest image body accepted, in bytes (a Scryfall small image is about 10 to 20 KB). */
    @WithDefault("4194304")
    int maxImageBytes();

    /** The largest width or height an image may declare, in pixels; refused before decoding. */
    @WithDefault("4096")
    int maxImageSide();

    /** Failed images named in the run's message; the rest are counted. */
    @WithDefault("20")
    int failedIdsShown();
}
