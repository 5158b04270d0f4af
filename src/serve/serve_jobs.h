/* fray serve's computing, all of it off the HTTP threads, each client
 * (by its address) with a fair share.
 *
 * Runs (api/v1/run): a queue served by SERVE_RUN_WORKERS threads; a client
 * has at most SERVE_RUNS_PER_CLIENT queued or running (503 beyond) and one
 * running at a time, so a client's heavy requests leave the other workers
 * to the others; the queue's last SERVE_RUNS_KEPT places are kept for a
 * client with nothing queued or running (7 clients sending 5 each cannot
 * fill it); of the runs whose client has none running, the one whose
 * client has the fewest waiting is taken next (the first queued among
 * them), and one that waited SERVE_RUN_WAIT_S is answered 503 when its
 * wait passes (serve_runs_expire, from the server's tick), never run late
 * nor left waiting for a worker.
 *
 * Jobs: long work (many battles, a battle's exact odds) on a thread of its
 * own while the page asks how far it got.
 *
 *   POST   api/v1/jobs      a request, as api/v1/run takes it: 202 {"id"}
 *   GET    api/v1/jobs/ID   {"id", "state", "done", "total", "seconds",
 *                            and "result" or "error" once it ended}
 *   DELETE api/v1/jobs/ID   stops it and forgets it
 *
 * Every budget is explicit: at most SERVE_JOBS_RUNNING jobs at once (a
 * job past them waits its turn, said "running" with "waiting": true and no
 * progress, its time budget from when it starts) and SERVE_JOBS_PER_CLIENT
 * running or waiting a client (503 beyond: an address holding a place
 * cannot take a second while another waits), SERVE_JOBS_KEPT remembered
 * (the oldest ended one is forgotten first, and any after
 * SERVE_JOBS_KEEP_S), each within its trials, paths, bytes and
 * SERVE_JOB_SECONDS. An ended job's answer is built once and shared by
 * every GET (serve_answer, counted against SERVE_MEMORY_BUDGET). Ids are
 * 128 random bits, so one client cannot guess another's. Every computing
 * thread runs at nice SERVE_COMPUTE_NICE: the HTTP threads come first. */
#ifndef FRAY_SERVE_JOBS_H
#define FRAY_SERVE_JOBS_H

#include <stddef.h>
#include <stdint.h>
#include "serve_handler.h"

#define SERVE_JOBS_RUNNING 2
#define SERVE_JOBS_PER_CLIENT 1
#define SERVE_JOBS_KEPT 16
#define SERVE_JOBS_KEEP_S 600
#define SERVE_JOB_SECONDS FRAY_API_JOB_SECONDS
#define SERVE_JOB_TRIALS FRAY_API_JOB_TRIALS /* include/fray/api.h: the budgets the browser shares */
#define SERVE_JOB_PATHS FRAY_API_JOB_PATHS
#define SERVE_RUN_WORKERS 3
#define SERVE_RUNS_QUEUED 36 /* the last SERVE_RUNS_KEPT kept: 32 for clients with some waiting */
#define SERVE_RUNS_PER_CLIENT 5
#define SERVE_RUNS_KEPT 4 /* of the queue's places, for a client with nothing queued or running */
#define SERVE_RUN_WAIT_S 30
#define SERVE_COMPUTE_NICE 5

typedef struct serve_jobs serve_jobs;

/* seconds: each job's time budget (0: SERVE_JOB_SECONDS); workers: the
 * threads that serve runs (0: none, serve_runs_submit refuses). NULL when
 * memory runs out. */
serve_jobs *serve_jobs_new(unsigned seconds, unsigned workers);
/* Stops every job and run (a queued run is answered 503 through its
 * callback) and waits for the runs' workers; new work is refused from
 * then on. serve_jobs_free does it too. */
void serve_jobs_stop(serve_jobs *j);
/* Stops it all, waits for every thread and frees it all. */
void serve_jobs_free(serve_jobs *j);

/* A run's answer, from a worker thread: the reply is the callee's. */
typedef void (*serve_run_done)(void *ud, serve_reply *r);
/* Queues text (taken, freed in any case) for a worker (serve_run_now, or
 * serve_game_now when how->game is set, how->work when that is); done(ud, reply) is
 * called once, on a worker thread, when it has run (or was refused for
 * waiting too long, or the server stops). false, with the refusal in out
 * (done never called): the queue or the client's share is full. */
bool serve_runs_submit(serve_jobs *j, const char *client, char *text, const serve_reply *how, serve_run_done done,
		       void *ud, serve_reply *out);

/* Answers 503 (through its callback, on the calling thread) every queued
 * run that waited its turn longer than its wait: call it often (the
 * server's tick, every tenth of a second), so a run is answered when its
 * wait passes, not when a worker is free at last. */
void serve_runs_expire(serve_jobs *j);
/* A run's wait in the queue, in seconds (0: SERVE_RUN_WAIT_S; fray serve
 * --wait). */
void serve_runs_set_wait(serve_jobs *j, unsigned seconds);

void serve_jobs_start(serve_jobs *j, const char *client, const char *body, size_t len, serve_reply *out);
void serve_jobs_get(serve_jobs *j, const char *id, serve_reply *out);
void serve_jobs_delete(serve_jobs *j, const char *id, serve_reply *out);

#endif
