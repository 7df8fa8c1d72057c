/* The harvest pattern's figures: result.json's "pattern" object, and
 * report.txt in the layout of the FOLIO OAI-PMH test report (one row per
 * harvest: Duration, Total Requests, Requests/sec, Average, Completed),
 * followed by what that report lacks. report.txt is written from the
 * result JSON just built, so the two always agree. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harvest_run.h"
#include "hostinfo.h"

static const char *const token_names[] = {"keyset", "snapshot"};

/* Latency over every harvester: of the request label (measured part only,
 * depth < 0) or of depth histogram 0 (first 10% of pages) or 1 (last). */
static json_t *latency(struct rpb_runner *rn, const struct hv_shared *sh, int depth)
{
	struct rpb_hist_snap *all = malloc(sizeof *all), *now = malloc(sizeof *now),
			     *d = malloc(sizeof *d);
	json_t *o = NULL;
	if (all && now && d) {
		rpb_snap_init(all);
		for (unsigned t = 0; t < rn->nworkers; t++) {
			if (depth >= 0) {
				rpb_hist_snapshot(&sh->res[t].depth[depth], d);
			} else {
				rpb_hist_snapshot(&rn->workers[t].labels[0].hist, now);
				rpb_snap_diff(d, now, &rn->workers[t].baseline[0]);
			}
			rpb_snap_add(all, d);
		}
		o = json_pack("{s:I, s:f, s:f, s:f, s:f, s:f}", "requests", (json_int_t)all->count,
			      "mean_s", rpb_snap_mean(all) / 1e9, "p50_s",
			      (double)rpb_snap_percentile(all, 50) / 1e9, "p95_s",
			      (double)rpb_snap_percentile(all, 95) / 1e9, "p99_s",
			      (double)rpb_snap_percentile(all, 99) / 1e9, "max_s",
			      all->count ? (double)all->max / 1e9 : 0.0);
	}
	free(all), free(now), free(d);
	return o ? o : json_object();
}

/* token = snapshot: how the ids were copied, and what the background copy
 * cost the requests. */
static json_t *snapshot_json(struct rpb_runner *rn, const struct hv_shared *sh)
{
	uint64_t batches = 0, entries = 0, waits = 0, wait_ns = 0;
	for (unsigned t = 0; t < sh->fillers; t++) {
		batches += sh->fill[t].batches;
		entries += sh->fill[t].entries;
	}
	for (unsigned t = 0; t < rn->nthreads; t++) {
		waits += sh->res[t].fill_waits;
		wait_ns += sh->res[t].fill_wait_ns;
	}
	return json_pack("{s:s, s:I, s:I, s:I, s:f}", "build",
			 sh->fillers ? "background" : "sync", "fill_transactions", (json_int_t)batches,
			 "fill_entries", (json_int_t)entries, "waited_requests", (json_int_t)waits,
			 "wait_s", (double)wait_ns / 1e9);
}

