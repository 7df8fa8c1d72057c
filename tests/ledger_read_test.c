/* The ledger read back from bytes (rpb_result_parse, rpb_live_ledger_parse):
 * both formats of failure entries (main operations and side steps, old
 * files without steps), and refusals of counts and entries no run of the
 * manifest can have, in the one message form. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ledger.h"
#include "results.h"

#define START_MS UINT64_C(1764560000000) /* 2025-12-01T03:33:20.000Z */

/* A result.json of an ingest run of 2 threads x ops 100, 1 s long, with
 * ledger (NULL: none, the run did not finish). */
static void result_text(char *buf, size_t n, const char *ledger)
{
	snprintf(buf, n,
		 "{\"manifest\": {\"backend\": \"sqlite\", \"run_tag\": \"0badc0de\", \"seed\": \"42\","
		 " \"options\": {\"pattern\": \"ingest\", \"run.threads\": \"2\", \"run.ops\": \"100\","
		 " \"ingest.probe_every\": \"10\"},"
		 " \"start\": \"2025-12-01T03:33:20.000Z\"%s},"
		 " \"stop\": {\"reason\": \"%s\"}%s%s}",
		 ledger ? ", \"end\": \"2025-12-01T03:33:21.000Z\"" : "",
		 ledger ? "completed" : "running", ledger ? ", \"ledger\": " : "", ledger ? ledger : "");
}

static int parse(struct rpb_result_file *rf, const char *ledger, char *msg, size_t n)
{
	char text[4096];
	result_text(text, sizeof text, ledger);
	return rpb_result_parse(rf, text, strlen(text), "r/result.json", START_MS + 5000, msg, n);
}

static void refused(const char *ledger, const char *want)
{
	struct rpb_result_file rf;
	char msg[1024] = "";
	cr_assert_neq(parse(&rf, ledger, msg, sizeof msg), 0, "accepted: %s", ledger);
	cr_assert(strstr(msg, want), "refusal of %s\n  is: %s\n  lacks: %s", ledger, msg, want);
	cr_assert(strstr(msg, "; give the results directory of an rpbench run"), "%s", msg);
	rpb_result_free(&rf);
}

Test(ledger_read, result_json_both_entry_forms)
{
	struct rpb_result_file rf;
	char msg[1024] = "";
	int rc = parse(&rf,
		       "{\"run_tag\": \"0badc0de\", \"workers\": ["
		       "{\"issued\": 100, \"acked\": 98, \"failures\": [[3, \"disk-full\", true], [7, \"io\", false]]},"
		       "{\"issued\": 50, \"acked\": 50, \"failures\": [],"
		       " \"step_failures\": [[9, \"exists\", false, \"probe-head\"], [9, \"exists\", false, \"probe-delete\"]]}]}",
		       msg, sizeof msg);
	cr_assert_eq(rc, 0, "%s", msg);
	const struct rpb_ledger *l = &rf.ledger;
	cr_assert_eq(l->nworkers, 2);
	cr_assert_not(l->interrupted);
	cr_assert_eq(l->workers[0].issued, 100);
	cr_assert_eq(l->workers[0].nfailures, 2);
	cr_assert_eq(l->workers[0].failures[0].op, 3);
	cr_assert(l->workers[0].failures[0].in_doubt);
	cr_assert_eq(l->workers[0].failures[1].status, RPB_IO);
	cr_assert_eq(l->workers[0].nsteps, 0, "a file without step_failures has none");
	cr_assert_eq(l->workers[1].nsteps, 2);
	cr_assert_eq(l->workers[1].steps[1].op, 9);
	cr_assert_str_eq(rf.job.pattern->labels[l->workers[1].steps[1].label], "probe-delete");
	rpb_result_free(&rf);
}

