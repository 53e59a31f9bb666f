package dev.cardcatalog.art;

import java.util.Collection;
import java.util.Map;
import java.util.UUID;

/**
 * Where the match reads the artworks' pictures ({@link ArtPicture}) for its second look: the art build's, kept in
 * PostgreSQL for every replica ({@link StoredArtPictures}).
 */
@FunctionalInterface
public interface ArtPictures {

    /** No pictures: the match takes no second look. */
    ArtPictures NONE = ids -> Map.of();

    /**
     * The pictures of {@code artworkIds} made with {@link ArtPicture#DIGEST}'s settings; an artwork that has none
     * (not built yet, or its image failed) is absent.
     *
     * @param artworkIds a few artworks (the candidates of one card)
     * @return their pictures by artwork, each {@link ArtPicture#BYTES} bytes; empty when they cannot be read now
     */
    Map<UUID, byte[]> of(Collection<UUID> artworkIds);
}
