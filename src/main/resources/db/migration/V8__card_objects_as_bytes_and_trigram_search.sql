-- Issue 11: a catalog that is quick to fill and quick to search.
--
-- 1. The card object is stored as bytes the database never parses (SERVICE.md §4): its UTF-8 JSON text, either as
--    it is (the first byte is "{") or LZ4-compressed by the service (the first byte is 0x01, then the text's length
--    as a 4-byte big-endian integer, then one LZ4 block). PostgreSQL refused some JSON the service accepts (a
--    \u0000 escape, a lone surrogate) and spent most of a refresh parsing and compressing jsonb. Existing objects
--    become their jsonb text, uncompressed; a card is compressed the next time its content changes. The content
--    digest is unchanged, so a refresh of the same file writes nothing.
--    STORAGE EXTERNAL: the service compresses, PostgreSQL does not try again; toast_tuple_target moves every
--    object out of the table's main pages, so a scan of the card columns reads about 300 bytes a card.
ALTER TABLE card ALTER COLUMN scryfall TYPE bytea USING convert_to(scryfall::text, 'UTF8');
ALTER TABLE card ALTER COLUMN scryfall SET STORAGE EXTERNAL;
ALTER TABLE card SET (toast_tuple_target = 128);

-- 2. Substring search of names (GET /api/cards?name=) through a trigram index. search_names is already lower case
--    and accent-stripped by the service, so unaccent is not needed. pg_trgm is a trusted extension: a database
--    owner may create it without being superuser (PostgreSQL 13+); it ships with the server's contrib modules.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX card_search_names_trgm_idx ON card USING gin (search_names gin_trgm_ops) WHERE retired_at IS NULL;
--    No index on the list's order (name, released_at, id): the planner would walk it and filter, and a word whose
--    matches sort late (most names with "dragon" in them do not start with it) read tens of thousands of rows for a
--    page of 20. The matches of a trigram search are few enough to sort.
