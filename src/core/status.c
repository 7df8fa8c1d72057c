/* Status and table names, and the error record. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "store.h"

static const char *const status_names[RPB_STATUS_COUNT] = {
	[RPB_OK] = "ok",
	[RPB_NOT_FOUND] = "not-found",
	[RPB_EXISTS] = "exists",
	[RPB_DISK_FULL] = "disk-full",
	[RPB_TXN_TIMEOUT] = "txn-timeout",
	[RPB_CONFLICT] = "conflict",
	[RPB_CONN_LOST] = "conn-lost",
	[RPB_IO] = "io",
	[RPB_CORRUPT] = "corrupt",
	[RPB_INVALID] = "invalid",
	[RPB_NOMEM] = "nomem",
};

static const char *const table_names[RPB_TABLE_COUNT] = {
	[RPB_T_OBJECTS] = "objects",
	[RPB_T_DESCRIPTIONS] = "descriptions",
	[RPB_T_MEMBERS] = "members",
	[RPB_T_DATESTAMPS] = "datestamps",
	[RPB_T_SETS] = "sets",
	[RPB_T_NAMES] = "names",
	[RPB_T_INODES] = "inodes",
	[RPB_T_SNAPSHOTS] = "snapshots",
	[RPB_T_RAW] = "raw",
	[RPB_T_META] = "meta",
};

const char *rpb_status_name(enum rpb_status st)
{
	if ((unsigned)st >= RPB_STATUS_COUNT)
		return "unknown";
	return status_names[st];
}

enum rpb_status rpb_status_parse(const char *name)
{
	for (int i = 0; i < RPB_STATUS_COUNT; i++)
		if (strcmp(status_names[i], name) == 0)
			return (enum rpb_status)i;
	return RPB_STATUS_COUNT;
}

const char *rpb_table_name(enum rpb_table t)
{
	if ((unsigned)t >= RPB_TABLE_COUNT)
		return "unknown";
	return table_names[t];
}

/* Relaxed: a count for tests, bumped only where an error is formatted. */
static atomic_ulong formatted;

unsigned long rpb_err_formatted(void)
{
	return atomic_load_explicit(&formatted, memory_order_relaxed);
}

enum rpb_status rpb_err_set(struct rpb_err *err, enum rpb_status st, int native,
			    const char *sqlstate, const char *fmt, ...)
{
	atomic_fetch_add_explicit(&formatted, 1, memory_order_relaxed);
	if (!err)
		return st;
	err->status = st;
	err->native = native;
	err->user_input = false;
	snprintf(err->sqlstate, sizeof err->sqlstate, "%s", sqlstate ? sqlstate : "");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	/* Native messages often end in a newline; reports want one line. */
	size_t n = strlen(err->msg);
	while (n && (err->msg[n - 1] == '\n' || err->msg[n - 1] == '\r'))
		err->msg[--n] = '\0';
	for (char *p = err->msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	return st;
}

void rpb_err_clear(struct rpb_err *err)
{
	if (err)
		memset(err, 0, sizeof *err);
}

enum rpb_status rpb_err_usage(struct rpb_err *err, const char *fmt, ...)
{
	if (!err)
		return RPB_INVALID;
	char msg[sizeof err->msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	rpb_err_set(err, RPB_INVALID, 0, NULL, "%s", msg);
	err->user_input = true;
	return RPB_INVALID;
}
