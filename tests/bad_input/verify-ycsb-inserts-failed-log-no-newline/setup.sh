. "$RPB_SRC/tests/bad_input/lib/results.sh"
ycsb_run
killed
printf '50' > r/ycsb-inserts-failed.log
