package dev.cardcatalog.catalog;

import java.time.LocalDate;
import java.util.UUID;

/**
 * A card object of a bulk file, mapped to the columns the catalog needs; {@code json} is the object exactly as the
 * file had it, stored whole (in the form of {@link CardObjects}). {@code illustrationId} and {@code imageSmallUri}
 * are the front face's for double-faced layouts. {@code contentDigest} is the first 16 bytes of the SHA-256 of
 * {@code json}. {@code line} is the record's number in the file, from 1.
 */
record MappedCard(UUID id, UUID oracleId, String name, String searchNames, String lang, String layout,
        String setCode, String collectorNumber, LocalDate releasedAt, UUID illustrationId, String imageSmallUri,
        boolean paper, byte[] contentDigest, byte[] json, long line) {
}
