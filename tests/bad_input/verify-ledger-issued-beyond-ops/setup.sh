# A count no run of 20 operations per thread can have: verify must not loop over it.
. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
edit '.ledger.workers[1].issued = 4611686018427387904 | .ledger.workers[1].acked = 4611686018427387904'
