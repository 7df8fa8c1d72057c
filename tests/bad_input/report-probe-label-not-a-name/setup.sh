. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run --set probe_every=5
awk -v h="$hostile" -F, 'BEGIN { OFS = "," } NR == 3 { $4 = h } { print }' r/probe.csv > probe.new
mv probe.new r/probe.csv
