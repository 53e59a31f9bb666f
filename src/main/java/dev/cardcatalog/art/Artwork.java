package dev.cardcatalog.art;

import java.util.UUID;

/**
 * An artwork to fingerprint: a Scryfall {@code illustration_id} with its representative printing (SERVICE.md §5.1),
 * the face of that printing it is on and that face's {@code small} image URL.
 *
 * @param face the face's index in {@code card_faces}: 0 for the front face, and for a card whose faces share one
 *             image or that has no faces; 1 or more for another face with its own image
 */
public record Artwork(UUID illustrationId, UUID cardId, String imageUri, int face) {

    /** An artwork on a card's front face (or its one image). */
    public Artwork(UUID illustrationId, UUID cardId, String imageUri) {
        this(illustrationId, cardId, imageUri, 0);
    }

    /** Whether the artwork is on a face other than the front. */
    public boolean otherFace() {
        return face > 0;
    }

    /** The image's version: the {@code ?<epoch>} query of its URL (a new scan has a new one); null without one. */
    public String imageVersion() {
        int question = imageUri.indexOf('?');
        return question < 0 ? null : imageUri.substring(question + 1);
    }
}
