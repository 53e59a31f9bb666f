package dev.cardcatalog.catalog;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

/** A Scryfall set, for reading; the refresh writes sets. */
@Entity
@Table(name = "card_set")
public class CardSet extends PanacheEntityBase {

    @Id
    public UUID id;

    public String code;

    public String name;

    @Column(name = "set_type")
    public String setType;

    @Column(name = "released_at")
    public LocalDate releasedAt;

    @Column(name = "card_count")
    public Integer cardCount;

    @Column(name = "parent_set_code")
    public String parentSetCode;

    public boolean digital;

    @Column(name = "icon_svg_uri")
    public String iconSvgUri;

    @Column(name = "updated_at")
    public Instant updatedAt;
}
