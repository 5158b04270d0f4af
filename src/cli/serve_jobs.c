/* fray serve's jobs (serve_jobs.h): a fixed table of slots under one lock;
 * each running job has a thread that runs fray_request_with and, through
 * its progress calls, publishes how far it got and keeps its time budget. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fray/fray.h>
#include "serve_jobs.h"

typedef enum job_state { JOB_FREE, JOB_RUNNING, JOB_DONE, JOB_FAILED, JOB_STOPPED } job_state;

typedef struct job {
	job_state state;
	bool forgotten;             /* deleted while its thread still ran */
	bool joined;
	char id[33];
	pthread_t thread;
	char *request;
	char *result;               /* JOB_DONE: the response */
	char *error;                /* JOB_FAILED: the message */
	unsigned status;            /* JOB_FAILED: the HTTP status api/v1/run would give */
	serve_watch watch;
	time_t ended;
	double seconds;             /* ended: how long it ran */
} job;

struct serve_jobs {
	pthread_mutex_t lock;
	unsigned seconds;
	job slots[SERVE_JOBS_KEPT];
};

serve_jobs *serve_jobs_new(unsigned seconds)
{
	serve_jobs *j = calloc(1, sizeof *j);
	if (!j)
		return NULL;
	pthread_mutex_init(&j->lock, NULL);
	j->seconds = seconds ? seconds : SERVE_JOB_SECONDS;
	return j;
}

static void clear_slot(job *b)
{
	free(b->request);
	free(b->result);
	free(b->error);
	memset(b, 0, sizeof *b);
}

/* Joins an ended job's thread (it has nothing left to do but return). */
static void join_ended(job *b)
{
	if (b->state != JOB_FREE && b->state != JOB_RUNNING && !b->joined) {
		pthread_join(b->thread, NULL);
		b->joined = true;
	}
}

void serve_jobs_free(serve_jobs *j)
{
	if (!j)
		return;
	pthread_mutex_lock(&j->lock);
	for (int i = 0; i < SERVE_JOBS_KEPT; i++)
		j->slots[i].watch.stop = 1;
	pthread_mutex_unlock(&j->lock);
	for (int i = 0; i < SERVE_JOBS_KEPT; i++) {
		job *b = &j->slots[i];
		pthread_mutex_lock(&j->lock);
		bool wait = b->state != JOB_FREE && !b->joined;
		pthread_mutex_unlock(&j->lock);
		if (wait) /* not under the lock: the thread takes it to end */
			pthread_join(b->thread, NULL);
		clear_slot(b);
	}
	pthread_mutex_destroy(&j->lock);
	free(j);
}

