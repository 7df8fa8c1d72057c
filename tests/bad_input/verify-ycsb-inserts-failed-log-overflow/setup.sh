. "$RPB_SRC/tests/bad_input/lib/results.sh"
ycsb_run
killed
printf '99999999999999999999999\n' > r/ycsb-inserts-failed.log
