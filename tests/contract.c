/* The contract every backend must keep, written once and instantiated per
 * backend name, so the log names each backend (e.g. "sqlite::scan_bounds").
 * Only the interface is used: the same assertions hold for every store. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

static rpb_slice S(const char *s)
{
	return rpb_slice_make(s, strlen(s));
}

static enum rpb_status get_str(struct rpbt_store *s, struct rpb_session *ss, enum rpb_table t,
			       const char *key, struct rpb_buf *out)
{
	struct rpb_err err = {0};
	return s->b->get(ss, t, S(key), out, &err);
}

static void expect_value(struct rpbt_store *s, struct rpb_session *ss, enum rpb_table t,
			 const char *key, const char *want)
{
	struct rpb_buf out = {0};
	struct rpb_err err = {0};
	enum rpb_status st = s->b->get(ss, t, S(key), &out, &err);
	cr_assert_eq(st, RPB_OK, "%s get %s: %s (%s)", s->b->name, key, err.msg, rpb_status_name(st));
	cr_assert_eq(out.len, strlen(want), "%s get %s: length %zu, want %zu", s->b->name, key,
		     out.len, strlen(want));
	cr_assert(memcmp(out.data, want, out.len) == 0, "%s get %s: wrong bytes", s->b->name, key);
	rpb_buf_free(&out);
}

static void expect_absent(struct rpbt_store *s, struct rpb_session *ss, enum rpb_table t,
			  const char *key)
{
	struct rpb_buf out = {0};
	enum rpb_status st = get_str(s, ss, t, key, &out);
	cr_assert_eq(st, RPB_NOT_FOUND, "%s get %s: want not-found, got %s", s->b->name, key,
		     rpb_status_name(st));
	rpb_buf_free(&out);
}

/* Collects scanned keys as "k1,k2,..." (printable keys only). */
struct collect {
	char keys[4096];
	size_t n;
	size_t stop_after;
};

static int collect_fn(void *ctx, rpb_slice key, rpb_slice val)
{
	(void)val;
	struct collect *c = ctx;
	size_t used = strlen(c->keys);
	snprintf(c->keys + used, sizeof c->keys - used, "%s%.*s", c->n ? "," : "", (int)key.len,
		 (const char *)key.data);
	c->n++;
	return c->stop_after && c->n >= c->stop_after;
}

static const char *scan_keys(struct rpbt_store *s, struct rpb_session *ss, enum rpb_table t,
			     const char *after, const char *upto, size_t limit, struct collect *c)
{
	memset(c, 0, sizeof *c);
	rpb_slice a = after ? S(after) : (rpb_slice){0}, u = upto ? S(upto) : (rpb_slice){0};
	struct rpb_err err = {0};
	enum rpb_status st = s->b->scan(ss, t, after ? &a : NULL, upto ? &u : NULL, limit,
					collect_fn, c, &err);
	cr_assert_eq(st, RPB_OK, "%s scan: %s", s->b->name, err.msg);
	return c->keys;
}

/* ---- lifecycle (every backend, null included) ---- */

static void t_lifecycle(const char *backend)
{
	struct rpbt_store s;
	rpbt_open(&s, backend);
	struct rpb_session *a = rpbt_session(&s), *b = rpbt_session(&s);
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	rpbt_put(&s, a, RPB_T_OBJECTS, "k", "v");
	rpbt_commit(&s, a);
	rpbt_begin(&s, b, RPB_TXN_READ);
	rpbt_commit(&s, b);
	cr_assert_str_neq(s.b->version(), "", "version string");
	s.b->session_close(a);
	s.b->session_close(b);
	s.b->session_close(NULL);
	rpbt_close(&s);
	s.b->close(NULL);
}

