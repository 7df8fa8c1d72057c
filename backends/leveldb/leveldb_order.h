/* Write order for LevelDB commits after a failure.
 *
 * LevelDB appends each write to its log behind the previous one, whatever
 * that left: a failed append (disk full) can leave a half-written record,
 * and a write appended behind it may be unreadable at recovery although
 * leveldb_write returned OK. A commit is therefore acknowledged only once
 * every write that could have gone before it has returned (and latched its
 * failure, if it failed). Each write takes a ticket on entry; a write that
 * succeeded waits at its exit for every write with an earlier ticket than
 * the last one given out then: any write LevelDB ran before it entered
 * before it returned, so it is among those. */
#ifndef RPB_LEVELDB_ORDER_H
#define RPB_LEVELDB_ORDER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct ldb_order_slot {
	uint64_t ticket;
	struct ldb_order_slot *prev, *next;
};

struct ldb_order {
	pthread_mutex_t lock;
	pthread_cond_t resolved;
	uint64_t next_ticket;
	unsigned waiters;
	/* Writes in flight, in ticket order (so the head has the smallest). */
	struct ldb_order_slot *head, *tail;
};

void ldb_order_init(struct ldb_order *o);
void ldb_order_destroy(struct ldb_order *o);
/* Before leveldb_write. */
void ldb_order_enter(struct ldb_order *o, struct ldb_order_slot *slot);
/* After leveldb_write (and after a failure is latched). With wait_earlier,
 * returns only once every write that entered before this call has left. */
void ldb_order_leave(struct ldb_order *o, struct ldb_order_slot *slot, bool wait_earlier);

#endif
