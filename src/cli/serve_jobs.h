/* fray serve's jobs: long work (many battles, a battle's exact odds) run
 * on a thread of its own while the page asks how far it got.
 *
 *   POST   api/v1/jobs      a request, as api/v1/run takes it: 202 {"id"}
 *   GET    api/v1/jobs/ID   {"id", "state", "done", "total", "seconds",
 *                            and "result" or "error" once it ended}
 *   DELETE api/v1/jobs/ID   stops it and forgets it
 *
 * Every budget is explicit: at most SERVE_JOBS_RUNNING jobs at once (503
 * beyond), SERVE_JOBS_KEPT remembered (the oldest ended one is forgotten
 * first, and any after SERVE_JOBS_KEEP_S), each within its trials, paths,
 * bytes and SERVE_JOB_SECONDS. Ids are 128 random bits, so one client
 * cannot guess another's. */
#ifndef FRAY_CLI_SERVE_JOBS_H
#define FRAY_CLI_SERVE_JOBS_H

#include <stddef.h>
#include <stdint.h>
#include "serve_handler.h"

#define SERVE_JOBS_RUNNING 2
#define SERVE_JOBS_KEPT 16
#define SERVE_JOBS_KEEP_S 600
#define SERVE_JOB_SECONDS 120
#define SERVE_JOB_TRIALS 1000000u
#define SERVE_JOB_PATHS 20000000u

typedef struct serve_jobs serve_jobs;

/* seconds: each job's time budget (0: SERVE_JOB_SECONDS). NULL when
 * memory runs out. */
serve_jobs *serve_jobs_new(unsigned seconds);
/* Stops every job, waits for their threads and frees it all. */
void serve_jobs_free(serve_jobs *j);

void serve_jobs_start(serve_jobs *j, const char *body, size_t len, serve_reply *out);
void serve_jobs_get(serve_jobs *j, const char *id, serve_reply *out);
void serve_jobs_delete(serve_jobs *j, const char *id, serve_reply *out);

#endif