static void t_outside_txn(const char *backend)
{
	struct rpbt_store s;
	rpbt_open(&s, backend);
	struct rpb_session *a = rpbt_session(&s);
	struct rpb_err err = {0};
	cr_assert_eq(s.b->put(a, RPB_T_OBJECTS, S("k"), S("v"), &err), RPB_INVALID,
		     "%s put outside a transaction", backend);
	cr_assert_str_neq(err.msg, "", "the error record carries a message");
	s.b->rollback(a); /* no-op without a transaction */
	s.b->session_close(a);
	rpbt_close(&s);
}

static void t_interrupt_idle(const char *backend)
{
	/* An interrupt with no open transaction must not poison the next one. */
	struct rpbt_store s;
	rpbt_open(&s, backend);
	struct rpb_session *a = rpbt_session(&s);
	s.b->interrupt(a);
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	rpbt_put(&s, a, RPB_T_OBJECTS, "k", "v");
	rpbt_commit(&s, a);
	s.b->session_close(a);
	rpbt_close(&s);
}

/* A miss is an answer: 1,000 gets and 500 dels of absent keys, in a read
 * and in a write transaction, and a get of a key the transaction deleted,
 * format no error, and each still leaves a message a caller can print. */
static void t_misses_format_nothing(const char *backend)
{
	struct rpbt_store s;
	rpbt_open(&s, backend);
	struct rpb_session *a = rpbt_session(&s);
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	rpbt_put(&s, a, RPB_T_RAW, "present", "v");
	rpbt_commit(&s, a);
	struct rpb_buf out = {0};
	struct rpb_err err = {0};
	char key[32];
	unsigned long before = rpb_err_formatted();
	for (int txn = 0; txn < 2; txn++) {
		rpbt_begin(&s, a, txn ? RPB_TXN_WRITE : RPB_TXN_READ);
		for (int i = 0; i < 500; i++) {
			snprintf(key, sizeof key, "absent-%d", i);
			memset(&err, 0, sizeof err);
			enum rpb_status st = s.b->get(a, RPB_T_RAW, S(key), &out, &err);
			cr_assert_eq(st, RPB_NOT_FOUND, "%s get %s: %s", backend, key, rpb_status_name(st));
			cr_assert_eq(err.status, RPB_NOT_FOUND, "%s: the miss is marked in err", backend);
			cr_assert_str_neq(err.msg, "", "%s: a miss still has a message to print", backend);
			if (txn) {
				st = s.b->del(a, RPB_T_RAW, S(key), &err);
				cr_assert_eq(st, RPB_NOT_FOUND, "%s del %s: %s", backend, key,
					     rpb_status_name(st));
			}
		}
		if (txn) { /* a key deleted in the transaction itself */
			cr_assert_eq(s.b->del(a, RPB_T_RAW, S("present"), &err),
				     s.b->flags & RPB_BF_STORES_NOTHING ? RPB_NOT_FOUND : RPB_OK,
				     "%s del present: %s", backend, err.msg);
			cr_assert_eq(s.b->get(a, RPB_T_RAW, S("present"), &out, &err), RPB_NOT_FOUND,
				     "%s get of a key deleted in the transaction", backend);
		}
		rpbt_commit(&s, a);
	}
	cr_assert_eq(rpb_err_formatted() - before, 0, "%s: %lu errors formatted for 1,000 misses",
		     backend, rpb_err_formatted() - before);
	rpb_buf_free(&out);
	s.b->session_close(a);
	rpbt_close(&s);
}

/* ---- data contract (real backends) ---- */

/* Unused when only the null backend is built. */
#define DATA_TEST static __attribute__((unused))

