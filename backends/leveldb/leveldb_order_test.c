/* The LevelDB backend's write order (backends/leveldb_order.h): a write
 * that succeeded is acknowledged only after every write that entered
 * before it returned has left, so a failure latched by such a write is
 * seen. Deterministic: the test waits on the gate's own state, not on time. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "leveldb_order.h"

struct leaver {
	struct ldb_order *o;
	struct ldb_order_slot *slot;
	atomic_bool left;
};

static void *leave_waiting(void *arg)
{
	struct leaver *l = arg;
	ldb_order_leave(l->o, l->slot, true);
	atomic_store(&l->left, true);
	return NULL;
}

static unsigned waiters(struct ldb_order *o)
{
	pthread_mutex_lock(&o->lock);
	unsigned n = o->waiters;
	pthread_mutex_unlock(&o->lock);
	return n;
}

Test(leveldb_order, alone_never_waits)
{
	struct ldb_order o;
	ldb_order_init(&o);
	struct ldb_order_slot a;
	for (int i = 0; i < 3; i++) {
		ldb_order_enter(&o, &a);
		ldb_order_leave(&o, &a, true);
	}
	cr_assert_null(o.head);
	cr_assert_null(o.tail);
	ldb_order_destroy(&o);
}

/* Whichever entered first, a write that returns waits for the other. */
static void waits_for(bool earlier)
{
	struct ldb_order o;
	ldb_order_init(&o);
	struct ldb_order_slot a, b;
	ldb_order_enter(&o, earlier ? &a : &b);
	ldb_order_enter(&o, earlier ? &b : &a);
	struct leaver l = {.o = &o, .slot = &b};
	atomic_init(&l.left, false);
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, leave_waiting, &l), 0);
	while (waiters(&o) == 0)
		sched_yield();
	cr_assert_not(atomic_load(&l.left), "b was acknowledged while a was still in flight");
	ldb_order_leave(&o, &a, false);
	pthread_join(t, NULL);
	cr_assert(atomic_load(&l.left));
	cr_assert_null(o.head);
	ldb_order_destroy(&o);
}

Test(leveldb_order, waits_for_an_earlier_write) { waits_for(true); }
Test(leveldb_order, waits_for_a_later_ticket_still_in_flight) { waits_for(false); }
