/* rpbench sweep's figure and page: OUT/sweep.gp drawn by gnuplot into
 * sweep.svg and sweep.png (throughput, the ideal line and p99 against
 * concurrency over the efficiency at each point), and OUT/index.html with
 * the figure, the table and a warning for points measured too briefly. */
#ifndef RPB_SWEEP_FIGURE_H
#define RPB_SWEEP_FIGURE_H

#include <stddef.h>

#include "sweep.h"

/* Points measured for less than this are noise: the warning names them. */
#define RPB_SWEEP_SHORT_S 1.0

/* A point that ran: the means over its repeats that wrote results. */
struct rpb_sweep_point {
	unsigned conc, threads, ranks, runs;
	double tput, ideal, eff, p99_us, elapsed_s;
};

/* Writes sweep.gp and runs gnuplot in OUT, then writes index.html; pts in
 * concurrency order. Returns -1 with one line in msg. */
int rpb_sweep_figure(const struct rpb_sweep_plan *p, const struct rpb_sweep_point *pts, size_t np,
		     char *msg, size_t n);

#endif
