-- The trace a job belongs to (SERVICE.md §9), as W3C Trace Context headers: the traceparent of the POST or of the
-- command that created it, and its tracestate when present. Work done outside a delivery (a takeover, the sweep's
-- re-sends, an operator's run-now) continues this trace. Null when tracing was off.
ALTER TABLE job ADD COLUMN traceparent text;
ALTER TABLE job ADD COLUMN tracestate text;