Test(ledger_read, result_json_refusals)
{
	const char *w1 = "{\"issued\": 10, \"acked\": 10, \"failures\": []}";
	char l[1024];
#define LEDGER(w0) (snprintf(l, sizeof l, "{\"workers\": [%s, %s]}", w0, w1), l)
	refused(LEDGER("{\"issued\": 101, \"failures\": []}"),
		"r/result.json: damaged ledger: ledger.workers[0].issued = 101 is impossible for this run (run.ops = 100 per thread)");
	refused(LEDGER("{\"issued\": -1, \"failures\": []}"), "ledger.workers[0].issued = -1 is impossible");
	refused(LEDGER("{\"issued\": \"10\", \"failures\": []}"), "ledger.workers[0].issued = (not a count)");
	refused(LEDGER("{\"issued\": 10, \"acked\": 9, \"failures\": []}"),
		"ledger.workers[0].acked = 9 is impossible for this run (issued less the failures listed)");
	refused(LEDGER("{\"issued\": 10, \"failures\": [[10, \"io\", false]]}"),
		"ledger.workers[0].failures[0] op = 10 is impossible for this run (the worker started 10 operations)");
	refused(LEDGER("{\"issued\": 10, \"failures\": [[4, \"io\", false], [4, \"io\", false]]}"),
		"ledger.workers[0].failures[1] op = 4 is impossible for this run (listed after op 4");
	refused(LEDGER("{\"issued\": 10, \"failures\": [[4, \"ok\", false]]}"),
		"ledger.workers[0].failures[0] class = ok is impossible for this run (not an error class)");
	refused(LEDGER("{\"issued\": 10, \"failures\": [[4, \"io\"]]}"), "failures[0] = (another shape)");
	refused(LEDGER("{\"issued\": 10, \"failures\": [], \"step_failures\": [[4, \"io\", false, \"create\"]]}"),
		"step_failures[0] step = create is impossible for this run (not a side step of the pattern)");
	refused(LEDGER("{\"issued\": 10, \"failures\": [], \"step_failures\": [[4, \"io\", false, \"\\u001b[2J\"]]}"),
		"step_failures[0] step = (unprintable text)");
	refused(LEDGER("{\"issued\": 10, \"failures\": [], \"step_failures\": "
		       "[[4, \"io\", false, \"probe-get\"], [4, \"io\", false, \"probe-head\"]]}"),
		"step_failures[1] op = 4 is impossible for this run (listed after op 4");
	refused("{\"workers\": [{\"issued\": 1, \"failures\": []}]}",
		"ledger.workers = 1 is impossible for this run (run.threads = 2 and 0 more of the ingest pattern)");
	refused("{\"run_tag\": \"deadbeef\", \"workers\": []}", "the ledger's run_tag is not the manifest's");
#undef LEDGER
}

Test(ledger_read, result_json_time_bounds_an_unlimited_run)
{
	char text[4096];
	result_text(text, sizeof text,
		    "{\"workers\": [{\"issued\": 200000001, \"failures\": []}, {\"issued\": 1, \"failures\": []}]}");
	/* ops = 0 (no limit): a run of 1 s (+ 1 s of slack) issues at most 2e8. */
	char *ops = strstr(text, "\"run.ops\": \"100\"");
	cr_assert_not_null(ops);
	memcpy(ops, "\"run.ops\": \"0\"  ", 16);
	struct rpb_result_file rf;
	char msg[1024] = "";
	cr_assert_neq(rpb_result_parse(&rf, text, strlen(text), "r/result.json", START_MS + 5000, msg,
				       sizeof msg), 0);
	cr_assert(strstr(msg, "ledger.workers[0].issued = 200000001 is impossible for this run (over "
			      "100000 operations per ms of the run's 1000 ms from manifest.start to end)"),
		  "%s", msg);
	rpb_result_free(&rf);
}

/* ---- the live ledger ---- */

/* The file-system instance the tests' ledgers were written on. */
static const struct rpb_fs_instance here = {.boot_id = {7, 7, 7}, .mount_id = 42};

/* ledger.bin of nworkers slots with counts (per worker: started, finished,
 * and, with stride 4, failures and durable), written on instance fi, its
 * durable point at durable_log bytes of failures.log. */