DATA_TEST void t_put_get_del(const char *backend)
{
	struct rpbt_store s;
	rpbt_open(&s, backend);
	struct rpb_session *a = rpbt_session(&s);
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	rpbt_put(&s, a, RPB_T_OBJECTS, "alpha", "one");
	rpbt_put(&s, a, RPB_T_OBJECTS, "beta", "two");
	rpbt_commit(&s, a);

	rpbt_begin(&s, a, RPB_TXN_WRITE);
	expect_value(&s, a, RPB_T_OBJECTS, "alpha", "one");
	expect_value(&s, a, RPB_T_OBJECTS, "beta", "two");
	expect_absent(&s, a, RPB_T_OBJECTS, "gamma");
	struct rpb_err err = {0};
	cr_assert_eq(s.b->del(a, RPB_T_OBJECTS, S("alpha"), &err), RPB_OK, "del: %s", err.msg);
	cr_assert_eq(s.b->del(a, RPB_T_OBJECTS, S("nothing"), &err), RPB_NOT_FOUND,
		     "del of an absent key");
	rpbt_commit(&s, a);

	rpbt_begin(&s, a, RPB_TXN_READ);
	expect_absent(&s, a, RPB_T_OBJECTS, "alpha");
	expect_value(&s, a, RPB_T_OBJECTS, "beta", "two");
	rpbt_commit(&s, a);
	s.b->session_close(a);
	rpbt_close(&s);
}

DATA_TEST void t_overwrite_and_empty(const char *backend)
{
	struct rpbt_store s;
	rpbt_open(&s, backend);
	struct rpb_session *a = rpbt_session(&s);
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	rpbt_put(&s, a, RPB_T_OBJECTS, "k", "first value, long");
	rpbt_put(&s, a, RPB_T_OBJECTS, "e", "");
	rpbt_commit(&s, a);
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	rpbt_put(&s, a, RPB_T_OBJECTS, "k", "2nd");
	rpbt_commit(&s, a);
	rpbt_begin(&s, a, RPB_TXN_READ);
	expect_value(&s, a, RPB_T_OBJECTS, "k", "2nd");
	/* An empty value exists and is distinct from an absent key. */
	struct rpb_buf out = {0};
	rpb_buf_set(&out, "junk", 4, NULL);
	cr_assert_eq(get_str(&s, a, RPB_T_OBJECTS, "e", &out), RPB_OK, "empty value is found");
	cr_assert_eq(out.len, 0, "empty value has length 0, got %zu", out.len);
	rpb_buf_free(&out);
	rpbt_commit(&s, a);
	s.b->session_close(a);
	rpbt_close(&s);
}

DATA_TEST void t_large_value(const char *backend)
{
	struct rpbt_store s;
	rpbt_open(&s, backend);
	struct rpb_session *a = rpbt_session(&s);
	size_t n = 16u << 20;
	unsigned char *big = malloc(n);
	cr_assert_not_null(big);
	uint64_t x = 0x9E3779B97F4A7C15ull;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		big[i] = (unsigned char)x;
	}
	struct rpb_err err = {0};
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	cr_assert_eq(s.b->put(a, RPB_T_OBJECTS, S("big"), rpb_slice_make(big, n), &err), RPB_OK,
		     "put 16 MiB: %s", err.msg);
	rpbt_commit(&s, a);
	rpbt_begin(&s, a, RPB_TXN_READ);
	struct rpb_buf out = {0};
	cr_assert_eq(s.b->get(a, RPB_T_OBJECTS, S("big"), &out, &err), RPB_OK, "get: %s", err.msg);
	cr_assert_eq(out.len, n);
	cr_assert(memcmp(out.data, big, n) == 0, "16 MiB value comes back byte for byte");
	rpbt_commit(&s, a);
	rpb_buf_free(&out);
	free(big);
	s.b->session_close(a);
	rpbt_close(&s);
}

static int count_fn(void *ctx, rpb_slice key, rpb_slice val)
{
	(void)key, (void)val;
	++*(size_t *)ctx;
	return 0;
}

/* Records the one-byte values of scanned entries, in scan order. */
struct order {
	unsigned char v[8];
	size_t n;
};

static int order_fn(void *ctx, rpb_slice key, rpb_slice val)
{
	(void)key;
	struct order *o = ctx;
	if (o->n < 8 && val.len == 1)
		o->v[o->n] = *(const unsigned char *)val.data;
	o->n++;
	return 0;
}

