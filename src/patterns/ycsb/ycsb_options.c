/* The [ycsb] section: YCSB CoreWorkload's properties, with YCSB's names and
 * defaults, the properties of YCSB's Client, Measurements and exporters
 * that rpbench honours, and the rules across them. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shown.h"
#include "text.h"
#include "ycsb.h"

#define Y(f) offsetof(struct rpb_ycsb_opts, f)

/* CoreWorkload's recordcount = 0: Integer.MAX_VALUE records. */
#define YCSB_INT_MAX UINT64_C(2147483647)

static const char *const phases[] = {"run", "load", NULL};
static const char *const request_dists[] = {"uniform", "zipfian", "latest", "hotspot",
					    "sequential", "exponential"};
static const char *const length_dists[] = {"constant", "uniform", "zipfian", "histogram", NULL};
static const char *const scan_dists[] = {"uniform", "zipfian", NULL};
static const char *const orders[] = {"hashed", "ordered", NULL};
static const char *const formats[] = {"0.17.0", "master", NULL};
static const char *const value_kinds[] = {"ycsb", "windows", NULL};

#define PROPORTION(name, dv, op, what)                                                 \
	{ .key = name, .type = RPB_OPT_DOUBLE, .dflt = dv, .dmin = -1e9, .dmax = 1e9,         \
	  .off = Y(proportion) + (op) * sizeof(double),                                         \
	  .help = "weight of " what " in the run's operation mix (weights <= 0 leave it out; "  \
		  "they need not add up to 1)" }

