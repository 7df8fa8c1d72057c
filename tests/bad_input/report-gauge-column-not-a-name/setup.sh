. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
# The gauge_ prefix, then a name that runs a command in gnuplot's script.
awk -v h="gauge_$hostile" 'NR == 1 { $0 = $0 "," h } NR > 1 { $0 = $0 ",0" } { print }' \
	r/intervals.csv > intervals.new
mv intervals.new r/intervals.csv
