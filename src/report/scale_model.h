/* What rpbench scale plans and measures (scale.h): the plan, each size's
 * figures, the metrics, and the least-squares trends and projections
 * made of them (scale_model.c), shared by the runs (scale.c) and the
 * figures (scale_figure.c). */
#ifndef RPB_SCALE_MODEL_H
#define RPB_SCALE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rpb_servers;

#include <jansson.h>

#define RPB_SCALE_MAX_SIZES 16
#define RPB_SCALE_MAX_BACKENDS 16
/* The size every projection is made for, and the volume it is measured
 * against. */
#define RPB_SCALE_PROJECT_AT 1e7
#define RPB_SCALE_VOLUME_BYTES 70e9

struct rpb_scale_plan {
	const char *workload;
	const char *const *sets; /* --set KEY=VALUE for every run */
	size_t nsets;
	const char *const *backends;
	size_t nbackends;
	uint64_t sizes[RPB_SCALE_MAX_SIZES];
	size_t nsizes;
	uint64_t window;  /* creates of each measured window (all threads) */
	const char *window_text;
	uint64_t threads; /* the workload's, which divides window and sizes */
	const char *out;
	const struct rpb_servers *servers; /* each server backend's DSN (servers.h) */
	bool quiet;
	char bindir[4096];
};

/* Parses "1e3,1e4,100000" (each 1..2^62, increasing) into v; -1 with msg. */
int rpb_scale_sizes(const char *text, uint64_t *v, size_t *n, char *msg, size_t mn);

/* The trend of one metric: y = a + b * log10(objects), least squares. */
struct rpb_scale_fit {
	bool ok;          /* at least two points */
	double a, b;
	double rms;       /* root mean square of the residuals */
	double max_abs;   /* the largest residual, absolute */
};
/* Fits the points (x: objects, y) with y finite; resid[i] = y - fit. */
struct rpb_scale_fit rpb_scale_fit(const double *objects, const double *y, size_t n,
				   double *resid);
double rpb_scale_fit_at(const struct rpb_scale_fit *f, double objects);
/* Where bytes_per_object(N) * N first reaches volume (N above from), by
 * the fit of bytes per object; 0 when it never does below 10^15. */
double rpb_scale_fills_at(const struct rpb_scale_fit *bpo, double from, double volume);

/* The metrics of each size, in this order in rpb_scale_point.v. */
#define RPB_SCALE_NMETRICS 5
struct rpb_scale_metric {
	const char *key;   /* scale.json's name: "throughput_per_s", "p99_us", ... */
	const char *unit;  /* the table's and figure's: "creates/s", "p99 ms", ... */
	const char *title;
	double scale;      /* from the key's unit to the table's (us to ms) */
};
extern const struct rpb_scale_metric rpb_scale_metrics[RPB_SCALE_NMETRICS];

/* One size of a backend: its window run's figures (NAN: not there). */
struct rpb_scale_point {
	uint64_t objects;      /* the store's size when the window began */
	char run[96];          /* the window's results directory, under OUT */
	bool read;
	double v[RPB_SCALE_NMETRICS];
	double store_bytes, wal_bytes, objects_after; /* objects_after: at the window's end */
	json_t *gauges;        /* the window's backend_gauges, or NULL */
};

struct rpb_scale_backend {
	const char *name;
	struct rpb_scale_point pts[RPB_SCALE_MAX_SIZES];
	size_t npts;           /* the sizes measured, from the first */
	struct rpb_scale_fit fit[RPB_SCALE_NMETRICS];
	double resid[RPB_SCALE_NMETRICS][RPB_SCALE_MAX_SIZES];
};

/* At 10^7 objects, by the fits (NAN: no fit): throughput, p99, bytes;
 * fills: the objects at which the store reaches 70 GB (0: never). */
struct rpb_scale_projection {
	double tput, p99_us, bytes, fills;
};
struct rpb_scale_projection rpb_scale_project(const struct rpb_scale_backend *sb);

#endif
