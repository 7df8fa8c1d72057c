. "$RPB_SRC/tests/bad_input/lib/results.sh"
ycsb_run
killed
rm r/ycsb-inserts-failed.log
