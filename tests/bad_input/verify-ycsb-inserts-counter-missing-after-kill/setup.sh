. "$RPB_SRC/tests/bad_input/lib/results.sh"
ycsb_run
killed
edit 'del(.pattern)'
rm r/ycsb-inserts.bin
