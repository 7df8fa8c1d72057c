# A writer's count times 4 writers overflows 64 bits: it must be refused,
# not size the replay's bitmaps.
. "$RPB_SRC/tests/bad_input/lib/results.sh"
"$RPB_BIN/rpbench-sqlite" run "$RPB_SRC/data/workloads/ci-harvest.ini" --set ops=10 --set writers=4 \
	--set records=2000 --out r --quiet
edit '.ledger.workers[2].issued = 4611686018427387904 | .ledger.workers[2].acked = 4611686018427387904'
