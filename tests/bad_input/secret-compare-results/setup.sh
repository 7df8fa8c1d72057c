"$RPB_BIN/rpbench-postgres" run "$RPB_SRC/data/workloads/ci-ingest.ini" --set ops=5 --set probe_every=0 --dsn "$RPB_TEST_PG_DSN sslpassword=hunter2" --schema bi_secret_cmpres --out run1 --quiet
