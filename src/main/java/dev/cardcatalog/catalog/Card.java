package dev.cardcatalog.catalog;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

/**
 * A card of the catalog, for reading (the refresh writes cards with batched SQL). {@code scryfall} is Scryfall's
 * whole card object as it was last seen, in its stored form ({@link CardObjects}). A retired card ({@code retiredAt}
 * set) is no longer in Scryfall's file.
 */
@Entity
@Table(name = "card")
public class Card extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "oracle_id")
    public UUID oracleId;

    public String name;

    @Column(name = "search_names")
    public String searchNames;

    public String lang;

    public String layout;

    @Column(name = "set_code")
    public String setCode;

    @Column(name = "collector_number")
    public String collectorNumber;

    @Column(name = "released_at")
    public LocalDate releasedAt;

    @Column(name = "illustration_id")
    public UUID illustrationId;

    @Column(name = "image_small_uri")
    public String imageSmallUri;

    /** The stored form of Scryfall's card object: see {@link CardObjects}. */
    @Column(name = "scryfall")
    public byte[] scryfall;

    @Column(name = "first_seen_at")
    public Instant firstSeenAt;

    @Column(name = "updated_at")
    public Instant updatedAt;

    @Column(name = "retired_at")
    public Instant retiredAt;
}
