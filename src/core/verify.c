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
