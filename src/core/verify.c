/* Shared by every pattern's verify. */
#include <stdarg.h>
#include <stdio.h>

#include "verify.h"

void rpb_verify_problem(struct rpb_verify_result *res, const char *fmt, ...)
{
	if (res->first_problem[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(res->first_problem, sizeof res->first_problem, fmt, ap);
	va_end(ap);
}

enum rpb_op_state rpb_ledger_op_state(const struct rpb_ledger_worker *lw, uint64_t op)
{
	if (op >= lw->issued)
		return RPB_OP_NOT_ISSUED;
	if (lw->in_flight && op == lw->issued - 1)
		return RPB_OP_IN_DOUBT;
	/* The failures are sorted by op: the first entry not below op. */
	size_t lo = 0, hi = lw->nfailures;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (lw->failures[mid].op < op)
			lo = mid + 1;
		else
			hi = mid;
	}
	bool failed = false, in_doubt = false;
	for (; lo < lw->nfailures && lw->failures[lo].op == op; lo++) {
		failed = true;
		in_doubt |= lw->failures[lo].in_doubt;
	}
	return in_doubt ? RPB_OP_IN_DOUBT : failed ? RPB_OP_FAILED : RPB_OP_ACKED;
}
