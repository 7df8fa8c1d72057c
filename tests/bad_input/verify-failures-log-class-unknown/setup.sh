. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
killed
printf '0 3 bogus 0\n' > r/failures.log
