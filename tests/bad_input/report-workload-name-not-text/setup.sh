# A line break in the workload's name would end a line of the gnuplot
# script; the command after it (no space: the name ends at one) writes
# PWNED into a file if it ever runs.
. "$RPB_SRC/tests/bad_input/lib/results.sh"
ingest_run
name=$(cat <<'END'
x
system("echo${IFS}PWN"."ED>p")#.ini
END
)
edit --arg n "$name" '.manifest.command = "rpbench-sqlite run " + $n + " --out r"'
