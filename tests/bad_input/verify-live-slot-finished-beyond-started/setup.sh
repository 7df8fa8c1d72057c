. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
killed
# slot 1's finished (header 64 + slot 64 + 8) = 25
printf '\31' | dd of=r/ledger.bin bs=1 seek=136 conv=notrunc status=none