static void *run_job(void *arg)
{
	void **args = arg;
	serve_jobs *j = args[0];
	job *b = args[1];
	free(args);
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	char *response = NULL, *error = NULL;
	unsigned status = 503;
	if (ctx) {
		fray_request_opts ro = {.flags = FRAY_REQUEST_NO_FILES, .max_trials = SERVE_JOB_TRIALS,
					.max_paths = SERVE_JOB_PATHS, .max_bytes = SERVE_REQUEST_BYTES};
		serve_watch_attach(&b->watch, &ro);
		fray_status st = fray_request_with(ctx, b->request, &ro, &response);
		if (st != FRAY_OK) {
			status = serve_status_of(st);
			error = strdup(serve_watch_message(&b->watch, fray_ctx_message(ctx)));
		}
		fray_ctx_free(ctx);
	} else {
		error = strdup("out of memory");
	}
	double seconds = serve_watch_seconds(&b->watch);
	pthread_mutex_lock(&j->lock);
	b->seconds = seconds;
	b->result = response;
	b->error = error;
	b->status = status;
	b->state = response ? JOB_DONE : b->watch.stop && !b->watch.timed_out ? JOB_STOPPED : JOB_FAILED;
	b->ended = time(NULL);
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

/* Forgets ended jobs past their time, and the ones deleted while running
 * once their thread ended. Under the lock. */
static void sweep(serve_jobs *j, time_t now)
{
	for (int i = 0; i < SERVE_JOBS_KEPT; i++) {
		job *b = &j->slots[i];
		if (b->state == JOB_FREE || b->state == JOB_RUNNING)
			continue;
		if (b->forgotten || now - b->ended > SERVE_JOBS_KEEP_S) {
			join_ended(b);
			clear_slot(b);
		}
	}
}

/* A free slot, else the one that ended first, forgotten; NULL when
 * SERVE_JOBS_RUNNING threads still run (deleted jobs too, until they
 * stop). Under the lock. */
static job *slot_for_new(serve_jobs *j)
{
	int running = 0;
	job *free_slot = NULL, *oldest = NULL;
	for (int i = 0; i < SERVE_JOBS_KEPT; i++) {
		job *b = &j->slots[i];
		if (b->state == JOB_RUNNING)
			running++;
		else if (b->state == JOB_FREE)
			free_slot = free_slot ? free_slot : b;
		else if (!oldest || b->ended < oldest->ended)
			oldest = b;
	}
	if (running >= SERVE_JOBS_RUNNING)
		return NULL;
	if (!free_slot && oldest) {
		join_ended(oldest);
		clear_slot(oldest);
		free_slot = oldest;
	}
	return free_slot;
}

void serve_jobs_start(serve_jobs *j, const char *body, size_t len, serve_reply *out)
{
	/* a request that is not even JSON is refused now, as api/v1/run would */
	char *text = serve_request_text(body, len, true, out);
	if (!text)
		return;
	void **args = malloc(2 * sizeof *args);
	if (!args) {
		free(text);
		serve_reply_error(out, 503, "out of memory");
		return;
	}
	pthread_mutex_lock(&j->lock);
	sweep(j, time(NULL));
	job *b = slot_for_new(j);
	if (!b) {
		pthread_mutex_unlock(&j->lock);
		free(text);
		free(args);
		char msg[96];
		snprintf(msg, sizeof msg, "busy: %d jobs are running; stop one or wait", SERVE_JOBS_RUNNING);
		serve_reply_error(out, 503, msg);
		return;
	}
	if (!serve_random_hex(b->id)) {
		pthread_mutex_unlock(&j->lock);
		free(text);
		free(args);
		serve_reply_error(out, 503, "no random numbers for a job id");
		return;
	}
	b->request = text;
	b->state = JOB_RUNNING;
	serve_watch_start(&b->watch, j->seconds);
	args[0] = j;
	args[1] = b;
	if (pthread_create(&b->thread, NULL, run_job, args) != 0) {
		clear_slot(b);
		pthread_mutex_unlock(&j->lock);
		free(args);
		serve_reply_error(out, 503, "no thread for a job");
		return;
	}
	char *reply = malloc(96);
	if (reply)
		snprintf(reply, 96, "{\"id\": \"%s\", \"state\": \"running\"}\n", b->id);
	pthread_mutex_unlock(&j->lock);
	serve_reply_text(out, 202, "application/json", reply);
}

/* The job with this id (32 lowercase hex digits), under the lock. */
static job *find(serve_jobs *j, const char *id)
{
	if (!id || strlen(id) != 32 || strspn(id, "0123456789abcdef") != 32)
		return NULL;
	for (int i = 0; i < SERVE_JOBS_KEPT; i++) {
		job *b = &j->slots[i];
		if (b->state != JOB_FREE && !b->forgotten && !strcmp(b->id, id))
			return b;
	}
	return NULL;
}

static const char *const state_names[] = {"free", "running", "done", "failed", "stopped"};

void serve_jobs_get(serve_jobs *j, const char *id, serve_reply *out)
{
	pthread_mutex_lock(&j->lock);
	sweep(j, time(NULL));
	job *b = find(j, id);
	if (!b) {
		pthread_mutex_unlock(&j->lock);
		serve_reply_error(out, 404, "no such job (ended jobs are kept ten minutes)");
		return;
	}
	uint64_t done, total;
	serve_watch_progress(&b->watch, &done, &total);
	const char *payload = b->state == JOB_DONE ? b->result : b->error ? b->error : "";
	size_t cap = 8 * strlen(payload) + 256;
	char *reply = malloc(cap);
	if (reply) {
		size_t n = (size_t)snprintf(reply, cap,
					    "{\"id\": \"%s\", \"state\": \"%s\", \"done\": %" PRIu64
					    ", \"total\": %" PRIu64 ", \"seconds\": %.1f",
					    b->id, state_names[b->state], done, total,
					    b->state == JOB_RUNNING ? serve_watch_seconds(&b->watch) : b->seconds);
		if (b->state == JOB_DONE && payload[0] == '{') {
			n += (size_t)snprintf(reply + n, cap - n, ", \"result\": %s", payload);
			while (n > 0 && reply[n - 1] == '\n')
				reply[--n] = 0;
		} else if (b->state == JOB_DONE || b->state == JOB_FAILED) {
			n += (size_t)snprintf(reply + n, cap - n, ", \"%s\": ", b->state == JOB_DONE ? "text" : "error");
			n += fray_json_string(payload, reply + n, cap - n);
			if (b->state == JOB_FAILED)
				n += (size_t)snprintf(reply + n, cap - n, ", \"status\": %u", b->status);
		}
		snprintf(reply + n, cap - n, "}\n");
	}
	pthread_mutex_unlock(&j->lock);
	serve_reply_text(out, 200, "application/json", reply);
}

void serve_jobs_delete(serve_jobs *j, const char *id, serve_reply *out)
{
	pthread_mutex_lock(&j->lock);
	job *b = find(j, id);
	if (!b) {
		pthread_mutex_unlock(&j->lock);
		serve_reply_error(out, 404, "no such job");
		return;
	}
	b->watch.stop = 1;
	b->forgotten = true; /* its slot is free once its thread has ended */
	sweep(j, time(NULL));
	pthread_mutex_unlock(&j->lock);
	char *reply = malloc(96);
	if (reply)
		snprintf(reply, 96, "{\"id\": \"%s\", \"state\": \"stopped\"}\n", id);
	serve_reply_text(out, 200, "application/json", reply);
}
