# ops = 0: no ops limit bounds the count, the run's own length does.
. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run --set ops=0 --set duration=200ms
edit '.ledger.workers[0].issued = 4611686018427387904 | .ledger.workers[0].acked = 4611686018427387904'