void hv_result_json(struct rpb_runner *rn, const struct hv_shared *sh, json_t *obj)
{
	const struct rpb_harvest_opts *o = hv_opts(rn->job);
	json_object_set_new(obj, "corpus",
			    json_pack("{s:s, s:I, s:I, s:f, s:I, s:I, s:f, s:s}", "prefix",
				      sh->corpus.prefix, "records", (json_int_t)o->records, "sets",
				      (json_int_t)o->sets, "deleted", o->deleted, "period_days",
				      (json_int_t)o->period, "size_median", (json_int_t)o->size_median,
				      "size_sigma", o->size_sigma, "format",
				      o->format == RPB_HV_OAI_DC ? "oai_dc" : "marc21"));
	json_object_set_new(
		obj, "load",
		json_pack("{s:b, s:I, s:I, s:I, s:I, s:f, s:f, s:f}", "skipped", sh->load_skipped,
			  "records", (json_int_t)sh->load_records, "bytes", (json_int_t)sh->load_bytes,
			  "transactions", (json_int_t)sh->load_txns, "batch", (json_int_t)o->load_batch,
			  "seconds", sh->load_s, "records_per_s",
			  sh->load_s > 0 ? (double)sh->load_records / sh->load_s : 0.0, "mib_per_s",
			  sh->load_s > 0 ? (double)sh->load_bytes / 1048576.0 / sh->load_s : 0.0));
	char from[32], until[32];
	hv_iso(from, sizeof from, o->from_s);
	hv_iso(until, sizeof until, o->until_s);
	json_object_set_new(obj, "harvest",
			    json_pack("{s:s, s:I, s:s, s:s, s:I, s:I, s:I}", "token",
				      token_names[o->token], "page_size", (json_int_t)o->page_size,
				      "from", from, "until", until, "set", (json_int_t)o->set,
				      "expected_records", (json_int_t)sh->expected, "expected_pages",
				      (json_int_t)sh->expected_pages));
	json_t *rows = json_array();
	struct hv_wres tot = {0};
	for (unsigned t = 0; t < rn->nworkers; t++) {
		const struct hv_wres *r = &sh->res[t];
		for (unsigned k = 0; k < r->nrows; k++) {
			const struct hv_row *h = &r->rows[k];
			double secs = (double)(h->end_ns - h->start_ns) / 1e9;
			json_array_append_new(
				rows,
				json_pack("{s:i, s:i, s:f, s:I, s:f, s:f, s:b, s:I, s:I, s:I, s:I, s:I, s:I}",
					  "thread", (int)t, "number", (int)k + 1, "duration_s", secs,
					  "requests", (json_int_t)h->requests, "requests_per_s",
					  secs > 0 ? (double)h->requests / secs : 0.0, "average_s",
					  h->requests ? (double)h->lat_ns / 1e9 / (double)h->requests : 0.0,
					  "completed", h->completed, "records", (json_int_t)h->records,
					  "deleted", (json_int_t)h->deleted, "bytes", (json_int_t)h->bytes,
					  "missing", (json_int_t)h->missing, "duplicates",
					  (json_int_t)h->duplicates, "unexpected", (json_int_t)h->unexpected));
			json_object_set_new(json_array_get(rows, json_array_size(rows) - 1), "moved",
					    json_integer((json_int_t)h->moved));
		}
		tot.dropped += r->dropped;
		tot.completed += r->completed;
		tot.incomplete += r->incomplete;
		tot.records += r->records;
		tot.bytes += r->bytes;
		tot.missing += r->missing;
		tot.duplicates += r->duplicates;
		tot.unexpected += r->unexpected;
		tot.bad_tokens += r->bad_tokens;
		tot.moved += r->moved;
		tot.creates += r->creates;
		tot.updates += r->updates;
	}
	json_object_set_new(obj, "harvests", rows);
	json_object_set_new(
		obj, "totals",
		json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:b}", "harvests_completed",
			  (json_int_t)tot.completed, "harvests_incomplete", (json_int_t)tot.incomplete,
			  "harvests_not_listed", (json_int_t)tot.dropped, "records",
			  (json_int_t)tot.records, "bytes", (json_int_t)tot.bytes, "missing",
			  (json_int_t)tot.missing, "duplicates", (json_int_t)tot.duplicates,
			  "bad_tokens", (json_int_t)tot.bad_tokens, "integrity_checked",
			  !(rn->backend->flags & RPB_BF_STORES_NOTHING)));
	json_object_set_new(json_object_get(obj, "totals"), "unexpected",
			    json_integer((json_int_t)tot.unexpected));
	json_object_set_new(json_object_get(obj, "totals"), "moved",
			    json_integer((json_int_t)tot.moved));
	char harvest_until[32];
	hv_iso(harvest_until, sizeof harvest_until, hv_harvest_until(o));
	json_object_set_new(obj, "writers",
			    json_pack("{s:I, s:f, s:I, s:I, s:s}", "writers", (json_int_t)o->writers,
				      "writer_rate", o->writer_rate, "creates", (json_int_t)tot.creates,
				      "updates", (json_int_t)tot.updates, "harvest_until",
				      harvest_until));
	if (o->token == RPB_HV_SNAPSHOT)
		json_object_set_new(obj, "snapshot", snapshot_json(rn, sh));
	json_object_set_new(obj, "request_latency", latency(rn, sh, -1));
	json_object_set_new(obj, "depth",
			    json_pack("{s:o, s:o}", "first_10pct", latency(rn, sh, 0), "last_10pct",
				      latency(rn, sh, 1)));
	json_object_set_new(obj, "peak_rss_bytes", json_integer((json_int_t)rpb_peak_rss_bytes()));
	json_object_set_new(obj, "bitmap_bytes_per_harvester",
			    json_integer((json_int_t)(o->records / 8 + 1)));
}

