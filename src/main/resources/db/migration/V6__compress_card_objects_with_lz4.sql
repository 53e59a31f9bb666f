-- Scryfall's card objects are most of the catalog's bytes. lz4 compresses them several times faster than
-- PostgreSQL's default pglz, which is most of the cost of writing a new catalog. Servers built without lz4 keep
-- pglz (this migration then changes nothing).
DO $$
BEGIN
    ALTER TABLE card ALTER COLUMN scryfall SET COMPRESSION lz4;
    ALTER TABLE card_set ALTER COLUMN scryfall SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'this PostgreSQL has no lz4: card objects stay compressed with pglz';
END
$$;
