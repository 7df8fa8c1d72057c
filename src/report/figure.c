/* A figure's gnuplot script and its drawing (figure.h). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "figure.h"
#include "gnuplot_text.h"

extern char **environ;

/* Colour-blind-safe (Okabe and Ito), one per backend in every figure
 * rpbench draws (compare, report, sweep; bench/fedora-scale.sh writes the
 * same, checked by a test): a known backend has its own, any other backend
 * one of the rest chosen by its name, so it is the same in every report.
 * A backend's columns at other profiles and syncs differ in dash and point
 * type (rpb_plot_variant), never in colour. */
static const struct {
	const char *backend, *colour;
} fixed_colours[] = {
	{"leveldb", "#0072b2"}, {"sqlite", "#e69f00"}, {"postgres", "#009e73"}, {"null", "#7f7f7f"},
};
static const char *const spare_colours[] = {"#cc79a7", "#d55e00", "#56b4e9", "#000000",
					    "#882255", "#44aa99", "#999933", "#aa4499"};

const char *rpb_palette_colour(const char *backend)
{
	for (size_t i = 0; i < sizeof fixed_colours / sizeof fixed_colours[0]; i++)
		if (!strcmp(fixed_colours[i].backend, backend))
			return fixed_colours[i].colour;
	uint32_t h = 2166136261u; /* FNV-1a: the name alone picks it */
	for (const char *p = backend; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	return spare_colours[h % (sizeof spare_colours / sizeof spare_colours[0])];
}

/* The column of label column, or of backend name column (its first). */
static size_t column_index(const struct rpb_cmp *c, const char *column)
{
	for (size_t i = 0; i < c->nbackends; i++)
		if (!strcmp(c->backends[i].label, column))
			return i;
	for (size_t i = 0; i < c->nbackends; i++)
		if (!strcmp(c->backends[i].name, column))
			return i;
	return c->nbackends;
}

const char *rpb_plot_colour(const struct rpb_cmp *c, const char *column)
{
	size_t i = column_index(c, column);
	return rpb_palette_colour(i < c->nbackends ? c->backends[i].name : column);
}

unsigned rpb_plot_variant(const struct rpb_cmp *c, size_t b)
{
	unsigned k = 0;
	for (size_t j = 0; j < b && j < c->nbackends; j++)
		k += !strcmp(c->backends[j].name, c->backends[b].name);
	return k;
}

/* The 1-2-5 step at or below v (up) or at or above it. */
static double step125(double v, bool up)
{
	double decade = pow(10, floor(log10(v)));
	static const double m[] = {1, 2, 5, 10};
	if (up) {
		for (size_t i = 0; i < 4; i++)
			if (m[i] * decade >= v * (1 - 1e-12))
				return m[i] * decade;
	}
	for (size_t i = 4; i-- > 0;)
		if (m[i] * decade <= v * (1 + 1e-12))
			return m[i] * decade;
	return decade;
}

int rpb_plot_log_y(char *buf, size_t n, double lo, double hi)
{
	static const char *const suffix[] = {"", "k", "M", "G"};
	size_t len = (size_t)snprintf(buf, n, "set ytics (");
	for (int e = -2; e <= 10; e++)
		for (int m = 1; m <= 5 && len < n; m += m == 1 ? 1 : 3) { /* 1, 2, 5 */
			double v = m * pow(10, e);
			int g = e < 0 ? 0 : e / 3;
			len += (size_t)snprintf(buf + len, n - len, "%s'%g%s' %g",
						e == -2 && m == 1 ? "" : ", ", v / pow(1000, g),
						suffix[g], v);
		}
	if (len < n)
		len += (size_t)snprintf(buf + len, n - len, ")\nset mytics 1\n");
	/* From the step below the data to the step above, with a margin: at
	 * least two labelled tics, and no point on the frame. */
	if (len < n && lo > 0 && hi >= lo && isfinite(hi))
		len += (size_t)snprintf(buf + len, n - len, "set yrange [%g:%g]\n",
					step125(lo / 1.1, false), step125(hi * 1.1, true));
	return (int)len;
}

void rpb_plot_log_y_file(FILE *f, double lo, double hi)
{
	char buf[1024];
	rpb_plot_log_y(buf, sizeof buf, lo, hi);
	fputs(buf, f);
}

int rpb_plot_end_mark(char *buf, size_t n, int tag, double x, unsigned row, bool right,
		      const char *colour, const char *mark)
{
	char q[300];
	return snprintf(buf, n,
			"set arrow %d from %.9g, graph 0 to %.9g, graph 1 nohead lc rgb '%s' dt 2 lw 2 front\n"
			"set label %d %s at %.9g, graph 1 %s offset %s,%.1f tc rgb '%s' front\n",
			tag, x, x, colour, tag, rpb_gp_quote(q, sizeof q, mark), x,
			right ? "right" : "left", right ? "-0.5" : "0.5", 0.8 + 1.3 * row, colour);
}

void rpb_plot_end_margin(FILE *f, unsigned rows)
{
	fprintf(f, "set tmargin %.1f\nset title offset 0,%.1f\n", 2.5 + 1.3 * rows, 1.3 * rows);
}

bool rpb_plot_script_open(struct rpb_plot_script *sc, const char *dir, const struct rpb_cmp *c,
			  const struct rpb_figure *fig)
{
	snprintf(sc->path, sizeof sc->path, "%s/figures/%s.gp", dir, fig->name);
	if (!(sc->f = fopen(sc->path, "w")))
		return false;
	/* The title goes into the script only as a quoted string (below). */
	fprintf(sc->f, "# figure %s, drawn by rpbench report; run from the report directory:\n"
		       "#   gnuplot figures/%s.gp\n"
		       "set encoding utf8\nset datafile commentschars '#'\n"
		       "set grid lc rgb '#d0d0d0'\nset border lc rgb '#404040'\n"
		       "set key outside right top vertical noenhanced\nset tics nomirror\n"
		       "# a little room past the data, so no point sits on the frame (a log\n"
		       "# axis has its range from rpb_plot_log_y)\n"
		       "set autoscale fix\nset offsets 0, graph 0.02, graph 0.05, 0\n",
		fig->name, fig->name);
	/* A backend's colour; its further columns (profiles, syncs) dashed
	 * and with other points. */
	static const int pts[] = {7, 5, 9, 11, 13};
	for (size_t b = 0; b < c->nbackends; b++) {
		unsigned v = rpb_plot_variant(c, b);
		fprintf(sc->f, "set style line %zu lc rgb '%s' lw 2 dt %u pt %d ps 0.7\n", b + 1,
			rpb_plot_colour(c, c->backends[b].label), v % 5 + 1, pts[v % 5]);
	}
	char q[1100];
	fprintf(sc->f, "set title %s noenhanced\n", rpb_gp_quote(q, sizeof q, fig->title));
	return true;
}

/* The plot commands go into a macro so both terminals draw the same thing. */
static void script_finish(struct rpb_plot_script *sc, const struct rpb_figure *fig, const char *plot,
			  int width, int height)
{
	fprintf(sc->f,
		"set terminal svg size %d,%d font 'DejaVu Sans,13' noenhanced background '#ffffff'\n"
		"set output 'figures/%s.svg'\n%s\n"
		"set terminal pngcairo size %d,%d font 'DejaVu Sans,11' noenhanced background '#ffffff'\n"
		"set output 'figures/%s.png'\n%s\nset output\n",
		width, height, fig->name, plot, width, height, fig->name, plot);
}

/* Runs gnuplot on the script from the report directory; its messages go to
 * figures/gnuplot.log. */
static int run_gnuplot(const char *dir, const struct rpb_figure *fig, char *msg, size_t n)
{
	char script[96], log[RPB_CMP_PATH + 64];
	snprintf(script, sizeof script, "figures/%s.gp", fig->name);
	snprintf(log, sizeof log, "%s/figures/gnuplot.log", dir);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	/* In order: the log path is relative to our directory, so open it
	 * before changing into dir (which may itself be relative). */
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	posix_spawn_file_actions_addchdir_np(&fa, dir);
	char *argv[] = {"gnuplot", script, NULL};
	pid_t pid;
	int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		snprintf(msg, n, "cannot run gnuplot: %s; install gnuplot-nox (scripts/deps.sh)",
			 strerror(rc));
		return -1;
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(msg, n, "waiting for gnuplot: %s", strerror(errno));
			return -1;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		snprintf(msg, n, "gnuplot not found; install gnuplot-nox (scripts/deps.sh)");
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(msg, n, "gnuplot failed on %s/%s; see %s", dir, script, log);
		return -1;
	}
	return 0;
}

int rpb_plot_draw(const char *dir, struct rpb_figure *fig, struct rpb_plot_script *sc,
		  const char *plot, int width, int height, char *msg, size_t n)
{
	script_finish(sc, fig, plot, width, height);
	if (fclose(sc->f) != 0) {
		snprintf(msg, n, "cannot write %s: %s", sc->path, strerror(errno));
		return -1;
	}
	if (run_gnuplot(dir, fig, msg, n) != 0)
		return -1;
	fig->made = true;
	return 0;
}
