-- SERVICE.md §3.3 as amended: an operator may close a quiet window early (recorded with who and when), and no
-- window outlives the configured maximum (1 h by default).
ALTER TABLE quiet_window
    ADD COLUMN closed_at timestamptz,
    ADD COLUMN closed_by text;

-- A window stored before the cap (up to 'infinity' after an absurd Retry-After) ends within the default cap.
UPDATE quiet_window SET until = least(until, now() + interval '1 hour');
