. "$RPB_SRC/tests/bad_input/lib/results.sh"
ycsb_run
killed
seq 50 2000050 > r/ycsb-inserts-failed.log
