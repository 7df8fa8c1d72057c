. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
killed
printf '0 3 io 0 create\n' > r/failures.log