DATA_TEST void t_binary_keys(const char *backend)
{
	struct rpbt_store s;
	rpbt_open(&s, backend);
	struct rpb_session *a = rpbt_session(&s);
	const unsigned char k1[] = {0x00}, k2[] = {0x00, 0x00}, k3[] = {0x01, 0x00, 0xFF},
			    k4[] = {0xFF}, k5[] = {0xFF, 0xFF, 0x00};
	const struct {
		const unsigned char *p;
		size_t n;
	} keys[] = {{k4, 1}, {k2, 2}, {k5, 3}, {k1, 1}, {k3, 3}};
	struct rpb_err err = {0};
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	for (size_t i = 0; i < 5; i++) {
		unsigned char v = (unsigned char)i;
		cr_assert_eq(s.b->put(a, RPB_T_RAW, rpb_slice_make(keys[i].p, keys[i].n),
				      rpb_slice_make(&v, 1), &err), RPB_OK, "put: %s", err.msg);
	}
	rpbt_commit(&s, a);

	/* memcmp order, shorter first: 00, 00 00, 01 00 FF, FF, FF FF 00 */
	const size_t want_order[] = {3, 1, 4, 0, 2};
	struct order got = {0};
	rpbt_begin(&s, a, RPB_TXN_READ);
	cr_assert_eq(s.b->scan(a, RPB_T_RAW, NULL, NULL, 0, order_fn, &got, &err), RPB_OK,
		     "scan: %s", err.msg);
	cr_assert_eq(got.n, 5, "%s: scan saw %zu keys", backend, got.n);
	for (size_t i = 0; i < 5; i++)
		cr_assert_eq(got.v[i], want_order[i], "%s: key %zu out of order", backend, i);
	for (size_t i = 0; i < 5; i++) {
		struct rpb_buf out = {0};
		cr_assert_eq(s.b->get(a, RPB_T_RAW, rpb_slice_make(keys[i].p, keys[i].n), &out, &err),
			     RPB_OK, "get binary key %zu", i);
		cr_assert_eq(out.len, 1);
		cr_assert_eq(out.data[0], i);
		rpb_buf_free(&out);
	}
	rpbt_commit(&s, a);
	s.b->session_close(a);
	rpbt_close(&s);
}

DATA_TEST void t_scan_bounds(const char *backend)
{
	struct rpbt_store s;
	rpbt_open(&s, backend);
	struct rpb_session *a = rpbt_session(&s);
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	const char *keys[] = {"b", "a", "ab", "abc", "abd", "b0", "c"};
	for (size_t i = 0; i < 7; i++)
		rpbt_put(&s, a, RPB_T_NAMES, keys[i], "x");
	rpbt_put(&s, a, RPB_T_INODES, "aa", "other table");
	rpbt_commit(&s, a);

	struct collect c;
	rpbt_begin(&s, a, RPB_TXN_READ);
	cr_assert_str_eq(scan_keys(&s, a, RPB_T_NAMES, NULL, NULL, 0, &c), "a,ab,abc,abd,b,b0,c");
	cr_assert_str_eq(scan_keys(&s, a, RPB_T_NAMES, "a", NULL, 0, &c), "ab,abc,abd,b,b0,c",
			 "lower bound is exclusive");
	cr_assert_str_eq(scan_keys(&s, a, RPB_T_NAMES, "ab", "b", 0, &c), "abc,abd,b",
			 "upper bound is inclusive; prefixes sort first");
	cr_assert_str_eq(scan_keys(&s, a, RPB_T_NAMES, NULL, "abc", 0, &c), "a,ab,abc");
	cr_assert_str_eq(scan_keys(&s, a, RPB_T_NAMES, "a", NULL, 3, &c), "ab,abc,abd", "limit");
	cr_assert_str_eq(scan_keys(&s, a, RPB_T_NAMES, "aa", "ab", 0, &c), "ab",
			 "bounds that are not keys");
	cr_assert_str_eq(scan_keys(&s, a, RPB_T_NAMES, "c", NULL, 0, &c), "", "past the end");
	cr_assert_str_eq(scan_keys(&s, a, RPB_T_NAMES, "b", "a", 0, &c), "", "empty range");
	memset(&c, 0, sizeof c);
	c.stop_after = 2;
	struct rpb_err err = {0};
	cr_assert_eq(s.b->scan(a, RPB_T_NAMES, NULL, NULL, 0, collect_fn, &c, &err), RPB_OK);
	cr_assert_str_eq(c.keys, "a,ab", "the callback stops the scan");
	rpbt_commit(&s, a);
	s.b->session_close(a);
	rpbt_close(&s);
}

