-- An operator's cancel (SERVICE.md §6.6) and consent to a smaller art index (SERVICE.md §5.8).

-- "cancelled" is a final job state: it leaves job_one_in_flight_idx, so the kind's next job can start at once.
ALTER TABLE job DROP CONSTRAINT job_state_check;
ALTER TABLE job ADD CONSTRAINT job_state_check
    CHECK (state IN ('queued', 'running', 'waiting', 'succeeded', 'skipped', 'failed', 'cancelled'));
-- A run stopped by a cancel ends "cancelled"; what it wrote stays, as an interrupted run leaves it.
ALTER TABLE job_run DROP CONSTRAINT job_run_status_check;
ALTER TABLE job_run ADD CONSTRAINT job_run_status_check
    CHECK (status IN ('running', 'applied', 'skipped', 'failed', 'interrupted', 'cancelled'));

-- Who asked for the cancel and when. A running job keeps running until its run reaches its next checkpoint; the
-- heartbeat reads these and stops it there.
ALTER TABLE job ADD COLUMN cancel_requested_at timestamptz;
ALTER TABLE job ADD COLUMN cancelled_by text;

-- An art build that may publish an index with fewer artworks than the current one, and who consented.
ALTER TABLE job ADD COLUMN accept_fewer_artworks boolean NOT NULL DEFAULT false;
ALTER TABLE job ADD COLUMN consented_by text;

-- The "last successful refresh" and "catalog applied" gauges read the newest finished runs of each status.
CREATE INDEX job_run_finished_idx ON job_run (status, finished_at DESC) WHERE finished_at IS NOT NULL;