const struct rpb_optdef ycsb_options[] = {
	{ .key = "phase", .type = RPB_OPT_ENUM, .dflt = "run", .choices = phases, .off = Y(phase),
	  .help = "load inserts the records (the verb load sets it), run runs the operation mix" },
	{ .key = "recordcount", .type = RPB_OPT_COUNT, .dflt = "1000", .umin = 0,
	  .umax = RPB_OPT_P62, .off = Y(recordcount),
	  .help = "records of the workload, which the load phase inserts; 0 = YCSB's 2^31 - 1" },
	{ .key = "operationcount", .type = RPB_OPT_COUNT, .dflt = "1000", .umin = 0,
	  .umax = RPB_OPT_P62, .off = Y(operationcount),
	  .help = "operations of the run phase, split over the threads; 0 = until duration" },
	{ .key = "fieldcount", .type = RPB_OPT_COUNT, .dflt = "10", .umin = 1,
	  .umax = 1u << 20, .off = Y(fieldcount),
	  .help = "fields per record (a record holds at most 64 MiB)" },
	{ .key = "fieldlength", .type = RPB_OPT_COUNT, .dflt = "100", .umin = 1,
	  .umax = 1u << 20, .off = Y(fieldlength),
	  .help = "bytes per field (the largest with a uniform or zipfian length)" },
	{ .key = "minfieldlength", .type = RPB_OPT_COUNT, .dflt = "1", .umin = 1,
	  .umax = 1u << 20, .off = Y(minfieldlength),
	  .help = "smallest field with a uniform or zipfian length" },
	{ .key = "fieldlengthdistribution", .type = RPB_OPT_ENUM, .dflt = "constant",
	  .choices = length_dists, .off = Y(fieldlengthdistribution),
	  .help = "field lengths: constant, uniform, zipfian or histogram (fieldlengthhistogram)" },
	{ .key = "fieldlengthhistogram", .type = RPB_OPT_STRING, .dflt = "hist.txt", .umax = 1023,
	  .off = Y(fieldlengthhistogram),
	  .help = "YCSB's field length histogram file: 'BlockSize<TAB>N', then 'bucket<TAB>count' "
		  "lines", .path = RPB_PATH_READ },
	{ .key = "fieldnameprefix", .type = RPB_OPT_STRING, .dflt = "field",
	  .umax = YCSB_NAME_MAX - 9, .off = Y(fieldnameprefix), .help = "field names: prefix + index" },
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
	  .dmax = 0.999, .off = Y(zipfianconstant),
	  .help = "rpbench's: skew of the zipfian distributions (YCSB has no such property; its "
		  "constant is 0.99)" },
	{ .key = "minscanlength", .type = RPB_OPT_COUNT, .dflt = "1", .umin = 1, .umax = 1u << 20,
	  .off = Y(minscanlength), .help = "shortest scan" },
	{ .key = "maxscanlength", .type = RPB_OPT_COUNT, .dflt = "1000", .umin = 1,
	  .umax = 1u << 20, .off = Y(maxscanlength), .help = "longest scan" },
	{ .key = "scanlengthdistribution", .type = RPB_OPT_ENUM, .dflt = "uniform",
	  .choices = scan_dists, .off = Y(scanlengthdistribution),
	  .help = "scan lengths: uniform or zipfian" },
	{ .key = "insertorder", .type = RPB_OPT_ENUM, .dflt = "hashed", .choices = orders,
	  .off = Y(insertorder), .help = "key names: hashed (FNV-64 of the number) or ordered" },
	{ .key = "zeropadding", .type = RPB_OPT_COUNT, .dflt = "1", .umin = 0, .umax = 64,
	  .off = Y(zeropadding), .help = "key numbers are zero-padded to this many digits" },
	{ .key = "insertstart", .type = RPB_OPT_COUNT, .dflt = "0", .umin = 0, .umax = RPB_OPT_P62,
	  .off = Y(insertstart), .help = "first key number this load inserts" },
	{ .key = "insertcount", .type = RPB_OPT_COUNT, .dflt = "0", .umin = 0, .umax = RPB_OPT_P62,
	  .off = Y(insertcount),
	  .help = "records this load inserts, and the run's key range from insertstart; 0 = not "
		  "given: the load inserts recordcount records, the range is recordcount - "
		  "insertstart (YCSB's)" },
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
	  .help = "values derived from key and field, checked after every read (VERIFY)" },
	{ .key = "table", .type = RPB_OPT_STRING, .dflt = "usertable", .umax = 63, .off = Y(table),
	  .help = "YCSB's table name, recorded (records live in the store's raw table)" },
	{ .key = "values", .type = RPB_OPT_ENUM, .dflt = "ycsb", .choices = value_kinds,
	  .off = Y(values),
	  .help = "rpbench's: field values by YCSB's RandomByteIterator, fresh for each value "
		  "(ycsb), or windows of one printable buffer per thread (windows)" },
	{ .key = "measurementtype", .type = RPB_OPT_STRING, .dflt = "hdrhistogram", .umax = 31,
	  .off = Y(mtype),
	  .help = "YCSB's latency measurements in ycsb.txt and the status lines: hdrhistogram, "
		  "histogram, hdrhistogram+histogram, hdrhistogram+raw, timeseries or raw" },
	{ .key = "hdrhistogram.percentiles", .type = RPB_OPT_STRING, .dflt = "", .umax = 255,
	  .off = Y(percentiles),
	  .help = "percentiles ycsb.txt lists; empty: the format's (95,99; master 50,95,99)" },
	{ .key = "histogram.buckets", .type = RPB_OPT_COUNT, .dflt = "1000", .umin = 1,
	  .umax = 1u << 24, .off = Y(buckets),
	  .help = "measurementtype histogram: millisecond buckets before the overflow" },
	{ .key = "timeseries.granularity", .type = RPB_OPT_COUNT, .dflt = "1000", .umin = 1,
	  .umax = 86400000, .off = Y(granularity),
	  .help = "measurementtype timeseries: ms per averaged unit" },
	{ .key = "measurement.histogram.verbose", .type = RPB_OPT_BOOL, .dflt = "false",
	  .off = Y(verbose), .help = "ycsb.txt also lists every histogram bucket" },
	{ .key = "measurement.raw.output_file", .type = RPB_OPT_STRING, .dflt = "", .umax = 255,
	  .off = Y(raw_file),
	  .help = "measurementtype raw: a file of the results directory for the samples (empty: "
		  "stdout and ycsb.txt)" },
	{ .key = "measurement.raw.no_summary", .type = RPB_OPT_BOOL, .dflt = "false",
	  .off = Y(raw_no_summary), .help = "measurementtype raw: no summary after the samples" },
	{ .key = "exporter", .type = RPB_OPT_STRING, .dflt = "", .umax = 127, .off = Y(exporter),
	  .help = "YCSB's exporter of the final figures, the class site.ycsb.measurements.exporter.X "
		  "with X TextMeasurementsExporter (empty: it, YCSB's default), "
		  "JSONMeasurementsExporter or JSONArrayMeasurementsExporter" },
	{ .key = "exportfile", .type = RPB_OPT_STRING, .dflt = "", .umax = 255, .off = Y(exportfile),
	  .help = "a file of the results directory the exporter writes to (empty: stdout)" },
	{ .key = "status", .type = RPB_OPT_BOOL, .dflt = "false", .off = Y(status),
	  .help = "YCSB's status lines on stderr while it runs (YCSB's -s)" },
	{ .key = "label", .type = RPB_OPT_STRING, .dflt = "", .umax = 127, .off = Y(label),
	  .help = "text before each status line (YCSB's -l)" },
	{ .key = "reportlatencyforeacherror", .type = RPB_OPT_BOOL, .dflt = "false",
	  .off = Y(per_error),
	  .help = "a failed operation's latency under READ-NOT_FOUND, READ-ERROR, ... instead of "
		  "READ-FAILED" },
	{ .key = "latencytrackederrors", .type = RPB_OPT_STRING, .dflt = "", .umax = 255,
	  .off = Y(tracked), .help = "statuses (NOT_FOUND,ERROR) whose failures get a name of their own" },
	{ .key = "format", .type = RPB_OPT_ENUM, .dflt = "0.17.0", .choices = formats,
	  .off = Y(format),
	  .help = "rpbench's: whose output YCSB's is: the 0.17.0 release, or master (50th "
		  "percentile, SCAN-LATENCY-PER-RECORD, HdrHistogram 2.1.12)" },
	{ .key = NULL },
};

