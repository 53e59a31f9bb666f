package dev.cardcatalog.scan;

/**
 * What the {@code /scan} page's template shows and its script reads ({@link ScanPageResource}).
 *
 * @param maxBytes   the largest photo accepted, in bytes ({@code quarkus.http.limits.max-body-size}); a larger
 *                   file is refused in the page before it is sent
 * @param maxSize    the same in words ("20 MB")
 * @param margin     {@link MatchStatus#MARGIN}: the bits within which another artwork makes a card ambiguous,
 *                   so the page names those artworks as the ones that look alike
 * @param imageHosts the hosts whose images the page may show, space-separated, lower case; a printing's image
 *                   elsewhere is not shown (the policy would refuse it)
 */
public record ScanPage(long maxBytes, String maxSize, int margin, String imageHosts) {
}
