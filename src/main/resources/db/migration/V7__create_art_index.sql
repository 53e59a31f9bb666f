-- The art index files (SERVICE.md §5.8), where every replica reaches them: the current index is the newest row.
-- A build keeps the 2 newest. The data directory only caches these bytes.
CREATE TABLE art_index (
    -- art-index-<catalog version>-<content digest>-<settings digest>-<count>.bin.gz: the ETag
    name            text PRIMARY KEY,
    settings_digest text        NOT NULL,
    -- SHA-256 of bytes, 64 lowercase hex characters; the name carries its first 16
    content_digest  text        NOT NULL,
    artwork_count   integer     NOT NULL CHECK (artwork_count > 0),
    catalog_version text        NOT NULL,
    written_at      timestamptz NOT NULL,
    -- the file as served: gzip of the index body
    bytes           bytea       NOT NULL
);

-- gzip does not compress again: store the bytes out of line without trying
ALTER TABLE art_index ALTER COLUMN bytes SET STORAGE EXTERNAL;

CREATE INDEX art_index_written_idx ON art_index (written_at DESC, name DESC);

-- An applied refresh while an art build was in flight: when that build ends, one more is queued (SERVICE.md §5.8).
-- One row per build waited for, however many refreshes applied meanwhile.
CREATE TABLE art_build_follow_up (
    after_job  uuid PRIMARY KEY,
    refresh_id uuid        NOT NULL,
    trigger    text        NOT NULL,
    marked_at  timestamptz NOT NULL
);
