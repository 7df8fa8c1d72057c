/* A comparison against a saved run of the same workload (compare
 * --baseline): the baseline read back, checked to be the same workload and
 * backend, and per column the change of every headline figure, its noise,
 * and the regression gates of --max-regress. baseline_gate.c parses the
 * gates, baseline_out.c writes the table, compare.json's "baseline", the
 * markdown summary and the JUnit file. */
#ifndef RPB_BASELINE_H
#define RPB_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare.h"

/* The figures compared, per label but for bytes (the run's). */
enum rpb_bl_key { RPB_BL_THROUGHPUT = 0, RPB_BL_P50, RPB_BL_P99, RPB_BL_P999, RPB_BL_BYTES,
		  RPB_BL_NKEYS };

struct rpb_bl_keydef {
	const char *gate;   /* the --max-regress key */
	const char *json;   /* result.json's member of a label ("" for bytes) */
	const char *title;  /* the table's words */
	const char *unit;
	bool higher_better;
	int decimals;       /* text rounding, as compare's table */
};
extern const struct rpb_bl_keydef rpb_bl_keys[RPB_BL_NKEYS];

#define RPB_BL_LABEL 65 /* result_check.h: a label is 1 to 64 bytes */
#define RPB_BL_MAX_GATES 64

/* One threshold: label "" gates the key of every label. */
struct rpb_bl_gate {
	char label[RPB_BL_LABEL];
	enum rpb_bl_key key;
	double pct;
};
struct rpb_bl_gates {
	struct rpb_bl_gate g[RPB_BL_MAX_GATES];
	size_t n;
};

/* Parses "throughput=5%,p99=10%,create.p99.9=20%" (keys throughput, p50,
 * p99, p99.9, bytes; a label before a dot but for bytes; the % optional).
 * -1 with one line in msg on a malformed list. */
int rpb_bl_parse_gates(const char *text, struct rpb_bl_gates *g, char *msg, size_t n);

/* Median, [min, max] and count of one figure over a column's runs. */
struct rpb_bl_side {
	bool have;
	unsigned n;
	double median, min, max;
};

enum rpb_bl_noise { RPB_BL_NOISE_UNKNOWN = 0, RPB_BL_NOISE_WITHIN, RPB_BL_NOISE_APART };

/* One figure of one column, baseline against now. */
struct rpb_bl_row {
	char column[96];
	char label[RPB_BL_LABEL]; /* "" for bytes */
	enum rpb_bl_key key;
	struct rpb_bl_side base, now;
	bool have_change;  /* both sides have it and the baseline is not 0 (or both are 0) */
	double change_pct; /* (now - base) / base x 100 */
	double worse_pct;  /* the change in the worse direction: -change for throughput */
	enum rpb_bl_noise noise;
	bool gated;
	double threshold_pct;
	bool regressed;    /* gated, worse by more than the threshold, not within noise */
};

struct rpb_baseline {
	char dir[RPB_CMP_PATH];
	bool from_compare; /* a compare directory (compare.json), else one run's */
	struct rpb_cmp cmp;
	struct rpb_bl_row *rows;
	size_t nrows, ngated, nregressed;
};

/* Reads DIR: a results directory of one run (DIR/result.json), or a
 * compare output directory (DIR/compare.json: its columns' runs, read from
 * their directories). -1 with one line in msg. */
int rpb_bl_load(struct rpb_baseline *b, const char *dir, bool (*backend_known)(const char *),
		char *msg, size_t n);

/* Whether the baseline may judge runs of this pattern and these backends,
 * before any run: -1 with one line naming what differs. backends may be
 * NULL (not known yet). */
int rpb_bl_precheck(const struct rpb_baseline *b, const char *pattern, const char *const *backends,
		    size_t nbackends, char *msg, size_t n);

/* Refuses a baseline of another workload (pattern or options) or without a
 * completed column of each compared column's backend, profile and sync;
 * then fills the rows and judges the gates (a label-specific gate of a label
 * no run has is refused). -1 with one line in msg. */
int rpb_bl_judge(struct rpb_baseline *b, const struct rpb_cmp *now, const struct rpb_bl_gates *g,
		 char *msg, size_t n);

void rpb_bl_free(struct rpb_baseline *b);

/* ---- baseline_out.c ---- */

/* The noise rule, in words (the table's legend, compare.json). */
extern const char rpb_bl_noise_rule[];

/* The table and its legend. */
void rpb_bl_print(const struct rpb_baseline *b, FILE *f);
/* One line on f per regression. */
void rpb_bl_print_regressions(const struct rpb_baseline *b, FILE *f);
/* Adds "baseline" to DIR/compare.json and a section to DIR/compare.md. */
int rpb_bl_add_to_compare(const struct rpb_baseline *b, const char *dir, char *msg, size_t n);
/* The markdown summary and the JUnit XML; each file must be new. */
int rpb_bl_write_summary(const struct rpb_baseline *b, const struct rpb_cmp *now,
			 const char *path, char *msg, size_t n);
int rpb_bl_write_junit(const struct rpb_baseline *b, const struct rpb_cmp *now, const char *path,
		       char *msg, size_t n);

#endif
