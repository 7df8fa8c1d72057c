/* --max-regress: the thresholds a comparison with a baseline may not
 * exceed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "shown.h"

/* The key at the end of s ("p99", "create.p99.9"): the longest key that
 * is the whole of s or follows a dot; its label before that dot. */
static int split_key(const char *s, size_t len, char *label, enum rpb_bl_key *key)
{
	int found = -1;
	size_t best = 0;
	for (int k = 0; k < RPB_BL_NKEYS; k++) {
		size_t kl = strlen(rpb_bl_keys[k].gate);
		if (kl > len || memcmp(s + len - kl, rpb_bl_keys[k].gate, kl) != 0)
			continue;
		if (kl < len && s[len - kl - 1] != '.')
			continue;
		if (kl > best)
			best = kl, found = k;
	}
	if (found < 0)
		return -1;
	size_t ll = best < len ? len - best - 1 : 0;
	if (ll >= RPB_BL_LABEL || (best < len && ll == 0))
		return -1;
	memcpy(label, s, ll);
	label[ll] = '\0';
	*key = (enum rpb_bl_key)found;
	return 0;
}

int rpb_bl_parse_gates(const char *text, struct rpb_bl_gates *g, char *msg, size_t n)
{
	char shown[RPB_SHOWN_SIZE];
	memset(g, 0, sizeof *g);
	const char *p = text;
	if (!*p) {
		snprintf(msg, n, "--max-regress needs KEY=PERCENT items, e.g. throughput=5%%,p99=10%%");
		return -1;
	}
	for (;;) {
		size_t len = strcspn(p, ",");
		char item[256];
		if (len >= sizeof item || len == 0) {
			snprintf(msg, n, "--max-regress has an %s item; give KEY=PERCENT items separated by commas, e.g. throughput=5%%,p99=10%%",
				 len ? "overlong" : "empty");
			return -1;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		char *eq = strchr(item, '=');
		struct rpb_bl_gate gate;
		memset(&gate, 0, sizeof gate);
		if (!eq || split_key(item, (size_t)(eq - item), gate.label, &gate.key) != 0) {
			snprintf(msg, n, "--max-regress item '%s' is not KEY=PERCENT with KEY throughput, p50, p99, p99.9 or bytes (or LABEL.KEY, e.g. create.p99=10%%)",
				 rpb_shown(shown, sizeof shown, item));
			return -1;
		}
		if (gate.key == RPB_BL_BYTES && gate.label[0]) {
			snprintf(msg, n, "--max-regress item '%s': bytes (on disk per object) are the run's, not a label's; give bytes=PERCENT",
				 rpb_shown(shown, sizeof shown, item));
			return -1;
		}
		char *end;
		double v = strtod(eq + 1, &end);
		if (*end == '%')
			end++;
		if (end == eq + 1 || *end || !isfinite(v) || v < 0 || v > 1e6) {
			snprintf(msg, n, "--max-regress item '%s': the threshold is not a percentage from 0 to 1000000, e.g. 5%%",
				 rpb_shown(shown, sizeof shown, item));
			return -1;
		}
		gate.pct = v;
		for (size_t i = 0; i < g->n; i++)
			if (g->g[i].key == gate.key && !strcmp(g->g[i].label, gate.label)) {
				snprintf(msg, n, "--max-regress names %.*s twice; give each key once",
					 (int)(eq - item), item);
				return -1;
			}
		if (g->n == RPB_BL_MAX_GATES) {
			snprintf(msg, n, "--max-regress has more than %d items", RPB_BL_MAX_GATES);
			return -1;
		}
		g->g[g->n++] = gate;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}