DATA_TEST void t_many_keys_scan(const char *backend)
{
	/* More keys than any internal fetch chunk, so paging inside scan is seen. */
	struct rpbt_store s;
	rpbt_open(&s, backend);
	struct rpb_session *a = rpbt_session(&s);
	char key[32];
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	for (int i = 0; i < 5000; i++) {
		snprintf(key, sizeof key, "k%06d", i);
		rpbt_put(&s, a, RPB_T_DATESTAMPS, key, "");
	}
	rpbt_commit(&s, a);
	rpbt_begin(&s, a, RPB_TXN_READ);
	size_t n = 0;
	struct rpb_err err = {0};
	cr_assert_eq(s.b->scan(a, RPB_T_DATESTAMPS, NULL, NULL, 0, count_fn, &n, &err), RPB_OK);
	cr_assert_eq(n, 5000, "%s: full scan saw %zu of 5000", backend, n);
	n = 0;
	rpb_slice lo = S("k000999"), hi = S("k004000");
	cr_assert_eq(s.b->scan(a, RPB_T_DATESTAMPS, &lo, &hi, 0, count_fn, &n, &err), RPB_OK);
	cr_assert_eq(n, 3001, "%s: range scan saw %zu of 3001", backend, n);
	n = 0;
	cr_assert_eq(s.b->scan(a, RPB_T_DATESTAMPS, &lo, NULL, 2500, count_fn, &n, &err), RPB_OK);
	cr_assert_eq(n, 2500, "%s: limited scan saw %zu of 2500", backend, n);
	rpbt_commit(&s, a);
	s.b->session_close(a);
	rpbt_close(&s);
}

DATA_TEST void t_visibility_and_rollback(const char *backend)
{
	struct rpbt_store s;
	rpbt_open(&s, backend);
	struct rpb_session *a = rpbt_session(&s), *b = rpbt_session(&s);
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	rpbt_put(&s, a, RPB_T_OBJECTS, "staged", "v");
	rpbt_begin(&s, b, RPB_TXN_READ);
	expect_absent(&s, b, RPB_T_OBJECTS, "staged"); /* not visible before commit */
	rpbt_commit(&s, b);
	rpbt_commit(&s, a);
	rpbt_begin(&s, b, RPB_TXN_READ);
	expect_value(&s, b, RPB_T_OBJECTS, "staged", "v"); /* visible after commit */
	rpbt_commit(&s, b);

	rpbt_begin(&s, a, RPB_TXN_WRITE);
	rpbt_put(&s, a, RPB_T_OBJECTS, "dropped", "v");
	rpbt_put(&s, a, RPB_T_OBJECTS, "staged", "changed");
	struct rpb_err err = {0};
	cr_assert_eq(s.b->del(a, RPB_T_OBJECTS, S("staged"), &err), RPB_OK);
	s.b->rollback(a);
	rpbt_begin(&s, b, RPB_TXN_READ);
	expect_absent(&s, b, RPB_T_OBJECTS, "dropped");
	expect_value(&s, b, RPB_T_OBJECTS, "staged", "v");
	rpbt_commit(&s, b);
	s.b->session_close(a);
	s.b->session_close(b);
	rpbt_close(&s);
}

