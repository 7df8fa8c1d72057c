/* Shared by every pattern's verify. */
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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
	if (lw->stale && op >= lw->trusted)
		return RPB_OP_UNPROVABLE;
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

/* Short printable ASCII is shown; anything else (control bytes, text a
 * terminal would act on) only described. */
static const char *shown(const char *v)
{
	size_t len = strlen(v);
	for (size_t i = 0; i < len; i++)
		if (v[i] < ' ' || v[i] > '~')
			return "(unprintable text)";
	return len <= 64 ? v : "(text too long)";
}

int rpb_ledger_damaged(char *msg, size_t n, const char *where, const char *field,
		       const char *value, const char *why)
{
	snprintf(msg, n,
		 "%s: damaged ledger: %s = %s is impossible for this run%s%s%s; give the results "
		 "directory of an rpbench run",
		 where, field, shown(value), why ? " (" : "", why ? why : "", why ? ")" : "");
	return -1;
}

enum rpb_status rpb_verify_damaged(struct rpb_verify_result *res, struct rpb_err *err,
				   const char *field, uint64_t value, const char *why)
{
	res->damaged = true;
	return rpb_err_set(err, RPB_INVALID, 0, NULL,
			   "damaged ledger: %s = %" PRIu64 " is impossible for this run (%s)", field,
			   value, why);
}

enum rpb_status rpb_verify_file_damaged(struct rpb_verify_result *res, struct rpb_err *err,
					const char *file, const char *fmt, ...)
{
	char why[sizeof err->msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	res->damaged = true;
	res->damaged_in = file;
	return rpb_err_set(err, RPB_INVALID, 0, NULL, "damaged ledger: %s", why);
}
