# A real cause for a failed probe step: a trigger in the store refuses to
# delete probe objects (SQLITE_CONSTRAINT, class exists), and the run goes
# on (on_error.exists = continue), leaving each probe behind.
. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run --set ops=1 --dir st --out r0
sqlite3 st/rpbench.sqlite "CREATE TRIGGER keep_probes BEFORE DELETE ON objects
  WHEN substr(old.k, 1, 2) = CAST('p/' AS BLOB) BEGIN SELECT RAISE(ABORT, 'probe objects are kept'); END;"
ingest_run --set probe_every=10 --set on_error.exists=continue --dir st