DATA_TEST void t_read_your_writes(const char *backend)
{
	struct rpbt_store s;
	rpbt_open(&s, backend);
	struct rpb_session *a = rpbt_session(&s);
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	rpbt_put(&s, a, RPB_T_MEMBERS, "c/1", "");
	rpbt_put(&s, a, RPB_T_MEMBERS, "c/3", "");
	rpbt_commit(&s, a);

	rpbt_begin(&s, a, RPB_TXN_WRITE);
	rpbt_put(&s, a, RPB_T_MEMBERS, "c/2", "new");
	rpbt_put(&s, a, RPB_T_MEMBERS, "c/1", "updated");
	struct rpb_err err = {0};
	cr_assert_eq(s.b->del(a, RPB_T_MEMBERS, S("c/3"), &err), RPB_OK);
	expect_value(&s, a, RPB_T_MEMBERS, "c/2", "new");
	expect_value(&s, a, RPB_T_MEMBERS, "c/1", "updated");
	expect_absent(&s, a, RPB_T_MEMBERS, "c/3");
	cr_assert_eq(s.b->del(a, RPB_T_MEMBERS, S("c/3"), &err), RPB_NOT_FOUND,
		     "a key deleted in this transaction is gone");
	struct collect c;
	cr_assert_str_eq(scan_keys(&s, a, RPB_T_MEMBERS, "c/", "c/~", 0, &c), "c/1,c/2",
			 "scan merges staged writes and deletes");
	rpbt_commit(&s, a);
	rpbt_begin(&s, a, RPB_TXN_READ);
	cr_assert_str_eq(scan_keys(&s, a, RPB_T_MEMBERS, NULL, NULL, 0, &c), "c/1,c/2");
	rpbt_commit(&s, a);
	s.b->session_close(a);
	rpbt_close(&s);
}

DATA_TEST void t_survives_reopen(const char *backend)
{
	struct rpbt_store s;
	rpbt_open(&s, backend);
	struct rpb_session *a = rpbt_session(&s);
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	rpbt_put(&s, a, RPB_T_DESCRIPTIONS, "d1", "kept");
	rpbt_commit(&s, a);
	s.b->session_close(a);
	rpbt_reopen(&s);
	a = rpbt_session(&s);
	rpbt_begin(&s, a, RPB_TXN_READ);
	expect_value(&s, a, RPB_T_DESCRIPTIONS, "d1", "kept");
	rpbt_commit(&s, a);
	s.b->session_close(a);
	rpbt_close(&s);
}

DATA_TEST void t_tables_separate(const char *backend)
{
	struct rpbt_store s;
	rpbt_open(&s, backend);
	struct rpb_session *a = rpbt_session(&s);
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	for (int t = 0; t < RPB_TABLE_COUNT; t++)
		rpbt_put(&s, a, (enum rpb_table)t, "same", rpb_table_name((enum rpb_table)t));
	rpbt_commit(&s, a);
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	struct rpb_err err = {0};
	cr_assert_eq(s.b->del(a, RPB_T_NAMES, S("same"), &err), RPB_OK);
	rpbt_commit(&s, a);
	rpbt_begin(&s, a, RPB_TXN_READ);
	for (int t = 0; t < RPB_TABLE_COUNT; t++) {
		if (t == RPB_T_NAMES)
			expect_absent(&s, a, RPB_T_NAMES, "same");
		else
			expect_value(&s, a, (enum rpb_table)t, "same", rpb_table_name((enum rpb_table)t));
		size_t n = 0;
		cr_assert_eq(s.b->scan(a, (enum rpb_table)t, NULL, NULL, 0, count_fn, &n, &err), RPB_OK);
		cr_assert_eq(n, t == RPB_T_NAMES ? 0u : 1u, "table %s holds only its own key",
			     rpb_table_name((enum rpb_table)t));
	}
	rpbt_commit(&s, a);
	s.b->session_close(a);
	rpbt_close(&s);
}