/* YCSB properties that are [run] options in rpbench. */
static const char *const aliases[][2] = {
	{"threadcount", "run.threads"},
	{"target", "run.rate"},
	{"maxexecutiontime", "run.duration"},
	{"status.interval", "run.interval"},
	{"measurement.interval", "run.latency"},
};

const char *ycsb_alias(const char *property)
{
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (strcmp(aliases[i][0], property) == 0)
			return aliases[i][1];
	return NULL;
}

/* Double.parseDouble, as far as percentiles go: leading and trailing
 * blanks, an optional d/f suffix; finite and not negative. */
static bool java_double(const char *s, double *out)
{
	while (*s && (unsigned char)*s <= ' ')
		s++;
	char buf[64];
	size_t len = strlen(s);
	while (len && (unsigned char)s[len - 1] <= ' ')
		len--;
	if (len && strchr("dDfF", s[len - 1]))
		len--;
	if (!len || len >= sizeof buf)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (strpbrk(buf, "xXnNiI")) /* no hex, nan or inf spellings */
		return false;
	char *end;
	errno = 0;
	double v = strtod(buf, &end);
	if (*end || errno || !isfinite(v) || v < 0)
		return false;
	*out = v;
	return true;
}

/* OneMeasurementHdrHistogram.getPercentileValues: a comma-separated list;
 * anything unreadable, the default instead (YCSB warns and goes on). */
static void percentiles(struct rpb_ycsb_opts *o)
{
	const char *dflt = o->format == YCSB_FORMAT_MASTER ? "50,95,99" : "95,99";
	const char *text = *o->percentiles ? o->percentiles : dflt;
	o->pct_bad = false;
	for (int pass = 0; pass < 2; pass++) {
		char copy[256];
		snprintf(copy, sizeof copy, "%s", text);
		o->npct = 0;
		bool ok = true;
		/* String.split(","): empty pieces count, trailing ones are dropped. */
		size_t len = strlen(copy);
		while (len && copy[len - 1] == ',')
			copy[--len] = '\0';
		for (char *p = copy, *next; ok && p; p = next) {
			next = strchr(p, ',');
			if (next)
				*next++ = '\0';
			ok = o->npct < YCSB_PCT_MAX && java_double(p, &o->pct[o->npct]);
			o->npct += ok;
		}
		if (ok && o->npct)
			return;
		o->pct_bad = true;
		text = dflt;
	}
}

