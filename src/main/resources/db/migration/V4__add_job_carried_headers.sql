-- Headers of the command record a job last came from that this service does not own (tracing, for example):
-- carried over unchanged when the job is republished to the delayed topic (SERVICE.md §6.2).
-- A JSON array of {"name": ..., "value": <base64>}.
ALTER TABLE job ADD COLUMN carried_headers jsonb NOT NULL DEFAULT '[]';
