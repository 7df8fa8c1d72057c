/* The [metadata] section: tachyon-perf Connect's knobs, and the rules that
 * resolve the workspace and node defaults. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "metadata.h"
#include "shown.h"

#define MD(f) offsetof(struct rpb_metadata_opts, f)

const struct rpb_optdef metadata_options[] = {
	{ .key = "workspace", .type = RPB_OPT_STRING, .dflt = "",
	  .umax = RPB_MD_WORKSPACE_MAX, .off = MD(workspace),
	  .help = "absolute path prefix of the workspaces (letters, digits, . _ -); "
		  "empty = " RPB_MD_WORKSPACE_DEFAULT " as in tachyon-perf" },
	{ .key = "node", .type = RPB_OPT_STRING, .dflt = "",
	  .umax = RPB_MD_NODE_MAX, .off = MD(node),
	  .help = "node name in paths and the report; empty = this host's name (node0 "
		  "if it has none usable)" },
	{ .key = "preload", .type = RPB_OPT_COUNT, .dflt = "0",
	  .umin = 0, .umax = 10000000, .off = MD(preload),
	  .help = "entries created beside each thread's target before the timed loop" },
	{ .key = "inject_failure_at", .type = RPB_OPT_COUNT, .dflt = "0",
	  .umin = 0, .umax = RPB_OPT_P62, .off = MD(inject_failure_at),
	  .help = "test aid: thread 0's Nth operation fails with an injected io error; 0 = never" },
	{ .key = "trace", .type = RPB_OPT_BOOL, .dflt = "off",
	  .off = MD(trace), .help = "write trace.csv: op, thread, client, operation, path" },
	{ .key = NULL },
};

/* Path components and node names: portable file-name characters only, so
 * paths need no quoting in keys, trace.csv or the report. */
static bool md_name_ok(const char *s, size_t len)
{
	if (len == 0 || (len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.'))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", s[i]))
			return false;
	return true;
}

/* Resolves the empty defaults (workspace, node from the host name) and
 * checks the syntax of both. */
int metadata_finish(void *config, const struct rpb_job *job, const char *where, char *msg,
		  size_t n)
{
	(void)job;
	struct rpb_metadata_opts *m = config;
	if (!m->workspace[0])
		snprintf(m->workspace, sizeof m->workspace, "%s", RPB_MD_WORKSPACE_DEFAULT);
	if (!m->node[0]) {
		char host[256] = "";
		if (gethostname(host, sizeof host - 1) != 0)
			host[0] = '\0';
		host[strcspn(host, ".")] = '\0'; /* the short name, as tachyon-perf shows it */
		size_t len = strlen(host);
		if (len <= RPB_MD_NODE_MAX && md_name_ok(host, len))
			memcpy(m->node, host, len + 1);
		else
			snprintf(m->node, sizeof m->node, "node0");
	}
	char shown[RPB_SHOWN_SIZE];
	if (!md_name_ok(m->node, strlen(m->node))) {
		snprintf(msg, n, "%s[metadata] node = %s is invalid; give a name of letters, digits, "
			 "'.', '_' or '-'", where, rpb_shown(shown, sizeof shown, m->node));
		return -1;
	}
	const char *p = m->workspace;
	bool ok = *p == '/' && p[1];
	while (ok && *p == '/') {
		size_t len = strcspn(p + 1, "/");
		ok = md_name_ok(p + 1, len);
		p += 1 + len;
	}
	if (!ok || *p) {
		snprintf(msg, n, "%s[metadata] workspace = %s is invalid; give an absolute path like "
			 RPB_MD_WORKSPACE_DEFAULT " whose parts are letters, digits, '.', '_' or '-'",
			 where, rpb_shown(shown, sizeof shown, m->workspace));
		return -1;
	}
	return 0;
}
