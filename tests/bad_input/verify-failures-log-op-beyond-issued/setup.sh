. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
killed
printf '1 3 io 0\n0 999 io 0\n' > r/failures.log
