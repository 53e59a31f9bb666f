package dev.cardcatalog.scan;

/**
 * What one uploaded photo may declare before it is decoded (SERVICE.md §7), read from its markers
 * ({@link dev.cardcatalog.image.JpegStructure}, {@link dev.cardcatalog.image.PngStructure}): no camera writes beyond
 * them, and within them a decode's time and memory are bounded by its header.
 *
 * @param maxScans       the most scans of a JPEG ({@code card-catalog.art.upload-max-scans})
 * @param maxSegments    the most marker segments of a JPEG besides its scans, or chunks of a PNG
 *                       ({@code card-catalog.art.upload-max-segments}), at most
 *                       {@link dev.cardcatalog.image.JpegStructure#MAX_RECORDED_SEGMENTS}
 * @param maxWork        the most declared work: width × height × components × scans for a JPEG, width × height ×
 *                       channels (× 2 for 16-bit samples) for a PNG ({@code card-catalog.art.upload-max-work})
 * @param maxMemoryBytes the most memory, heap and native, one upload's decoding and matching may need by its
 *                       header ({@link UploadCost}; {@code card-catalog.art.upload-max-memory})
 */
public record UploadLimits(int maxScans, int maxSegments, long maxWork, long maxMemoryBytes) {

    /** The defaults of the configuration keys: 100 scans, 1,000 segments, 500,000,000 of work, 96 MiB. */
    public static final UploadLimits DEFAULTS = new UploadLimits(100, 1000, 500_000_000L, 96L * 1024 * 1024);

    public UploadLimits {
        if (maxScans < 1 || maxSegments < 1
                || maxSegments > dev.cardcatalog.image.JpegStructure.MAX_RECORDED_SEGMENTS || maxWork < 1
                || maxMemoryBytes < 1) {
            throw new IllegalArgumentException("upload limits must be positive (segments at most "
                    + dev.cardcatalog.image.JpegStructure.MAX_RECORDED_SEGMENTS + "): " + maxScans + " scans, "
                    + maxSegments + " segments, " + maxWork + " work, " + maxMemoryBytes + " bytes");
        }
    }

    /** The limits configured. */
    public static UploadLimits of(ScanConfig config) {
        return new UploadLimits(config.uploadMaxScans(), config.uploadMaxSegments(), config.uploadMaxWork(),
                config.uploadMaxMemory().asLongValue());
    }
}
