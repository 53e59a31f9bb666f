package dev.cardcatalog.art;

import java.util.UUID;

/**
 * An artwork to fingerprint: a Scryfall {@code illustration_id} with its representative printing (SERVICE.md §5.1)
 * and that printing's front-face {@code small} image URL.
 */
public record Artwork(UUID illustrationId, UUID cardId, String imageUri) {

    /** The image's version: the {@code ?<epoch>} query of its URL (a new scan has a new one); null without one. */
    public String imageVersion() {
        int question = imageUri.indexOf('?');
        return question < 0 ? null : imageUri.substring(question + 1);
    }
}