struct writer_arg {
	struct rpbt_store *s;
	int id;
	int n;
	enum rpb_status result;
	char msg[256];
};

static void *writer_main(void *p)
{
	struct writer_arg *w = p;
	struct rpb_session *ss = NULL;
	struct rpb_err err = {0};
	w->result = w->s->b->session_open(w->s->st, &ss, &err);
	char key[32], val[32];
	for (int i = 0; i < w->n && !w->result; i++) {
		snprintf(key, sizeof key, "w%d/%05d", w->id, i);
		snprintf(val, sizeof val, "%d:%d", w->id, i);
		w->result = w->s->b->begin(ss, RPB_TXN_WRITE, &err);
		if (!w->result)
			w->result = w->s->b->put(ss, RPB_T_OBJECTS, S(key), S(val), &err);
		if (!w->result)
			w->result = w->s->b->commit(ss, &err);
	}
	if (w->result)
		snprintf(w->msg, sizeof w->msg, "%s", err.msg);
	w->s->b->session_close(ss);
	return NULL;
}

DATA_TEST void t_two_threads(const char *backend)
{
	struct rpbt_store s;
	rpbt_open(&s, backend);
	struct writer_arg w[2] = {{&s, 0, 300, 0, ""}, {&s, 1, 300, 0, ""}};
	pthread_t th[2];
	for (int i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&th[i], NULL, writer_main, &w[i]), 0);
	for (int i = 0; i < 2; i++) {
		pthread_join(th[i], NULL);
		cr_assert_eq(w[i].result, RPB_OK, "%s writer %d: %s (%s)", backend, i, w[i].msg,
			     rpb_status_name(w[i].result));
	}
	struct rpb_session *a = rpbt_session(&s);
	rpbt_begin(&s, a, RPB_TXN_READ);
	size_t n = 0;
	struct rpb_err err = {0};
	cr_assert_eq(s.b->scan(a, RPB_T_OBJECTS, NULL, NULL, 0, count_fn, &n, &err), RPB_OK);
	cr_assert_eq(n, 600, "%s: both writers' keys are there (%zu)", backend, n);
	expect_value(&s, a, RPB_T_OBJECTS, "w1/00299", "1:299");
	rpbt_commit(&s, a);
	s.b->session_close(a);
	rpbt_close(&s);
}

DATA_TEST void t_usage_grows(const char *backend)
{
	struct rpbt_store s;
	rpbt_open(&s, backend);
	cr_assert_not_null(s.b->usage, "%s implements usage", backend);
	struct rpb_err err = {0};
	uint64_t before = 0, after = 0;
	cr_assert_eq(s.b->usage(s.st, &before, &err), RPB_OK, "usage: %s", err.msg);
	struct rpb_session *a = rpbt_session(&s);
	size_t n = 4u << 20;
	unsigned char *v = malloc(n);
	uint64_t x = 88172645463325252ull;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v[i] = (unsigned char)x; /* incompressible */
	}
	char key[16];
	for (int i = 0; i < 4; i++) {
		snprintf(key, sizeof key, "blob%d", i);
		rpbt_begin(&s, a, RPB_TXN_WRITE);
		cr_assert_eq(s.b->put(a, RPB_T_OBJECTS, S(key), rpb_slice_make(v, n), &err), RPB_OK);
		rpbt_commit(&s, a);
	}
	free(v);
	s.b->session_close(a);
	cr_assert_eq(s.b->usage(s.st, &after, &err), RPB_OK, "usage: %s", err.msg);
	cr_assert_geq(after, before + (12u << 20),
		      "%s: usage grew by %llu bytes after writing 16 MiB", backend,
		      (unsigned long long)(after - before));
	rpbt_close(&s);
}

struct interrupter {
	struct rpbt_store *s;
	struct rpb_session *victim;
};

