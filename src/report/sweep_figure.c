/* rpbench sweep's figure and page (sweep_figure.h). Text enters the
 * script only through rpb_gp_quote, the page only through esc. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "figure.h"
#include "gnuplot_text.h"
#include "sweep_figure.h"

extern char **environ;

/* Ticks at the concurrencies swept, whole numbers (labelled or blank, for
 * the upper panel); a log2 axis when they span a factor of 8 or more
 * (1,2,4,...,64 spread evenly). Into buf. */
static void conc_axis(char *buf, size_t n, const struct rpb_sweep_point *pts, size_t np,
		      bool labelled)
{
	unsigned lo = pts[0].conc, hi = pts[np - 1].conc;
	size_t len;
	if (lo > 0 && hi >= 8 * lo)
		len = (size_t)snprintf(buf, n, "set logscale x 2\nset xrange [%g:%g]\nset xtics (",
				       lo / 1.3, hi * 1.3);
	else
		len = (size_t)snprintf(buf, n, "set xrange [%g:%g]\nset xtics (", lo - 0.5, hi + 0.5);
	for (size_t i = 0; i < np && len < n; i++) {
		char label[16] = "";
		if (labelled)
			snprintf(label, sizeof label, "%u", pts[i].conc);
		len += (size_t)snprintf(buf + len, n - len, "%s'%s' %u", i ? ", " : "", label, pts[i].conc);
	}
	if (len < n)
		snprintf(buf + len, n - len, ")\nset mxtics 1\n");
}

