-- The art index's fingerprints (SERVICE.md §5): one per artwork (Scryfall illustration_id), made from the small
-- image of its representative printing with the settings whose digest is stored beside it.
CREATE TABLE art_fingerprint (
    illustration_id  uuid PRIMARY KEY,
    card_id          uuid        NOT NULL,
    image_uri        text        NOT NULL,
    -- the ?<epoch> of the image URL: a new scan of the art has a new version
    image_version    text,
    settings_digest  text        NOT NULL,
    fingerprint      bytea       NOT NULL CHECK (length(fingerprint) = 128),
    fingerprinted_at timestamptz NOT NULL
);

CREATE INDEX art_fingerprint_digest_idx ON art_fingerprint (settings_digest, illustration_id);
