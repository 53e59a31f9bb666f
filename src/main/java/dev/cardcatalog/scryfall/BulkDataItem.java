package dev.cardcatalog.scryfall;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * One item of Scryfall's {@code GET /bulk-data} list, in either shape: the current one (since 2026-07) links a gzip
 * JSON Lines file ({@code jsonl_download_uri}, {@code compressed_size}); the legacy one links a JSON array sent
 * gzip-encoded ({@code download_uri}, {@code size} of the decoded array; older lists give {@code compressed_size}
 * instead). Sizes are bytes.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record BulkDataItem(String id, String type, String name, String updatedAt, String jsonlDownloadUri,
        Long compressedSize, String downloadUri, Long size, String contentType, String contentEncoding) {

    /** True for the current shape (gzip JSON Lines), false for the legacy JSON array. */
    public boolean jsonLines() {
        return jsonlDownloadUri != null && !jsonlDownloadUri.isBlank();
    }

    /** The file's URL in whichever shape the item has; null when it has none. */
    public String fileUri() {
        return jsonLines() ? jsonlDownloadUri : downloadUri;
    }

    /**
     * The file's version: its name without extensions, e.g. {@code default-cards-20261008210545} for
     * {@code .../default-cards-20261008210545.jsonl.gz}.
     */
    public String version() {
        String uri = fileUri();
        if (uri == null) {
            return null;
        }
        String path = java.net.URI.create(uri).getPath();
        String name = path.substring(path.lastIndexOf('/') + 1);
        int dot = name.indexOf('.');
        return dot < 0 ? name : name.substring(0, dot);
    }
}