static void slots4(unsigned char *bin, const uint64_t *counts, unsigned stride, unsigned nworkers,
		   const struct rpb_fs_instance *fi, uint64_t durable_log)
{
	struct rpb_ledger_header h = {.nworkers = nworkers, .slot_size = sizeof(struct rpb_ledger_slot),
				      .durable_log = durable_log, .mount_id = fi->mount_id};
	memcpy(h.magic, RPB_LEDGER_MAGIC, sizeof h.magic);
	memcpy(h.boot_id, fi->boot_id, sizeof h.boot_id);
	memset(bin, 0, rpb_ledger_size(nworkers));
	memcpy(bin, &h, sizeof h);
	for (unsigned w = 0; w < nworkers; w++)
		memcpy(bin + sizeof h + w * sizeof(struct rpb_ledger_slot), counts + stride * w,
		       stride * sizeof *counts);
}

static void slots(unsigned char *bin, const uint64_t *counts, unsigned nworkers)
{
	slots4(bin, counts, 2, nworkers, &here, 0);
}

/* Read on the instance it was written on: the page cache's view, exact. */
static int live(struct rpb_result_file *rf, const uint64_t *counts, unsigned nworkers,
		const char *log, char *msg, size_t n)
{
	unsigned char bin[1024];
	int rc = parse(rf, NULL, msg, n);
	cr_assert_eq(rc, 0, "%s", msg);
	cr_assert(rf->ledger.interrupted);
	rf->here = here;
	slots(bin, counts, nworkers);
	return rpb_live_ledger_parse(rf, bin, rpb_ledger_size(nworkers), log, strlen(log), "r", msg, n);
}

/* Read after a power cut: on another instance (a crash image mounted), so
 * as it reached the disk. counts: started, finished, failures, durable. */
static int after_power_cut(struct rpb_result_file *rf, const uint64_t *counts, const char *log,
			   size_t loglen, uint64_t durable_log, char *msg, size_t n)
{
	unsigned char bin[1024];
	int rc = parse(rf, NULL, msg, n);
	cr_assert_eq(rc, 0, "%s", msg);
	rf->here = here;
	rf->here.mount_id = 43;
	slots4(bin, counts, 4, 2, &here, durable_log);
	return rpb_live_ledger_parse(rf, bin, rpb_ledger_size(2), log, loglen, "r", msg, n);
}

Test(ledger_read, stale_ledger_whole_tail_trusted)
{
	struct rpb_result_file rf;
	char msg[1024] = "";
	const uint64_t counts[] = {40, 39, 2, 10, 20, 20, 0, 20};
	const char *log = "0 4 io 0\n0 30 io 1\n";
	cr_assert_eq(after_power_cut(&rf, counts, log, strlen(log), 9, msg, sizeof msg), 0, "%s", msg);
	const struct rpb_ledger_worker *w = rf.ledger.workers;
	cr_assert(rf.ledger.stale && w[0].stale);
	cr_assert_eq(w[0].trusted, 40, "its lines are whole and as many as its slot counts");
	cr_assert_eq(w[1].trusted, 20);
	cr_assert_null(rf.ledger.torn);
	cr_assert_eq(rpb_ledger_op_state(&w[0], 30), RPB_OP_IN_DOUBT);
	cr_assert_eq(rpb_ledger_op_state(&w[0], 39), RPB_OP_IN_DOUBT, "running at the cut");
	cr_assert_eq(rpb_ledger_op_state(&w[0], 38), RPB_OP_ACKED);
	cr_assert_eq(rpb_ledger_op_state(&w[0], 40), RPB_OP_UNPROVABLE,
		     "the store may hold operations the ledger on disk does not record");
	rpb_result_free(&rf);
	/* The same ledger on the instance it was written on: exact. */
	cr_assert_eq(parse(&rf, NULL, msg, sizeof msg), 0);
	rf.here = here;
	unsigned char bin[1024];
	slots4(bin, counts, 4, 2, &here, 9);
	cr_assert_eq(rpb_live_ledger_parse(&rf, bin, rpb_ledger_size(2), log, strlen(log), "r", msg,
					   sizeof msg), 0, "%s", msg);
	cr_assert_not(rf.ledger.stale);
	cr_assert_eq(rpb_ledger_op_state(&rf.ledger.workers[0], 40), RPB_OP_NOT_ISSUED);
	rpb_result_free(&rf);
}

