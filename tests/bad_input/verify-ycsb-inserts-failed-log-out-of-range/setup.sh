. "$RPB_SRC/tests/bad_input/lib/results.sh"
ycsb_run
killed
printf '7\n' > r/ycsb-inserts-failed.log
