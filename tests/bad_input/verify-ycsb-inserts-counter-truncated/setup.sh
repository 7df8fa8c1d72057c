. "$RPB_SRC/tests/bad_input/lib/results.sh"
ycsb_run
killed
truncate -s 100 r/ycsb-inserts.bin