static int write_script(const struct rpb_sweep_plan *p, const struct rpb_sweep_point *pts, size_t np,
			char *msg, size_t n)
{
	char path[PATH_MAX], q[512], title[256], plot[6144];
	snprintf(path, sizeof path, "%s/sweep.gp", p->out);
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(msg, n, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	const char *colour = rpb_palette_colour(p->backend);
	snprintf(title, sizeof title, "%s on %s: throughput, p99 and efficiency against concurrency",
		 strrchr(p->workload, '/') ? strrchr(p->workload, '/') + 1 : p->workload, p->backend);
	fprintf(f, "# rpbench sweep's figure; run from the sweep's directory: gnuplot sweep.gp\n"
		   "set encoding utf8\nset datafile separator ','\nset grid lc rgb '#d0d0d0'\n"
		   "set tics nomirror\nset key inside left top vertical noenhanced box opaque\n"
		   "set lmargin 10\nset rmargin 10\n");
	char top[1024], bottom[1024];
	conc_axis(top, sizeof top, pts, np, false);
	conc_axis(bottom, sizeof bottom, pts, np, true);
	snprintf(plot, sizeof plot,
		 "set multiplot title %s noenhanced\n%s"
		 "set size 1,0.58\nset origin 0,0.38\nset tmargin 3\nset bmargin 0.5\nunset xlabel\n"
		 "set key inside left top\nset ylabel 'ops/s'\nset y2label 'p99, µs'\nset ytics nomirror\nset y2tics\n"
		 "set yrange [0:*]\nset y2range [0:*]\n"
		 "plot 'sweep-points.csv' skip 1 using 1:4 with linespoints lc rgb '%s' lw 2 pt 7 title 'throughput', \\\n"
		 "     '' skip 1 using 1:5 with lines lc rgb '%s' dt 2 title 'ideal (linear from the first point)', \\\n"
		 "     '' skip 1 using 1:7 axes x1y2 with linespoints lc rgb '#555555' dt 3 pt 5 title 'p99 (right axis)'\n"
		 "%sset size 1,0.38\nset origin 0,0\nset tmargin 0.5\nset bmargin 3.5\n"
		 "set xlabel 'total concurrency (threads × ranks)'\nunset y2label\nunset y2tics\n"
		 "set ylabel 'efficiency, %%'\nset yrange [0:*]\nset ytics autofreq\nset key inside right top\n"
		 "plot 'sweep-points.csv' skip 1 using 1:($6*100) with linespoints lc rgb '%s' lw 2 pt 7 "
		 "title 'efficiency: ops/s per unit of concurrency ÷ the first point’s', 100 with lines lc rgb '#909090' dt 3 title '100%%'\n"
		 "unset multiplot",
		 rpb_gp_quote(q, sizeof q, title), top, colour, colour, bottom, colour);
	fprintf(f, "set terminal svg size 960,640 dynamic font 'DejaVu Sans,12' noenhanced background '#ffffff'\n"
		   "set output 'sweep.svg'\n%s\n"
		   "set terminal pngcairo size 960,640 font 'DejaVu Sans,10' noenhanced background '#ffffff'\n"
		   "set output 'sweep.png'\n%s\nset output\n",
		plot, plot);
	bool bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		snprintf(msg, n, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int run_gnuplot(const struct rpb_sweep_plan *p, char *msg, size_t n)
{
	/* gnuplot runs in OUT, where the script names its files. */
	char log[PATH_MAX];
	snprintf(log, sizeof log, "%s/gnuplot.log", p->out);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addchdir_np(&fa, p->out);
	posix_spawn_file_actions_addopen(&fa, 2, "gnuplot.log", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	char *argv[] = {"gnuplot", "sweep.gp", NULL};
	pid_t pid;
	int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ), status = 0;
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		snprintf(msg, n, "cannot run gnuplot in %s: %s; install gnuplot-nox (scripts/deps.sh)",
			 p->out, strerror(rc));
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(msg, n, "gnuplot failed on %s/sweep.gp; see %s", p->out, log);
		return -1;
	}
	return 0;
}

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
}

static int write_page(const struct rpb_sweep_plan *p, const struct rpb_sweep_point *pts, size_t np,
		      char *msg, size_t n)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/index.html", p->out);
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(msg, n, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>rpbench sweep: ", f);
	esc(f, p->backend);
	fputs("</title>\n<style>body{font-family:'DejaVu Sans',Arial,sans-serif;margin:24px auto;"
	      "max-width:1000px;color:#222}img{max-width:100%;border:1px solid #ddd}"
	      "table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:3px 8px}"
	      "td{text-align:right}.warn{background:#fff3cd;border:1px solid #e0c060;padding:6px 10px}"
	      "</style>\n</head>\n<body>\n<h1>rpbench sweep: ", f);
	esc(f, strrchr(p->workload, '/') ? strrchr(p->workload, '/') + 1 : p->workload);
	fputs(" on ", f);
	esc(f, p->backend);
	fputs("</h1>\n<figure><img src=\"sweep.svg\" alt=\"throughput, p99 and efficiency against "
	      "concurrency\"><figcaption>Top: throughput (mean over the repeats), the ideal line "
	      "(linear from the first point) and p99 of the first label. Bottom: efficiency, the "
	      "throughput per unit of concurrency ÷ the first point's (with threads from 1, "
	      "throughput per thread relative to 1 thread). <a href=\"sweep.png\">PNG</a>, "
	      "<a href=\"sweep.gp\">gnuplot script</a>, <a href=\"sweep-points.csv\">data</a>."
	      "</figcaption></figure>\n",
	      f);
	size_t k = 0;
	for (size_t i = 0; i < np; i++) {
		if (pts[i].elapsed_s >= RPB_SWEEP_SHORT_S)
			continue;
		if (!k++)
			fprintf(f, "<p class=\"warn\">Points under %g s are noise: their throughput and "
				   "p99 come from too little measurement to compare. Measured under %g s: "
				   "concurrency ", RPB_SWEEP_SHORT_S, RPB_SWEEP_SHORT_S);
		fprintf(f, "%s%u (%.0f ms)", k > 1 ? ", " : "", pts[i].conc, 1000 * pts[i].elapsed_s);
	}
	if (k)
		fputs(". Give every point a longer run (--set duration=5 or more operations).</p>\n", f);
	fputs("<table>\n<tr><th>concurrency</th><th>threads</th><th>ranks</th><th>ops/s</th>"
	      "<th>ideal ops/s</th><th>efficiency</th><th>p99, µs</th><th>measured, s</th>"
	      "<th>runs</th></tr>\n", f);
	for (size_t i = 0; i < np; i++)
		fprintf(f, "<tr><td>%u</td><td>%u</td><td>%u</td><td>%.1f</td><td>%.1f</td><td>%.1f%%</td>"
			   "<td>%.1f</td><td>%.3f</td><td>%u</td></tr>\n",
			pts[i].conc, pts[i].threads, pts[i].ranks, pts[i].tput, pts[i].ideal,
			100 * pts[i].eff, pts[i].p99_us, pts[i].elapsed_s, pts[i].runs);
	fputs("</table>\n<p>Every run: <a href=\"sweep.csv\">sweep.csv</a>.</p>\n</body>\n</html>\n", f);
	bool bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		snprintf(msg, n, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int rpb_sweep_figure(const struct rpb_sweep_plan *p, const struct rpb_sweep_point *pts, size_t np,
		     char *msg, size_t n)
{
	if (!np)
		return 0;
	if (write_script(p, pts, np, msg, n) != 0 || run_gnuplot(p, msg, n) != 0)
		return -1;
	return write_page(p, pts, np, msg, n);
}
