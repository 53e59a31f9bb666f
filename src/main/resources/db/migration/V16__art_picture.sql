-- The server's own per-artwork data for the match's second look (SERVICE.md §5.11 item 14, FINGERPRINT.md §13):
-- a small colour picture of the art box, made by the art build from the same image as the fingerprint, with the
-- digest of the settings it was made with. The index file does not hold it. Null until a build makes it.
ALTER TABLE art_fingerprint
    ADD COLUMN picture        bytea,
    ADD COLUMN picture_digest text;