/* exporter: YCSB's three classes, under site.ycsb or the older com.yahoo.ycsb. */
static void exporter(struct rpb_ycsb_opts *o)
{
	static const struct { const char *cls; int kind; } known[] = {
		{"TextMeasurementsExporter", YE_TEXT},
		{"JSONMeasurementsExporter", YE_JSON},
		{"JSONArrayMeasurementsExporter", YE_JSON_ARRAY},
	};
	o->exporter_kind = YE_TEXT;
	o->exporter_known = !*o->exporter; /* YCSB's default */
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		for (int p = 0; p < 2; p++) {
			char full[160];
			snprintf(full, sizeof full, "%s.measurements.exporter.%s",
				 p ? "com.yahoo.ycsb" : "site.ycsb", known[i].cls);
			if (strcmp(o->exporter, full) == 0) {
				o->exporter_kind = known[i].kind;
				o->exporter_known = true;
			}
		}
}

/* HistogramGenerator's file: "BlockSize\tN", then "bucket\tcount" lines,
 * each count put at its bucket's place in the list (ArrayList.add(i, v)). */
static int read_histogram(struct rpb_ycsb_opts *o, const char *where, char *msg, size_t n)
{
	char shown[RPB_SHOWN_SIZE];
	rpb_shown(shown, sizeof shown, o->fieldlengthhistogram);
	/* Untrusted input: a regular file only (a FIFO or a device would
	 * block or never end), opened without waiting for a writer. */
	struct stat sb;
	int fd = open(o->fieldlengthhistogram, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	FILE *f = fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? fdopen(fd, "r") : NULL;
	if (!f) {
		snprintf(msg, n, "%s[ycsb] fieldlengthhistogram = %s cannot be read (%s); give YCSB's "
			 "histogram file", where, shown,
			 fd >= 0 ? "not a regular file" : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	rpb_skip_bom(f);
	char line[256];
	int lineno = 0, rc = 0;
	o->nhist = 0;
	o->hist_area = 0;
	while (!rc && fgets(line, sizeof line, f)) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		char *tab = strchr(line, '\t');
		char *a = line, *b = tab ? tab + 1 : NULL;
		if (tab)
			*tab = '\0';
		uint64_t x = 0, y = 0;
		bool ok = b && rpb_parse_u64(b, &y) && y <= INT32_MAX;
		if (lineno == 1)
			ok = ok && strcmp(a, "BlockSize") == 0 && y > 0;
		else
			ok = ok && rpb_parse_u64(a, &x) && x <= o->nhist && o->nhist < YCSB_LENHIST_MAX;
		if (!ok) {
			snprintf(msg, n, "%s[ycsb] fieldlengthhistogram %s:%d: not %s; YCSB's file is "
				 "'BlockSize<TAB>N' then 'bucket<TAB>count' lines, buckets 0, 1, ... (at most "
				 "%d)", where, shown, lineno, lineno == 1 ? "'BlockSize<TAB>N'"
					   : "'bucket<TAB>count' of a bucket up to the next", YCSB_LENHIST_MAX);
			rc = -1;
		} else if (lineno == 1) {
			o->hist_block = y;
		} else {
			memmove(o->hist + x + 1, o->hist + x, (o->nhist - x) * sizeof *o->hist);
			o->hist[x] = y;
			o->nhist++;
			o->hist_area += y;
		}
	}
	fclose(f);
	if (!rc && lineno == 0) {
		snprintf(msg, n, "%s[ycsb] fieldlengthhistogram %s is empty; give YCSB's histogram file",
			 where, shown);
		rc = -1;
	}
	if (!rc && (o->hist_area == 0 || o->hist_area > INT32_MAX)) {
		snprintf(msg, n, "%s[ycsb] fieldlengthhistogram %s: its counts add up to %" PRIu64
			 "; they must add up to 1 .. 2^31 - 1", where, shown, o->hist_area);
		rc = -1;
	}
	return rc;
}

/* The longest field HistogramGenerator.nextValue returns: (i + 1) x
 * BlockSize for the buckets before the last, (buckets - 1) x BlockSize. */
static uint64_t histogram_max(const struct rpb_ycsb_opts *o)
{
	uint64_t best = o->nhist ? (uint64_t)(o->nhist - 1) * o->hist_block : 0;
	if (o->nhist >= 2 && (uint64_t)(o->nhist - 1) * o->hist_block > best)
		best = (uint64_t)(o->nhist - 1) * o->hist_block;
	return best;
}

int ycsb_resolve(struct rpb_ycsb_opts *o, const struct rpb_job *job, bool files, const char *where,
		 char *msg, size_t n)
{
	/* Measurements' constructor: one of its six, else it stops. */
	o->measurementtype = -1;
	for (int i = 0; ycsb_mtype_names[i]; i++)
		if (strcmp(o->mtype, ycsb_mtype_names[i]) == 0)
			o->measurementtype = i;
	if (o->measurementtype < 0) {
		char shown[RPB_SHOWN_SIZE];
		snprintf(msg, n, "%s[ycsb] measurementtype = %s is unknown (YCSB stops on it too); give "
			 "hdrhistogram, histogram, hdrhistogram+histogram, hdrhistogram+raw, timeseries "
			 "or raw", where, rpb_shown(shown, sizeof shown, o->mtype));
		return -1;
	}
	o->requestdistribution = -1;
	for (int i = 0; i < (int)(sizeof request_dists / sizeof request_dists[0]); i++)
		if (strcmp(o->requestdist, request_dists[i]) == 0)
			o->requestdistribution = i;
	if (o->requestdistribution < 0) {
		snprintf(msg, n, "%s[ycsb] requestdistribution = %s is unknown; give uniform, zipfian, "
			 "latest, hotspot, sequential or exponential", where, o->requestdist);
		return -1;
	}
	/* CoreWorkload: recordcount 0 is Integer.MAX_VALUE; insertcount, when
	 * not given, recordcount - insertstart, and recordcount must hold
	 * insertstart + insertcount. Client: a load inserts insertcount
	 * records when it is given, else recordcount. */
	uint64_t records = o->records = o->recordcount ? o->recordcount : YCSB_INT_MAX;
	if (o->insertcount && o->insertstart + o->insertcount > records) {
		snprintf(msg, n, "%s[ycsb] insertstart + insertcount = %" PRIu64 " is above recordcount "
			 "= %" PRIu64 " (YCSB: \"recordcount must be bigger than insertstart + "
			 "insertcount\"); raise recordcount", where, o->insertstart + o->insertcount,
			 records);
		return -1;
	}
	o->inserts = o->insertcount ? o->insertcount
		     : records > o->insertstart ? records - o->insertstart : 0;
	o->loadcount = o->insertcount ? o->insertcount : o->recordcount;
	if (o->phase == YCSB_RUN && !o->inserts) {
		snprintf(msg, n, "%s[ycsb] insertstart = %" PRIu64 " leaves no records of recordcount = %"
			 PRIu64 " to run on; lower insertstart or set insertcount", where,
			 o->insertstart, records);
		return -1;
	}
	double sum = 0;
	for (int i = 0; i < YCSB_NOPS; i++)
		sum += o->proportion[i] > 0 ? o->proportion[i] : 0;
	if (o->phase == YCSB_RUN && sum <= 0) {
		snprintf(msg, n, "%s[ycsb] every operation proportion is 0 (YCSB would do nothing); set "
			 "readproportion or another to a positive weight", where);
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
	o->maxfieldlength = o->fieldlength;
	if (o->fieldlengthdistribution == YCSB_LEN_HISTOGRAM) {
		if (files && (rpb_opt_path_absolute(o, "ycsb",
						    rpb_opt_find(ycsb_options, "fieldlengthhistogram"),
						    where, msg, n) != 0 ||
			      read_histogram(o, where, msg, n) != 0))
			return -1;
		/* verify has no file to read: a field may then be as long as a
		 * record allows. */
		o->maxfieldlength = files ? histogram_max(o) : RPB_VALUE_MAX;
	}
	if (o->requestdistribution == YCSB_HOTSPOT &&
	    (uint64_t)((double)o->inserts * o->hotspotdatafraction) == 0) {
		snprintf(msg, n, "%s[ycsb] hotspotdatafraction = %g leaves no hot record of %" PRIu64
			 "; raise it or recordcount", where, o->hotspotdatafraction, o->inserts);
		return -1;
	}
	if (files && (__int128)o->fieldcount * (1 + YCSB_NAME_MAX + 4 + (__int128)o->maxfieldlength) >
			     RPB_VALUE_MAX) {
		snprintf(msg, n, "%s[ycsb] fieldcount x fieldlength (%" PRIu64 " x %" PRIu64 ") is above "
			 "a value's 64 MiB; lower one of them", where, o->fieldcount, o->maxfieldlength);
		return -1;
	}
	bool no_end = o->phase == YCSB_RUN ? !o->operationcount : !o->loadcount;
	if (no_end && job->run.duration <= 0 && !job->run.ops) {
		snprintf(msg, n, "%s[ycsb] %s = 0 runs until a time limit, and none is set; set "
			 "maxexecutiontime (duration) or %s", where,
			 o->phase == YCSB_RUN ? "operationcount" : "recordcount",
			 o->phase == YCSB_RUN ? "operationcount" : "recordcount or insertcount");
		return -1;
	}
	if (strchr(o->exportfile, '/') || strchr(o->raw_file, '/') || !strcmp(o->exportfile, ".") ||
	    !strcmp(o->exportfile, "..") || !strcmp(o->raw_file, ".") || !strcmp(o->raw_file, "..")) {
		snprintf(msg, n, "%s[ycsb] %s names a path; rpbench writes only into its results "
			 "directory: give a file name (written there) and choose the directory with --out",
			 where, strchr(o->exportfile, '/') || !strcmp(o->exportfile, ".") ||
					!strcmp(o->exportfile, "..") ? "exportfile" : "measurement.raw.output_file");
		return -1;
	}
	if (*o->exportfile && *o->raw_file && !strcmp(o->exportfile, o->raw_file)) {
		snprintf(msg, n, "%s[ycsb] exportfile and measurement.raw.output_file name the same file; "
			 "give two names", where);
		return -1;
	}
	percentiles(o);
	exporter(o);
	/* latencytrackederrors: Status names, comma-separated. */
	memset(o->tracked_st, 0, sizeof o->tracked_st);
	char copy[256];
	snprintf(copy, sizeof copy, "%s", o->tracked);
	for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
		for (int st = 0; st < YS_COUNT; st++)
			if (strcmp(t, ycsb_status_names[st]) == 0)
				o->tracked_st[st] = true;
	o->threads = job->run.threads;
	return 0;
}

int ycsb_finish(void *config, const struct rpb_job *job, const char *where, char *msg, size_t n)
{
	return ycsb_resolve(config, job, true, where, msg, n);
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
	uint64_t total = o->phase == YCSB_LOAD ? o->loadcount : o->operationcount;
	return total ? share(total, threads, w) : UINT64_MAX;
}

uint64_t ycsb_thread_first(const struct rpb_ycsb_opts *o, unsigned w)
{
	uint64_t threads = o->threads ? o->threads : 1, first = o->insertstart;
	if (!o->loadcount) /* a load without end: each thread its own stretch */
		return first + (uint64_t)w * (RPB_OPT_P62 / threads);
	for (unsigned t = 0; t < w; t++)
		first += share(o->loadcount, threads, t);
	return first;
}