Test(ledger_read, stale_ledger_lost_lines_trust_the_durable_point)
{
	struct rpb_result_file rf;
	char msg[1024] = "";
	/* The slot counts 3 lines of worker 0; 2 reached the disk. */
	const uint64_t counts[] = {40, 40, 3, 10, 20, 20, 0, 20};
	const char *log = "0 4 io 0\n0 30 io 0\n";
	cr_assert_eq(after_power_cut(&rf, counts, log, strlen(log), 9, msg, sizeof msg), 0, "%s", msg);
	const struct rpb_ledger_worker *w = rf.ledger.workers;
	cr_assert_eq(w[0].trusted, 10);
	cr_assert_eq(w[1].trusted, 20, "worker 1's lines are whole");
	cr_assert_str_eq(rf.ledger.torn, "failures.log lacks lines its slots count");
	cr_assert_eq(rpb_ledger_op_state(&w[0], 4), RPB_OP_FAILED, "before the durable point");
	cr_assert_eq(rpb_ledger_op_state(&w[0], 10), RPB_OP_UNPROVABLE);
	rpb_result_free(&rf);
}

Test(ledger_read, stale_ledger_zero_tail_and_lines_ahead)
{
	struct rpb_result_file rf;
	char msg[1024] = "";
	/* Past the durable length (9 bytes): a line, then a page never written. */
	const uint64_t counts[] = {40, 40, 2, 10, 20, 20, 0, 20};
	const char log[] = "0 4 io 0\n0 30 io 0\n0 3\0\0\0\0\0";
	cr_assert_eq(after_power_cut(&rf, counts, log, sizeof log - 1, 9, msg, sizeof msg), 0, "%s", msg);
	cr_assert_str_eq(rf.ledger.torn, "failures.log ends in bytes that never reached the disk");
	cr_assert_eq(rf.ledger.workers[0].nfailures, 2);
	cr_assert_eq(rf.ledger.workers[0].trusted, 10);
	cr_assert_eq(rf.ledger.workers[1].trusted, 20, "a torn log leaves every worker its durable point");
	rpb_result_free(&rf);
	/* A line for an operation the slot on disk has not started: the log
	 * reached the disk after the slot. Left out, not damage. */
	const uint64_t behind[] = {40, 40, 1, 10, 20, 20, 0, 20};
	const char *ahead = "0 4 io 0\n0 45 io 0\n";
	cr_assert_eq(after_power_cut(&rf, behind, ahead, strlen(ahead), 9, msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(rf.ledger.workers[0].nfailures, 1);
	cr_assert_eq(rf.ledger.workers[0].trusted, 10);
	cr_assert_str_eq(rf.ledger.torn, "failures.log reached the disk after ledger.bin");
	rpb_result_free(&rf);
	/* What no power cut explains stays damage: a line beyond run.ops,
	 * zero bytes inside the durable length, garbage in the tail. */
	static const struct {
		const char *log;
		size_t len, durable;
		const char *want;
	} bad[] = {
		{"0 4 io 0\n0 100 io 0\n", 20, 9, "line 2: damaged ledger: failure op = 100 is impossible"},
		{"0 4\0\0\0\0\0\n", 10, 10, "line 1: damaged ledger: not a failure line"},
		{"0 4 io 0\n\x01zz\n", 13, 9, "line 2: damaged ledger: not a failure line"},
		{"0 4 io 0\n", 9, 20, "durable_log = 20 is impossible for this run (its failures.log holds 9 bytes)"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cr_assert_neq(after_power_cut(&rf, behind, bad[i].log, bad[i].len, bad[i].durable, msg,
					      sizeof msg), 0, "accepted case %zu", i);
		cr_assert(strstr(msg, bad[i].want), "case %zu: %s\n  lacks: %s", i, msg, bad[i].want);
		rpb_result_free(&rf);
	}
}

Test(ledger_read, never_written_files_are_explained)
{
	struct rpb_result_file rf;
	char msg[1024] = "";
	unsigned char zeros[rpb_ledger_size(2)];
	memset(zeros, 0, sizeof zeros);
	cr_assert_eq(parse(&rf, NULL, msg, sizeof msg), 0);
	cr_assert_neq(rpb_live_ledger_parse(&rf, zeros, sizeof zeros, "", 0, "r", msg, sizeof msg), 0);
	cr_assert(rf.lost);
	cr_assert(strstr(msg, "r/ledger.bin holds only zero bytes (192): the live ledger never reached "
			      "the disk"), "%s", msg);
	rpb_result_free(&rf);
	cr_assert(rpb_never_written("", 0));
	cr_assert(rpb_never_written("\0\0", 2));
	cr_assert_not(rpb_never_written("\0{", 2));
	rpb_lost_file(msg, sizeof msg, "r/result.json", 0, "the run's result.json");
	cr_assert_str_eq(msg, "r/result.json is empty (0 bytes): the run's result.json never reached "
			      "the disk (the machine or its file system lost power, or crashed, before "
			      "the run synced it), so nothing of this run can be checked; give the "
			      "results directory of an rpbench run");
}

static void live_refused(const uint64_t *counts, unsigned nworkers, const char *log, const char *want)
{
	struct rpb_result_file rf;
	char msg[1024] = "";
	cr_assert_neq(live(&rf, counts, nworkers, log, msg, sizeof msg), 0, "accepted: %s", log);
	cr_assert(strstr(msg, want), "refusal of %s\n  is: %s\n  lacks: %s", log, msg, want);
	rpb_result_free(&rf);
}

Test(ledger_read, live_both_line_forms)
{
	struct rpb_result_file rf;
	char msg[1024] = "";
	const uint64_t counts[] = {40, 39, 20, 20};
	int rc = live(&rf, counts, 2,
		      "1 4 io 0\n0 9 exists 0 probe-delete\n0 12 disk-full 1\n1 9 io 0 probe-head\n"
		      "0 39 conflict 1\n",
		      msg, sizeof msg);
	cr_assert_eq(rc, 0, "%s", msg);
	const struct rpb_ledger_worker *w = rf.ledger.workers;
	cr_assert_eq(w[0].issued, 40);
	cr_assert(w[0].in_flight);
	cr_assert_not(w[1].in_flight);
	cr_assert_eq(w[0].nfailures, 2);
	cr_assert_eq(w[0].failures[0].op, 12);
	cr_assert_eq(w[0].failures[1].op, 39, "the op it died in may have failed before");
	cr_assert_eq(w[0].nsteps, 1);
	cr_assert_eq(w[0].steps[0].label, 5);
	cr_assert_eq(w[1].nfailures, 1);
	cr_assert_eq(w[1].failures[0].op, 4);
	cr_assert_eq(w[1].nsteps, 1);
	rpb_result_free(&rf);
}

Test(ledger_read, live_refusals)
{
	const uint64_t ok[] = {20, 20, 20, 20}, three[] = {20, 20, 20, 20, 20, 20};
	live_refused(three, 3, "", "r/ledger.bin: damaged ledger: workers = 3 is impossible for this run");
	const uint64_t over[] = {101, 101, 20, 20};
	live_refused(over, 2, "", "r/ledger.bin: damaged ledger: slot 0 started = 101 is impossible for this run (run.ops = 100 per thread)");
	const uint64_t ahead[] = {20, 21, 20, 20};
	live_refused(ahead, 2, "", "slot 0 finished = 21 is impossible for this run (it started 20;");
	const uint64_t behind[] = {20, 18, 20, 20};
	live_refused(behind, 2, "", "slot 0 finished = 18 is impossible");
	static const struct {
		const char *log, *want;
	} logs[] = {
		{"0 3 io 0", "r/failures.log line 1: damaged ledger: not a failure line"},
		{"0 3 io 0\n\x01\x02garbage\n", "r/failures.log line 2: damaged ledger: not a failure line"},
		{"0 03 io 0\n", "line 1: damaged ledger: not a failure line"},
		{"0 99999999999999999999 io 0\n", "line 1: damaged ledger: not a failure line"},
		{"0  3 io 0\n", "line 1: damaged ledger: not a failure line"},
		{"2 3 io 0\n", "line 1: damaged ledger: thread = 2 is impossible"},
		{"0 20 io 0\n", "line 1: damaged ledger: failure op = 20 is impossible for this run "
				"(the worker started 20 operations)"},
		{"0 5 io 0\n1 2 io 0\n0 4 io 0\n", "line 3: damaged ledger: failure op = 4 is impossible"},
		{"0 5 nope 0\n", "class = nope is impossible for this run (not an error class)"},
		{"0 5 io 2\n", "in_doubt = 2 is impossible for this run (0 or 1)"},
		{"0 5 io 0 probe-nothing\n", "step = probe-nothing is impossible"},
	};
	for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++)
		live_refused(ok, 2, logs[i].log, logs[i].want);
	/* Short or foreign files. */
	struct rpb_result_file rf;
	char msg[1024];
	cr_assert_eq(parse(&rf, NULL, msg, sizeof msg), 0);
	cr_assert_neq(rpb_live_ledger_parse(&rf, "RPBLEDG2", 8, "", 0, "r", msg, sizeof msg), 0);
	cr_assert(strstr(msg, "r/ledger.bin: damaged ledger: shorter than its header"), "%s", msg);
	rpb_result_free(&rf);
	unsigned char bin[1024];
	slots(bin, ok, 2);
	cr_assert_eq(parse(&rf, NULL, msg, sizeof msg), 0);
	rf.here = here;
	cr_assert_neq(rpb_live_ledger_parse(&rf, bin, rpb_ledger_size(2) - 1, "", 0, "r", msg, sizeof msg), 0);
	cr_assert(strstr(msg, "r/ledger.bin: damaged ledger: size = "), "%s", msg);
	rpb_result_free(&rf);
}

Test(ledger_read, manifest_refusals)
{
	struct rpb_result_file rf;
	char msg[1024];
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"[]", "r/result.json: malformed JSON"},
		{"{\"manifest\": {}}", "manifest.backend is not a backend name"},
		{"{\"manifest\": {\"backend\": \"sqlite\", \"run_tag\": \"0BADC0DE\"}}", "manifest.run_tag is not a run tag"},
		{"{\"manifest\": {\"backend\": \"sqlite\", \"run_tag\": \"0badc0de\", \"start\": \"yesterday\"}}",
		 "manifest.start is not a time rpbench writes"},
		{"{\"manifest\": {\"backend\": \"sqlite\", \"run_tag\": \"0badc0de\", \"start\": "
		 "\"2025-12-01T03:33:20.000Z\", \"end\": \"2025-12-01T03:33:19.000Z\"}}",
		 "manifest.end is not a time after manifest.start"},
		{"{\"manifest\": {\"backend\": \"sqlite\", \"run_tag\": \"0badc0de\", \"start\": "
		 "\"2025-12-01T03:33:20.000Z\"}, \"stop\": {\"reason\": \"bored\"}}",
		 "stop.reason is none that rpbench writes"},
		{"{\"manifest\": {\"backend\": \"sqlite\", \"run_tag\": \"0badc0de\", \"start\": "
		 "\"2025-12-01T03:33:20.000Z\", \"store\": {\"dir\": 7}}, \"stop\": {\"reason\": \"running\"}}",
		 "manifest.store holds a value that is not text"},
		{"{\"manifest\": {\"backend\": \"sqlite\", \"run_tag\": \"0badc0de\", \"start\": "
		 "\"2025-12-01T03:33:20.000Z\", \"options\": {\"run.threads\": \"2\"}}, \"stop\": {\"reason\": \"running\"}}",
		 "manifest.options names no pattern"},
		{"{\"a\": 1, \"a\": 2}", "malformed JSON"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cr_assert_neq(rpb_result_parse(&rf, cases[i].text, strlen(cases[i].text), "r/result.json",
					       START_MS, msg, sizeof msg), 0, "accepted %s", cases[i].text);
		cr_assert(strstr(msg, cases[i].want), "%s\n  is: %s\n  lacks: %s", cases[i].text, msg,
			  cases[i].want);
		rpb_result_free(&rf);
	}
}
