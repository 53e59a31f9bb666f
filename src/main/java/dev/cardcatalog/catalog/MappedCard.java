package dev.cardcatalog.catalog;

import java.time.LocalDate;
import java.util.List;
import java.util.UUID;

/**
 * A card object of a bulk file, mapped to the columns the catalog needs; {@code json} is the object exactly as the
 * file had it, stored whole (in the form of {@link CardObjects}). {@code illustrationId} and {@code imageSmallUri}
 * are the front face's for double-faced layouts. {@code contentDigest} is the first 16 bytes of the SHA-256 of
 * {@code json}. {@code line} is the record's number in the file, from 1. {@code faceImages} are the faces that have
 * their own {@code image_uris} (SERVICE.md §5.1: {@code transform}, {@code modal_dfc}, ...), in {@code card_faces}
 * order; empty when the card's faces share one image or it has none.
 */
record MappedCard(UUID id, UUID oracleId, String name, String searchNames, String lang, String layout,
        String setCode, String collectorNumber, LocalDate releasedAt, UUID illustrationId, String imageSmallUri,
        boolean paper, byte[] contentDigest, byte[] json, long line, List<FaceImage> faceImages) {

    /**
     * A face with its own image.
     *
     * @param face            its index in {@code card_faces}, from 0
     * @param name            its {@code name}
     * @param illustrationId  its {@code illustration_id}; null when it has none
     * @param imageSmallUri   its {@code image_uris.small}; null when it has none
     */
    record FaceImage(int face, String name, UUID illustrationId, String imageSmallUri) {
    }
}
