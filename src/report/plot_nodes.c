/* Per-node bars next to the total (plot_nodes.h). The node names come from
 * result.json, untrusted: only letters, digits, '.', '-' and '_' reach the
 * data file, and none reaches the script. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gnuplot_text.h"
#include "plot_nodes.h"

#define MAX_NODE_BARS 64

static void tic_name(char *buf, size_t n, const char *host, long long rank)
{
	char safe[40];
	size_t k = 0;
	for (const char *s = host ? host : "?"; *s && k + 1 < sizeof safe; s++)
		safe[k++] = isalnum((unsigned char)*s) || strchr(".-_", *s) ? *s : '?';
	safe[k] = '\0';
	snprintf(buf, n, "%s/r%lld", safe, rank);
}

static double num(const json_t *o, const char *key)
{
	double v = json_number_value(json_object_get(o, key));
	return rpb_plot_fit(v) && v >= 0 ? v : 0;
}

int rpb_plot_nodes(const struct rpb_cmp *c, const char *dir, const char *where,
		   struct rpb_figure *figs, size_t *nfigs, char *msg, size_t n)
{
	char path[RPB_CMP_PATH + 64];
	snprintf(path, sizeof path, "%s/data/nodes.dat", dir);
	FILE *d = NULL;
	double x = 0;
	size_t runs = 0;
	for (size_t b = 0; b < c->nbackends; b++) {
		const struct rpb_cmp_backend *be = &c->backends[b];
		for (size_t k = 0; k < be->nruns; k++) {
			const struct rpb_cmp_run *r = &c->runs[be->runs[k]];
			const json_t *nodes = json_object_get(r->root, "nodes");
			if (!r->have_results || json_array_size(nodes) < 1)
				continue;
			if (!d && !(d = fopen(path, "w"))) {
				snprintf(msg, n, "cannot write %s; choose a writable --out", path);
				return -1;
			}
			/* Columns: x, ops/s, tic, 0 node / 1 total, the backend's style. */
			size_t i, shown = 0;
			const json_t *node;
			json_array_foreach(nodes, i, node) {
				if (shown == MAX_NODE_BARS)
					break;
				char tic[64];
				tic_name(tic, sizeof tic, json_string_value(json_object_get(node, "host")),
					 (long long)json_integer_value(json_object_get(node, "rank")));
				fprintf(d, "%g %.6g %s 0 %zu\n", x++,
					num(json_object_get(node, "totals"), "throughput_per_s"), tic, b + 1);
				shown++;
			}
			char tic[64];
			snprintf(tic, sizeof tic, "total/%zu", k + 1);
			fprintf(d, "%g %.6g %s 1 %zu\n", x, num(json_object_get(r->root, "totals"),
								"throughput_per_s"), tic, b + 1);
			x += 2;
			runs++;
		}
	}
	if (!runs)
		return 0;
	fclose(d);
	struct rpb_figure *f = &figs[(*nfigs)++];
	memset(f, 0, sizeof *f);
	snprintf(f->name, sizeof f->name, "nodes");
	snprintf(f->title, sizeof f->title, "Throughput per load node and in total: %s", where);
	snprintf(f->caption, sizeof f->caption,
		 "Each rank's ops/s (its own result.json, light bars) next to the run's total (dark "
		 "bar: every rank's measured samples over the longest rank's time, OUT/result.json), "
		 "in the backend's colour; %zu run(s) of several load nodes.", runs);
	struct rpb_plot_script sc;
	if (!rpb_plot_script_open(&sc, dir, c, f)) {
		snprintf(msg, n, "cannot write %s/figures/nodes.gp; choose a writable --out", dir);
		return -1;
	}
	fprintf(sc.f, "set style fill solid border lc rgb '#404040'\nset boxwidth 0.8\n"
		      "set yrange [0:*]\nset ylabel 'ops/s'\nset xtics rotate by -30 noenhanced\n"
		      "set key off\nset offsets 0.5, 0.5, graph 0.05, 0\n");
	for (size_t b = 0; b < c->nbackends; b++)
		fprintf(sc.f, "set style line %zu lc rgb '%s'\n", 50 + b + 1,
			rpb_plot_colour(c, c->backends[b].label));
	char q[600], plot[1600];
	rpb_gp_quote(q, sizeof q, "data/nodes.dat");
	/* Light bars for the nodes, full colour for the totals. */
	snprintf(plot, sizeof plot,
		 "plot %s using 1:($4 == 0 ? $2 : NaN):($5 + 50):xtic(3) with boxes lc variable "
		 "fs transparent solid 0.45, %s using 1:($4 == 1 ? $2 : NaN):($5 + 50) with boxes "
		 "lc variable fs solid 1.0",
		 q, q);
	fprintf(sc.f, "set linetype cycle 100\n");
	for (size_t b = 0; b < c->nbackends; b++)
		fprintf(sc.f, "set linetype %zu lc rgb '%s'\n", 50 + b + 1,
			rpb_plot_colour(c, c->backends[b].label));
	return rpb_plot_draw(dir, f, &sc, plot, 900, 500, msg, n);
}
