. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
killed
# slot 0 (after the 64-byte header): started and finished = 2^62, little-endian
printf '\0\0\0\0\0\0\0\100\0\0\0\0\0\0\0\100' | dd of=r/ledger.bin bs=1 seek=64 conv=notrunc status=none
