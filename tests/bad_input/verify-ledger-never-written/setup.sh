# A killed run whose ledger.bin never reached the disk: all zeros.
. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
killed
dd if=/dev/zero of=r/ledger.bin bs=1 count="$(stat -c %s r/ledger.bin)" conv=notrunc status=none