/* ---- report.txt ---- */

static double jreal(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static json_int_t jint(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static const char *jstr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

/* FOLIO's form: "14h 05m", "28m"; seconds added below an hour. */
static void duration(char *buf, size_t n, double s)
{
	unsigned long t = (unsigned long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, n, "%luh %02lum", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, n, "%lum %02lus", t / 60, t % 60);
	else
		snprintf(buf, n, "%.3fs", s);
}

/* A run of several ranks (docs/distributed.md): a row per node from its
 * own figures, and the total, whose latency comes from every rank's
 * request histograms summed bucket by bucket. The sections below are the
 * first node's (OUT/result.json's pattern is rank 0's), as the line says. */
static void node_rows(FILE *f, const json_t *result)
{
	const json_t *nodes = json_object_get(result, "nodes");
	if (!json_array_size(nodes))
		return;
	fputs("\nNode\tRank\tRequests\tRequests/sec\tRecords\tMissing\tDuplicates\tp99(s)\n", f);
	size_t i;
	const json_t *node;
	json_int_t req = 0, rec = 0, miss = 0, dup = 0;
	json_array_foreach(nodes, i, node) {
		const json_t *pat = json_object_get(node, "pattern");
		if (!pat)
			continue;
		const json_t *lat = json_object_get(pat, "request_latency"), *tot = json_object_get(pat, "totals");
		double secs = jreal(json_object_get(node, "totals"), "elapsed_s");
		fprintf(f, "%s\t%" JSON_INTEGER_FORMAT "\t%" JSON_INTEGER_FORMAT "\t%.3f\t%"
			   JSON_INTEGER_FORMAT "\t%" JSON_INTEGER_FORMAT "\t%" JSON_INTEGER_FORMAT "\t%.6f\n",
			jstr(node, "host"), jint(node, "rank"), jint(lat, "requests"),
			secs > 0 ? (double)jint(lat, "requests") / secs : 0.0, jint(tot, "records"),
			jint(tot, "missing"), jint(tot, "duplicates"), jreal(lat, "p99_s"));
		req += jint(lat, "requests");
		rec += jint(tot, "records");
		miss += jint(tot, "missing");
		dup += jint(tot, "duplicates");
	}
	const json_t *all = json_object_get(json_object_get(result, "labels"), "request");
	double secs = jreal(json_object_get(result, "totals"), "elapsed_s");
	fprintf(f, "Total\t\t%" JSON_INTEGER_FORMAT "\t%.3f\t%" JSON_INTEGER_FORMAT "\t%"
		   JSON_INTEGER_FORMAT "\t%" JSON_INTEGER_FORMAT "\t%.6f\n",
		req, secs > 0 ? (double)req / secs : 0.0, rec, miss, dup, jreal(all, "p99_us") / 1e6);
	fprintf(f, "(below: the first node's harvests and figures; every node's are in its "
		   "rank-N/report.txt)\n");
}

static void write_body(FILE *f, const json_t *result)
{
	const json_t *pat = json_object_get(result, "pattern");
	const json_t *man = json_object_get(result, "manifest");
	const json_t *corpus = json_object_get(pat, "corpus"), *load = json_object_get(pat, "load");
	const json_t *hv = json_object_get(pat, "harvest"), *tot = json_object_get(pat, "totals");
	fprintf(f, "OAI-PMH harvest - ListRecords with resumption tokens (rpbench harvest)\n"
		   "Status\t%s\n"
		   "Backend\t%s (%s), sync = %s\n"
		   "Corpus\t%" JSON_INTEGER_FORMAT " records, %" JSON_INTEGER_FORMAT
		   " sets, %s, median %" JSON_INTEGER_FORMAT " B, %s\n"
		   "Harvest\ttoken = %s, page_size = %" JSON_INTEGER_FORMAT ", from %s until %s, set %"
		   JSON_INTEGER_FORMAT ", %" JSON_INTEGER_FORMAT " records in %" JSON_INTEGER_FORMAT
		   " pages expected\n",
		jstr(result, "status"), jstr(man, "backend"), jstr(man, "backend_version"),
		jstr(man, "sync"), jint(corpus, "records"), jint(corpus, "sets"), jstr(corpus, "format"),
		jint(corpus, "size_median"), jstr(corpus, "prefix"), jstr(hv, "token"),
		jint(hv, "page_size"), jstr(hv, "from"), jstr(hv, "until"), jint(hv, "set"),
		jint(hv, "expected_records"), jint(hv, "expected_pages"));
	if (json_is_true(json_object_get(load, "skipped")))
		fputs("Load\tskipped: the corpus was already in the store (reuse = on)\n", f);
	else
		fprintf(f, "Load\t%" JSON_INTEGER_FORMAT " records, %.1f MiB in %.3f s: %.0f records/s, "
			   "%.2f MiB/s, %" JSON_INTEGER_FORMAT " transactions of %" JSON_INTEGER_FORMAT "\n",
			jint(load, "records"), (double)jint(load, "bytes") / 1048576.0,
			jreal(load, "seconds"), jreal(load, "records_per_s"), jreal(load, "mib_per_s"),
			jint(load, "transactions"), jint(load, "batch"));

	node_rows(f, result);
	fputs("\nTest Number\tDuration\tThread\tTotal Requests\tRequests/sec\tAverage\tCompleted"
	      "\tRecords\tBytes\tMissing\tDuplicates\n", f);
	size_t i;
	const json_t *r;
	json_array_foreach(json_object_get(pat, "harvests"), i, r) {
		char d[32];
		duration(d, sizeof d, jreal(r, "duration_s"));
		fprintf(f, "%zu\t%s\t%" JSON_INTEGER_FORMAT "\t%" JSON_INTEGER_FORMAT "\t%.3f\t%.4f\t%s\t%"
			   JSON_INTEGER_FORMAT "\t%" JSON_INTEGER_FORMAT "\t%" JSON_INTEGER_FORMAT "\t%"
			   JSON_INTEGER_FORMAT "\n",
			i + 1, d, jint(r, "thread") + 1, jint(r, "requests"), jreal(r, "requests_per_s"),
			jreal(r, "average_s"), json_is_true(json_object_get(r, "completed")) ? "Y" : "N",
			jint(r, "records"), jint(r, "bytes"), jint(r, "missing"), jint(r, "duplicates"));
	}
	if (jint(tot, "harvests_not_listed"))
		fprintf(f, "(%" JSON_INTEGER_FORMAT " more harvests counted in the totals only)\n",
			jint(tot, "harvests_not_listed"));

	const json_t *lat = json_object_get(pat, "request_latency");
	const json_t *dep = json_object_get(pat, "depth");
	const json_t *first = json_object_get(dep, "first_10pct"), *last = json_object_get(dep, "last_10pct");
	fprintf(f, "\n********** Additions (not in the FOLIO report) **********\n"
		   "Requests\t%" JSON_INTEGER_FORMAT "\n"
		   "Harvests completed\t%" JSON_INTEGER_FORMAT "\nHarvests not completed\t%"
		   JSON_INTEGER_FORMAT "\n"
		   "Records harvested\t%" JSON_INTEGER_FORMAT "\nBytes harvested\t%" JSON_INTEGER_FORMAT "\n"
		   "Missing\t%" JSON_INTEGER_FORMAT "\nDuplicates\t%" JSON_INTEGER_FORMAT
		   "\nUnexpected\t%" JSON_INTEGER_FORMAT "\nMoved (updated during the harvest)\t%"
		   JSON_INTEGER_FORMAT "\nBad resumption tokens\t%" JSON_INTEGER_FORMAT
		   "\nIntegrity checked\t%s\n"
		   "Peak RSS (bytes)\t%" JSON_INTEGER_FORMAT "\n",
		jint(lat, "requests"), jint(tot, "harvests_completed"), jint(tot, "harvests_incomplete"),
		jint(tot, "records"), jint(tot, "bytes"), jint(tot, "missing"), jint(tot, "duplicates"),
		jint(tot, "unexpected"), jint(tot, "moved"), jint(tot, "bad_tokens"),
		json_is_true(json_object_get(tot, "integrity_checked")) ? "yes" : "no (the store keeps nothing)",
		jint(pat, "peak_rss_bytes"));
	const json_t *wr = json_object_get(pat, "writers");
	if (jint(wr, "writers"))
		fprintf(f, "Writers\t%" JSON_INTEGER_FORMAT " at %g ops/s each (0 = unpaced): %"
			   JSON_INTEGER_FORMAT " creates, %" JSON_INTEGER_FORMAT " updates; harvests "
			   "until %s\n",
			jint(wr, "writers"), jreal(wr, "writer_rate"), jint(wr, "creates"),
			jint(wr, "updates"), jstr(wr, "harvest_until"));
	const json_t *snapshot = json_object_get(pat, "snapshot");
	if (!strcmp(jstr(snapshot, "build"), "background"))
		fprintf(f, "Snapshot\tbuilt in the background: %" JSON_INTEGER_FORMAT " ids copied in %"
			   JSON_INTEGER_FORMAT " transactions beside the requests; %" JSON_INTEGER_FORMAT
			   " requests waited %.3f s in all for the fill frontier\n",
			jint(snapshot, "fill_entries"), jint(snapshot, "fill_transactions"),
			jint(snapshot, "waited_requests"), jreal(snapshot, "wait_s"));
	else if (snapshot)
		fputs("Snapshot\tbuilt inside each harvest's first request (snapshot build below)\n", f);
	/* postgres.read_dsn: the pages came from a hot standby. */
	const json_t *lag = json_object_get(json_object_get(result, "backend_gauges"), "replica_lag_s");
	if (lag)
		fprintf(f, "Read replica	pages read from a hot standby (postgres.read_dsn); lag max %.3f s, "
			   "mean %.3f s over %" JSON_INTEGER_FORMAT " readings\n",
			jreal(lag, "max"), jreal(lag, "mean"), jint(lag, "samples"));
	fputs("\nLatency(s)\tRequests\tMean\tp50\tp95\tp99\tMax\n", f);
	const json_t *rowsv[3] = {lat, first, last};
	const char *names[3] = {"every page", "first 10% of pages", "last 10% of pages"};
	for (int k = 0; k < 3; k++)
		fprintf(f, "%s\t%" JSON_INTEGER_FORMAT "\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\n", names[k],
			jint(rowsv[k], "requests"), jreal(rowsv[k], "mean_s"), jreal(rowsv[k], "p50_s"),
			jreal(rowsv[k], "p95_s"), jreal(rowsv[k], "p99_s"), jreal(rowsv[k], "max_s"));
	/* token = snapshot: the copy at harvest start and the drop at its end,
	 * each inside the first or last request above (background: the copy's
	 * transactions, beside the requests). */
	const json_t *labels = json_object_get(result, "labels");
	static const char *const snap[4][2] = {{"snapshot-build", "snapshot build"},
					       {"snapshot-drop", "snapshot drop"},
					       {"write-create", "writer create"},
					       {"write-update", "writer update"}};
	for (int k = 0; k < 4; k++) {
		const json_t *l = json_object_get(labels, snap[k][0]);
		if (!jint(l, "measured"))
			continue;
		fprintf(f, "%s\t%" JSON_INTEGER_FORMAT "\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\n", snap[k][1],
			jint(l, "measured"), jreal(l, "mean_us") / 1e6, jreal(l, "p50_us") / 1e6,
			jreal(l, "p95_us") / 1e6, jreal(l, "p99_us") / 1e6, jreal(l, "max_us") / 1e6);
	}
}

void harvest_write_report(struct rpb_runner *rn, const json_t *result, FILE *f)
{
	(void)rn;
	write_body(f, result);
}
