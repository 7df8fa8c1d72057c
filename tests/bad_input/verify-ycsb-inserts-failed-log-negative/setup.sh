. "$RPB_SRC/tests/bad_input/lib/results.sh"
ycsb_run
killed
printf '%s\n' "$(jq .pattern.recordcount l/result.json)" -5 > r/ycsb-inserts-failed.log
