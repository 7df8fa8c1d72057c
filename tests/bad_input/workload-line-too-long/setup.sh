# A comment line just over the limit of 1 MiB: too big for files/.
{ printf '[run]\nthreads = 1\n; '; head -c 1048575 /dev/zero | tr '\0' x; printf '\n[ingest]\n'; } > w.ini
