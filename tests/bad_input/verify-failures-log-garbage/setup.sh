. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
killed
cp garbage.bin r/failures.log
