-- The card catalog: cards and sets synced from Scryfall bulk data (SERVICE.md §4).
-- Each row keeps Scryfall's whole object as jsonb beside the columns lookups and the art build need.

CREATE TABLE card_set (
    id              uuid PRIMARY KEY,
    code            text        NOT NULL UNIQUE,
    name            text        NOT NULL,
    set_type        text,
    released_at     date,
    card_count      integer,
    parent_set_code text,
    digital         boolean     NOT NULL DEFAULT false,
    icon_svg_uri    text,
    scryfall        jsonb       NOT NULL,
    updated_at      timestamptz NOT NULL
);

CREATE TABLE card (
    id                uuid PRIMARY KEY,
    oracle_id         uuid,
    name              text        NOT NULL,
    -- lower-cased, accent-stripped names, the card's and each face's, one per line: what ?name= searches
    search_names      text        NOT NULL,
    lang              text        NOT NULL,
    layout            text        NOT NULL,
    set_code          text        NOT NULL,
    collector_number  text        NOT NULL,
    released_at       date,
    -- the front face's for double-faced layouts
    illustration_id   uuid,
    image_small_uri   text,
    content_digest    bytea       NOT NULL,
    scryfall          jsonb       NOT NULL,
    first_seen_at     timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL,
    retired_at        timestamptz
);

CREATE INDEX card_set_number_idx ON card (set_code, collector_number);
CREATE INDEX card_illustration_idx ON card (illustration_id) WHERE illustration_id IS NOT NULL;
CREATE INDEX card_oracle_idx ON card (oracle_id);
CREATE INDEX card_name_idx ON card (lower(name));

-- Bulk file versions applied to the catalog, per language set: the skip rule of SERVICE.md §4.2 and the catalog
-- version the art index is named after.
CREATE TABLE catalog_version (
    version    text        NOT NULL,
    languages  text        NOT NULL,
    applied_at timestamptz NOT NULL,
    counts     jsonb       NOT NULL,
    PRIMARY KEY (version, languages)
);
