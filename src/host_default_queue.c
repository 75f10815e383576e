/*
 * host_default_queue.c -- the queue behind the plain host interface
 * (gchol_dpotrf / gchol_spotrf), created on the current device at first use.
 */
#include "queue.h"

#include <pthread.h>

static pthread_mutex_t default_lock = PTHREAD_MUTEX_INITIALIZER;
static gchol_queue_t   default_queue;

/* Returns the queue with its lock held: host-interface calls from several
 * threads take turns on it. Pair every call with gchol_default_queue_release. */
int64_t gchol_default_queue_acquire(gchol_queue_t *q)
{
    int64_t st = GCHOL_SUCCESS;
    pthread_mutex_lock(&default_lock);
    if (default_queue == NULL) st = gchol_queue_create(-1, &default_queue);
    *q = default_queue;
    return st;
}

void gchol_default_queue_release(void) { pthread_mutex_unlock(&default_lock); }

void gchol_finalize(void)
{
    pthread_mutex_lock(&default_lock);
    gchol_queue_destroy(default_queue);
    default_queue = NULL;
    pthread_mutex_unlock(&default_lock);
}
