. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
killed
printf '0 3 io 0\n1 3 io 0\n0 3 io 0\n' > r/failures.log
