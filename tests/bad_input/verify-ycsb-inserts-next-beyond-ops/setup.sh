. "$RPB_SRC/tests/bad_input/lib/results.sh"
ycsb_run
killed
# The counter's next number (bytes 24..31) far beyond the run's operations.
printf '\377\377\377\377\377\377\377\177' | dd of=r/ycsb-inserts.bin bs=1 seek=24 conv=notrunc status=none
