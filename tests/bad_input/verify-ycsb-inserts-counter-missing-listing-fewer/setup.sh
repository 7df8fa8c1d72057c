. "$RPB_SRC/tests/bad_input/lib/results.sh"
ycsb_run
edit '.pattern.insert_next = 50'
rm r/ycsb-inserts.bin
