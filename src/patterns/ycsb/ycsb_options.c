/* The [ycsb] section: YCSB CoreWorkload's properties, with YCSB's names and
 * defaults, and the rules across them. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ycsb.h"

#define Y(f) offsetof(struct rpb_ycsb_opts, f)

static const char *const phases[] = {"run", "load", NULL};
static const char *const request_dists[] = {"uniform", "zipfian", "latest", "hotspot",
					    "sequential", "exponential"};
static const char *const length_dists[] = {"constant", "uniform", "zipfian", NULL};
static const char *const scan_dists[] = {"uniform", "zipfian", NULL};
static const char *const orders[] = {"hashed", "ordered", NULL};

#define PROPORTION(name, dv, op, what)                                                 \
	{ .key = name, .type = RPB_OPT_DOUBLE, .dflt = dv, .dmin = 0, .dmax = 1,              \
	  .off = Y(proportion) + (op) * sizeof(double),                                         \
	  .help = "weight of " what " in the run's operation mix" }

const struct rpb_optdef ycsb_options[] = {
	{ .key = "phase", .type = RPB_OPT_ENUM, .dflt = "run", .choices = phases, .off = Y(phase),
	  .help = "load inserts the records (the verb load sets it), run runs the operation mix" },
	{ .key = "recordcount", .type = RPB_OPT_COUNT, .dflt = "1000", .umin = 1,
	  .umax = RPB_OPT_P62, .off = Y(recordcount), .help = "records the load phase inserts" },
	{ .key = "operationcount", .type = RPB_OPT_COUNT, .dflt = "1000", .umin = 0,
	  .umax = RPB_OPT_P62, .off = Y(operationcount),
	  .help = "operations of the run phase, split over the threads; 0 = until duration" },
	{ .key = "fieldcount", .type = RPB_OPT_COUNT, .dflt = "10", .umin = 1,
	  .umax = YCSB_FIELDS_MAX, .off = Y(fieldcount), .help = "fields per record" },
	{ .key = "fieldlength", .type = RPB_OPT_COUNT, .dflt = "100", .umin = 1,
	  .umax = 1u << 20, .off = Y(fieldlength),
	  .help = "bytes per field (the largest with a uniform or zipfian length)" },
	{ .key = "minfieldlength", .type = RPB_OPT_COUNT, .dflt = "1", .umin = 1,
	  .umax = 1u << 20, .off = Y(minfieldlength),
	  .help = "smallest field with a uniform or zipfian length" },
	{ .key = "fieldlengthdistribution", .type = RPB_OPT_ENUM, .dflt = "constant",
	  .choices = length_dists, .off = Y(fieldlengthdistribution),
	  .help = "field lengths: constant, uniform or zipfian" },
	{ .key = "fieldnameprefix", .type = RPB_OPT_STRING, .dflt = "field",
	  .umax = YCSB_NAME_MAX - 5, .off = Y(fieldnameprefix), .help = "field names: prefix + index" },
	{ .key = "readallfields", .type = RPB_OPT_BOOL, .dflt = "true", .off = Y(readallfields),
	  .help = "a read returns every field (false: one random field)" },
	{ .key = "writeallfields", .type = RPB_OPT_BOOL, .dflt = "false", .off = Y(writeallfields),
	  .help = "an update writes every field (false: one field, read-modify-write of the record)" },
	PROPORTION("readproportion", "0.95", YCSB_READ, "reads"),
	PROPORTION("updateproportion", "0.05", YCSB_UPDATE, "updates"),
	PROPORTION("insertproportion", "0", YCSB_INSERT, "inserts"),
	PROPORTION("scanproportion", "0", YCSB_SCAN, "scans"),
	PROPORTION("readmodifywriteproportion", "0", YCSB_RMW, "read-modify-writes"),
	{ .key = "requestdistribution", .type = RPB_OPT_STRING, .dflt = "uniform", .umax = 15,
	  .off = Y(requestdist),
	  .help = "which records the operations pick: uniform, zipfian, latest, hotspot, "
		  "sequential or exponential" },
	{ .key = "zipfianconstant", .type = RPB_OPT_DOUBLE, .dflt = "0.99", .dmin = 0.01,
	  .dmax = 0.999, .off = Y(zipfianconstant), .help = "skew of the zipfian distributions" },
	{ .key = "minscanlength", .type = RPB_OPT_COUNT, .dflt = "1", .umin = 1, .umax = 1u << 20,
	  .off = Y(minscanlength), .help = "shortest scan" },
	{ .key = "maxscanlength", .type = RPB_OPT_COUNT, .dflt = "1000", .umin = 1,
	  .umax = 1u << 20, .off = Y(maxscanlength), .help = "longest scan" },
	{ .key = "scanlengthdistribution", .type = RPB_OPT_ENUM, .dflt = "uniform",
	  .choices = scan_dists, .off = Y(scanlengthdistribution),
	  .help = "scan lengths: uniform or zipfian" },
	{ .key = "insertorder", .type = RPB_OPT_ENUM, .dflt = "hashed", .choices = orders,
	  .off = Y(insertorder), .help = "key names: hashed (FNV-64 of the number) or ordered" },
	{ .key = "zeropadding", .type = RPB_OPT_COUNT, .dflt = "1", .umin = 1, .umax = 64,
	  .off = Y(zeropadding), .help = "key numbers are zero-padded to this many digits" },
	{ .key = "insertstart", .type = RPB_OPT_COUNT, .dflt = "0", .umin = 0, .umax = RPB_OPT_P62,
	  .off = Y(insertstart), .help = "first key number this load inserts" },
	{ .key = "insertcount", .type = RPB_OPT_COUNT, .dflt = "0", .umin = 0, .umax = RPB_OPT_P62,
	  .off = Y(insertcount), .help = "records this load inserts; 0 = recordcount - insertstart" },
	{ .key = "hotspotdatafraction", .type = RPB_OPT_DOUBLE, .dflt = "0.2", .dmin = 0, .dmax = 1,
	  .off = Y(hotspotdatafraction), .help = "hotspot: share of the records that are hot" },
	{ .key = "hotspotopnfraction", .type = RPB_OPT_DOUBLE, .dflt = "0.8", .dmin = 0, .dmax = 1,
	  .off = Y(hotspotopnfraction), .help = "hotspot: share of the operations on hot records" },
	{ .key = "exponential.percentile", .type = RPB_OPT_DOUBLE, .dflt = "95", .dmin = 0.001,
	  .dmax = 99.999, .off = Y(exp_percentile),
	  .help = "exponential: this percentile of the operations ..." },
	{ .key = "exponential.frac", .type = RPB_OPT_DOUBLE, .dflt = "0.8571428571", .dmin = 1e-9,
	  .dmax = 1, .off = Y(exp_frac), .help = "... falls on this fraction of the newest records" },
	{ .key = "dataintegrity", .type = RPB_OPT_BOOL, .dflt = "false", .off = Y(dataintegrity),
	  .help = "values derived from key and field, checked on every read" },
	{ .key = "table", .type = RPB_OPT_STRING, .dflt = "usertable", .umax = 63, .off = Y(table),
	  .help = "YCSB's table name, recorded (records live in the store's raw table)" },
	{ .key = NULL },
};

/* YCSB properties that are [run] options in rpbench. */
static const char *const aliases[][2] = {
	{"threadcount", "run.threads"},
	{"target", "run.rate"},
	{"maxexecutiontime", "run.duration"},
	{"status.interval", "run.interval"},
};

