/* Write order for LevelDB commits after a failure (leveldb_order.h). */
#include "leveldb_order.h"

void ldb_order_init(struct ldb_order *o)
{
	pthread_mutex_init(&o->lock, NULL);
	pthread_cond_init(&o->resolved, NULL);
	o->next_ticket = 0;
	o->waiters = 0;
	o->head = o->tail = NULL;
}

void ldb_order_destroy(struct ldb_order *o)
{
	pthread_cond_destroy(&o->resolved);
	pthread_mutex_destroy(&o->lock);
}

void ldb_order_enter(struct ldb_order *o, struct ldb_order_slot *slot)
{
	pthread_mutex_lock(&o->lock);
	slot->ticket = o->next_ticket++;
	slot->next = NULL;
	slot->prev = o->tail;
	if (o->tail)
		o->tail->next = slot;
	else
		o->head = slot;
	o->tail = slot;
	pthread_mutex_unlock(&o->lock);
}

void ldb_order_leave(struct ldb_order *o, struct ldb_order_slot *slot, bool wait_earlier)
{
	pthread_mutex_lock(&o->lock);
	if (slot->prev)
		slot->prev->next = slot->next;
	else
		o->head = slot->next;
	if (slot->next)
		slot->next->prev = slot->prev;
	else
		o->tail = slot->prev;
	if (o->waiters)
		pthread_cond_broadcast(&o->resolved);
	if (wait_earlier) {
		uint64_t upto = o->next_ticket;
		o->waiters++;
		while (o->head && o->head->ticket < upto)
			pthread_cond_wait(&o->resolved, &o->lock);
		o->waiters--;
	}
	pthread_mutex_unlock(&o->lock);
}