static void *interrupt_main(void *p)
{
	struct interrupter *in = p;
	in->s->b->interrupt(in->victim);
	return NULL;
}

DATA_TEST void t_interrupt_aborts(const char *backend)
{
	struct rpbt_store s;
	rpbt_open(&s, backend);
	struct rpb_session *a = rpbt_session(&s);
	rpbt_begin(&s, a, RPB_TXN_WRITE);
	rpbt_put(&s, a, RPB_T_OBJECTS, "doomed", "v");
	struct interrupter in = {&s, a};
	pthread_t th;
	cr_assert_eq(pthread_create(&th, NULL, interrupt_main, &in), 0);
	pthread_join(th, NULL);
	struct rpb_err err = {0};
	enum rpb_status st = s.b->put(a, RPB_T_OBJECTS, S("doomed2"), S("v"), &err);
	if (st == RPB_OK)
		st = s.b->commit(a, &err);
	cr_assert_eq(st, RPB_TXN_TIMEOUT, "%s: interrupted transaction ends with txn-timeout, got %s",
		     backend, rpb_status_name(st));
	cr_assert_eq(err.status, RPB_TXN_TIMEOUT, "the error record carries the class");
	/* The session is usable again and nothing of the aborted txn is visible. */
	rpbt_begin(&s, a, RPB_TXN_READ);
	expect_absent(&s, a, RPB_T_OBJECTS, "doomed");
	expect_absent(&s, a, RPB_T_OBJECTS, "doomed2");
	rpbt_commit(&s, a);
	s.b->session_close(a);
	rpbt_close(&s);
}

#define T(backend, name) \
	Test(backend, name) { t_##name(#backend); }

#define LIFECYCLE_TESTS(backend) \
	T(backend, lifecycle) \
	T(backend, outside_txn) \
	T(backend, interrupt_idle) \
	T(backend, misses_format_nothing)

#define DATA_TESTS(backend) \
	T(backend, put_get_del) \
	T(backend, overwrite_and_empty) \
	T(backend, large_value) \
	T(backend, binary_keys) \
	T(backend, scan_bounds) \
	T(backend, many_keys_scan) \
	T(backend, visibility_and_rollback) \
	T(backend, read_your_writes) \
	T(backend, survives_reopen) \
	T(backend, tables_separate) \
	T(backend, two_threads) \
	T(backend, usage_grows) \
	T(backend, interrupt_aborts)

/* Every backend of the test build gets the suite of its kind, from the list
 * tests/CMakeLists.txt generates: RPBT_CONTRACT_<kind>(<name>), one line
 * each (a new backend needs nothing here). */
#define RPBT_CONTRACT_nothing(backend) LIFECYCLE_TESTS(backend)
#define RPBT_CONTRACT_embedded(backend) LIFECYCLE_TESTS(backend) DATA_TESTS(backend)
#define RPBT_CONTRACT_server(backend) LIFECYCLE_TESTS(backend) DATA_TESTS(backend)
#include "contract_suites.h"

#ifdef RPB_HAVE_POSTGRES
/* Reads from a hot standby (postgres.read_dsn): every single-session rule
 * holds, read-your-writes included, since a read waits for the standby to
 * replay the session's own writes. Left out: visibility_and_rollback and
 * two_threads, which expect one session to see another's commit at once,
 * a replica's lag by design (docs/backends.md, "Read replica"). */
LIFECYCLE_TESTS(postgres_replica)
T(postgres_replica, put_get_del)
T(postgres_replica, overwrite_and_empty)
T(postgres_replica, large_value)
T(postgres_replica, binary_keys)
T(postgres_replica, scan_bounds)
T(postgres_replica, many_keys_scan)
T(postgres_replica, read_your_writes)
T(postgres_replica, survives_reopen)
T(postgres_replica, tables_separate)
T(postgres_replica, usage_grows)
T(postgres_replica, interrupt_aborts)
#endif