const char *ycsb_alias(const char *property)
{
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (strcmp(aliases[i][0], property) == 0)
			return aliases[i][1];
	return NULL;
}

int ycsb_finish(void *config, const struct rpb_job *job, const char *where, char *msg, size_t n)
{
	struct rpb_ycsb_opts *o = config;
	o->requestdistribution = -1;
	for (int i = 0; i < (int)(sizeof request_dists / sizeof request_dists[0]); i++)
		if (strcmp(o->requestdist, request_dists[i]) == 0)
			o->requestdistribution = i;
	if (o->requestdistribution < 0) {
		snprintf(msg, n, "%s[ycsb] requestdistribution = %s is unknown; give uniform, zipfian, "
			 "latest, hotspot, sequential or exponential", where, o->requestdist);
		return -1;
	}
	if (o->insertstart >= o->recordcount && !o->insertcount) {
		snprintf(msg, n, "%s[ycsb] insertstart = %" PRIu64 " leaves no records of recordcount = %"
			 PRIu64 "; lower insertstart or set insertcount", where, o->insertstart,
			 o->recordcount);
		return -1;
	}
	o->inserts = o->insertcount ? o->insertcount : o->recordcount - o->insertstart;
	double sum = 0;
	for (int i = 0; i < YCSB_NOPS; i++)
		sum += o->proportion[i];
	if (o->phase == YCSB_RUN && sum <= 0) {
		snprintf(msg, n, "%s[ycsb] every operation proportion is 0; set readproportion or "
			 "another to a positive share", where);
		return -1;
	}
	if (o->minfieldlength > o->fieldlength || o->minscanlength > o->maxscanlength) {
		snprintf(msg, n, "%s[ycsb] min%s is above max%s; lower it", where,
			 o->minscanlength > o->maxscanlength ? "scanlength" : "fieldlength",
			 o->minscanlength > o->maxscanlength ? "scanlength" : "fieldlength (fieldlength)");
		return -1;
	}
	if (o->dataintegrity && o->fieldlengthdistribution != YCSB_LEN_CONSTANT) {
		snprintf(msg, n, "%s[ycsb] dataintegrity needs fieldlengthdistribution = constant "
			 "(YCSB's rule); set one or the other", where);
		return -1;
	}
	if (o->requestdistribution == YCSB_HOTSPOT &&
	    (uint64_t)((double)o->inserts * o->hotspotdatafraction) == 0) {
		snprintf(msg, n, "%s[ycsb] hotspotdatafraction = %g leaves no hot record of %" PRIu64
			 "; raise it or recordcount", where, o->hotspotdatafraction, o->inserts);
		return -1;
	}
	if (ycsb_record_max(o) > RPB_VALUE_MAX) {
		snprintf(msg, n, "%s[ycsb] fieldcount x fieldlength is above a value's 64 MiB; lower "
			 "one of them", where);
		return -1;
	}
	if (o->phase == YCSB_RUN && !o->operationcount && job->run.duration <= 0 && !job->run.ops) {
		snprintf(msg, n, "%s[ycsb] operationcount = 0 runs until a time limit, and none is set; "
			 "set maxexecutiontime (duration) or operationcount", where);
		return -1;
	}
	o->threads = job->run.threads;
	return 0;
}

/* YCSB's Client gives each thread opcount / threads operations and the
 * first opcount % threads threads one more. */
static uint64_t share(uint64_t total, uint64_t threads, unsigned w)
{
	return total / threads + (w < total % threads);
}

uint64_t ycsb_thread_ops(const struct rpb_job *job, unsigned w)
{
	const struct rpb_ycsb_opts *o = ycsb_opts(job);
	uint64_t threads = job->run.threads ? job->run.threads : 1;
	if (o->phase == YCSB_LOAD)
		return share(o->inserts, threads, w);
	return o->operationcount ? share(o->operationcount, threads, w) : UINT64_MAX;
}

uint64_t ycsb_thread_first(const struct rpb_ycsb_opts *o, unsigned w)
{
	uint64_t threads = o->threads ? o->threads : 1, first = o->insertstart;
	for (unsigned t = 0; t < w; t++)
		first += share(o->inserts, threads, t);
	return first;
}
