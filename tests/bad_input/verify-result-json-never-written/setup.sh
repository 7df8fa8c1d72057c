# result.json created but its content never on the disk: a power cut
# before it was synced leaves it empty (or zeros).
. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
: > r/result.json
