/* fray serve's computing (serve_jobs.h): one lock over a fixed table of
 * job slots and a fixed queue of runs. Each running job has a thread that
 * runs fray_request_with and, through its progress calls, publishes how
 * far it got and keeps its time budget; runs are taken by a few workers,
 * fairly between clients. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <fray/fray.h>
#include <fray/api.h>
#include "serve_jobs.h"

#define CLIENT_MAX 64   /* an address as text, IPv6 included */

/* JOB_WAITING: taken, its turn to come (no thread yet) */
typedef enum job_state { JOB_FREE, JOB_RUNNING, JOB_DONE, JOB_FAILED, JOB_STOPPED, JOB_WAITING } job_state;

typedef struct job {
	job_state state;
	bool forgotten;             /* deleted while its thread still ran */
	bool joined;
	char id[33];
	char client[CLIENT_MAX];
	pthread_t thread;
	char *request;
	serve_answer *answer;       /* ended: GET's reply, built once */
	serve_watch watch;
	time_t ended;
	unsigned long turn;         /* waiting: its place in the line (the smallest runs first) */
} job;

typedef struct run_task {
	char client[CLIENT_MAX];
	char *text;
	bool game;                  /* api/v1/game's (serve_game_now) */
	void (*work)(void *, const char *, serve_watch *, serve_reply *); /* or this (a kept game's) */
	void *work_ctx;
	serve_run_done done;
	void *ud;
	struct timespec queued;
} run_task;

typedef struct worker {
	pthread_t thread;
	bool started;
	serve_watch watch;          /* its run's, while it runs one */
	char client[CLIENT_MAX];    /* whose run; "" when idle */
} worker;

struct serve_jobs {
	pthread_mutex_t lock;
	pthread_cond_t work;
	unsigned seconds;
	bool stopping;
	job slots[SERVE_JOBS_KEPT];
	unsigned long turns;        /* the waiting jobs' turns given */
	run_task queue[SERVE_RUNS_QUEUED];
	size_t nqueued;
	worker *workers;
	unsigned nworkers;
	unsigned run_wait;          /* a run's wait in the queue, in seconds (SERVE_RUN_WAIT_S) */
};

/* The computing threads yield to the HTTP threads. On Linux the nice
 * value is the thread's own (who 0 is the calling thread), and the
 * library's simulation threads inherit it. */
static void lower_priority(void)
{
	(void)setpriority(PRIO_PROCESS, 0, SERVE_COMPUTE_NICE);
}

static double since(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static void copy_client(char dst[CLIENT_MAX], const char *client)
{
	snprintf(dst, CLIENT_MAX, "%s", client ? client : "");
}

/* ---- runs ---- */

/* How many runs of this client are queued or running. Under the lock. */
static unsigned runs_of(const serve_jobs *j, const char *client)
{
	unsigned n = 0;
	for (size_t i = 0; i < j->nqueued; i++)
		n += strcmp(j->queue[i].client, client) == 0;
	for (unsigned i = 0; i < j->nworkers; i++)
		n += strcmp(j->workers[i].client, client) == 0;
	return n;
}

static unsigned running_of(const serve_jobs *j, const char *client)
{
	unsigned n = 0;
	for (unsigned i = 0; i < j->nworkers; i++)
		n += strcmp(j->workers[i].client, client) == 0;
	return n;
}

static unsigned queued_of(const serve_jobs *j, const char *client)
{
	unsigned n = 0;
	for (size_t i = 0; i < j->nqueued; i++)
		n += strcmp(j->queue[i].client, client) == 0;
	return n;
}

/* The next run: of a client with none running, the one whose client has
 * the fewest waiting (a newcomer's one request before the fifth of a
 * client that sent five), the first queued among those; -1 if none may
 * run now. Under the lock. */
static long next_eligible(const serve_jobs *j)
{
	long best = -1;
	unsigned fewest = 0;
	for (size_t i = 0; i < j->nqueued; i++) {
		if (running_of(j, j->queue[i].client))
			continue;
		unsigned waiting = queued_of(j, j->queue[i].client);
		if (best < 0 || waiting < fewest) {
			best = (long)i;
			fewest = waiting;
		}
	}
	return best;
}

static run_task take(serve_jobs *j, size_t k)
{
	run_task t = j->queue[k];
	memmove(&j->queue[k], &j->queue[k + 1], (j->nqueued - k - 1) * sizeof t);
	j->nqueued--;
	return t;
}

static void refuse(serve_reply *r, unsigned status, const char *msg)
{
	memset(r, 0, sizeof *r);
	serve_reply_error(r, status, msg);
}

/* A run that waited its turn too long, answered 503 rather than run late. */
static void refuse_late(serve_reply *r, unsigned wait)
{
	char msg[120];
	snprintf(msg, sizeof msg, "busy: this request waited its turn too long (%u s); ask again", wait);
	refuse(r, 503, msg);
}

static void *run_worker(void *arg)
{
	void **args = arg;
	serve_jobs *j = args[0];
	worker *w = args[1];
	free(args);
	lower_priority();
	pthread_mutex_lock(&j->lock);
	for (;;) {
		long k;
		while (!j->stopping && (k = next_eligible(j)) < 0)
			pthread_cond_wait(&j->work, &j->lock);
		if (j->stopping) {
			if (!j->nqueued)
				break; /* nothing left to answer */
			k = 0;
		}
		run_task t = take(j, (size_t)k);
		bool late = since(&t.queued) > j->run_wait, stop = j->stopping;
		unsigned wait = j->run_wait;
		copy_client(w->client, t.client);
		serve_watch_start(&w->watch, SERVE_RUN_SECONDS);
		pthread_mutex_unlock(&j->lock);
		serve_reply r;
		if (stop)
			refuse(&r, 503, "the server is stopping");
		else if (late) /* past its wait before serve_runs_expire saw it */
			refuse_late(&r, wait);
		else if (t.work)
			t.work(t.work_ctx, t.text, &w->watch, &r);
		else if (t.game)
			serve_game_now(t.text, &w->watch, &r);
		else
			serve_run_now(t.text, &w->watch, &r);
		free(t.text);
		t.done(t.ud, &r);
		pthread_mutex_lock(&j->lock);
		w->client[0] = 0;
		pthread_cond_broadcast(&j->work); /* this client's next may run now */
	}
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

bool serve_runs_submit(serve_jobs *j, const char *client, char *text, const serve_reply *how, serve_run_done done,
		       void *ud, serve_reply *out)
{
	char key[CLIENT_MAX];
	copy_client(key, client);
	pthread_mutex_lock(&j->lock);
	unsigned mine = runs_of(j, key);
	/* the last SERVE_RUNS_KEPT places are a client's with nothing waiting
	 * or worked on: 7 clients sending 5 each cannot fill the queue */
	const char *why = !j->nworkers || j->stopping ? "the server is stopping"
			  : mine >= SERVE_RUNS_PER_CLIENT
				  ? "busy: at most 5 requests of one client are worked on or waiting at once; "
				    "wait for an answer"
			  : j->nqueued >= SERVE_RUNS_QUEUED ? "busy: 36 requests are waiting; ask again soon"
			  : mine && j->nqueued >= SERVE_RUNS_QUEUED - SERVE_RUNS_KEPT
				  ? "busy: the last places of the queue are kept for clients with nothing waiting; "
				    "wait for an answer"
				  : NULL;
	if (why) {
		pthread_mutex_unlock(&j->lock);
		free(text);
		refuse(out, 503, why);
		return false;
	}
	run_task *t = &j->queue[j->nqueued++];
	memcpy(t->client, key, sizeof key);
	t->text = text;
	t->game = how->game;
	t->work = how->work;
	t->work_ctx = how->work_ctx;
	t->done = done;
	t->ud = ud;
	clock_gettime(CLOCK_MONOTONIC, &t->queued);
	pthread_cond_signal(&j->work);
	pthread_mutex_unlock(&j->lock);
	return true;
}

void serve_runs_expire(serve_jobs *j)
{
	if (!j)
		return;
	run_task late[SERVE_RUNS_QUEUED];
	size_t n = 0;
	pthread_mutex_lock(&j->lock);
	unsigned wait = j->run_wait;
	for (size_t i = 0; i < j->nqueued;) {
		if (since(&j->queue[i].queued) > wait)
			late[n++] = take(j, i);
		else
			i++;
	}
	pthread_mutex_unlock(&j->lock);
	/* answered off the lock: done resumes the request's connection */
	for (size_t i = 0; i < n; i++) {
		serve_reply r;
		refuse_late(&r, wait);
		free(late[i].text);
		late[i].done(late[i].ud, &r);
	}
}

void serve_runs_set_wait(serve_jobs *j, unsigned seconds)
{
	pthread_mutex_lock(&j->lock);
	j->run_wait = seconds ? seconds : SERVE_RUN_WAIT_S;
	pthread_mutex_unlock(&j->lock);
}

/* ---- the table ---- */

serve_jobs *serve_jobs_new(unsigned seconds, unsigned workers)
{
	serve_jobs *j = calloc(1, sizeof *j);
	if (!j)
		return NULL;
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->work, NULL);
	j->seconds = seconds ? seconds : SERVE_JOB_SECONDS;
	j->run_wait = SERVE_RUN_WAIT_S;
	if (workers && !(j->workers = calloc(workers, sizeof *j->workers))) {
		serve_jobs_free(j);
		return NULL;
	}
	for (unsigned i = 0; i < workers; i++) {
		void **args = malloc(2 * sizeof *args);
		if (!args)
			break;
		args[0] = j;
		args[1] = &j->workers[i];
		pthread_mutex_lock(&j->lock);
		j->workers[i].started = pthread_create(&j->workers[i].thread, NULL, run_worker, args) == 0;
		if (j->workers[i].started)
			j->nworkers = i + 1;
		pthread_mutex_unlock(&j->lock);
		if (!j->workers[i].started) {
			free(args);
			break;
		}
	}
	if (workers && !j->nworkers) {
		serve_jobs_free(j);
		return NULL;
	}
	return j;
}

static void clear_slot(job *b)
{
	free(b->request);
	serve_answer_unref(b->answer);
	memset(b, 0, sizeof *b);
}

static bool ended(const job *b)
{
	return b->state == JOB_DONE || b->state == JOB_FAILED || b->state == JOB_STOPPED;
}

/* Joins an ended job's thread (it has nothing left to do but return). */
static void join_ended(job *b)
{
	if (ended(b) && !b->joined) {
		pthread_join(b->thread, NULL);
		b->joined = true;
	}
}

void serve_jobs_stop(serve_jobs *j)
{
	if (!j)
		return;
	pthread_mutex_lock(&j->lock);
	j->stopping = true;
	for (int i = 0; i < SERVE_JOBS_KEPT; i++) {
		j->slots[i].watch.stop = 1;
		if (j->slots[i].state == JOB_WAITING) { /* never to run: no thread to join */
			j->slots[i].state = JOB_STOPPED;
			j->slots[i].joined = true;
			j->slots[i].ended = time(NULL);
		}
	}
	for (unsigned i = 0; i < j->nworkers; i++)
		j->workers[i].watch.stop = 1;
	pthread_cond_broadcast(&j->work);
	unsigned n = j->nworkers;
	pthread_mutex_unlock(&j->lock);
	for (unsigned i = 0; i < n; i++)
		pthread_join(j->workers[i].thread, NULL);
	pthread_mutex_lock(&j->lock);
	j->nworkers = 0;
	pthread_mutex_unlock(&j->lock);
}

void serve_jobs_free(serve_jobs *j)
{
	if (!j)
		return;
	serve_jobs_stop(j);
	for (int i = 0; i < SERVE_JOBS_KEPT; i++) {
		job *b = &j->slots[i];
		pthread_mutex_lock(&j->lock);
		bool wait = b->state != JOB_FREE && !b->joined;
		pthread_mutex_unlock(&j->lock);
		if (wait) /* not under the lock: the thread takes it to end */
			pthread_join(b->thread, NULL);
		clear_slot(b);
	}
	free(j->workers);
	pthread_cond_destroy(&j->work);
	pthread_mutex_destroy(&j->lock);
	free(j);
}

/* a waiting job says "running" and "waiting": true (the page polls a
 * running job until it ends; a waiting one shows no progress yet) */
static const char *const state_names[] = {"free", "running", "done", "failed", "stopped", "running"};

/* A job's GET body: its state and progress and, once ended, its result
 * ("result" for JSON, "text" for words) or error with its status. Sized
 * exactly: a result is copied once, escaped only when it is words. */
static char *job_body(const job *b, job_state state, double seconds, const char *payload, unsigned status)
{
	uint64_t done = atomic_load(&b->watch.done), total = atomic_load(&b->watch.total);
	char head[256];
	int nh = snprintf(head, sizeof head,
			  "{\"id\": \"%s\", \"state\": \"%s\", \"done\": %" PRIu64 ", \"total\": %" PRIu64
			  ", \"seconds\": %.1f%s",
			  b->id, state_names[state], done, total, seconds, state == JOB_WAITING ? ", \"waiting\": true" : "");
	bool object = state == JOB_DONE && payload && payload[0] == '{';
	/* a failure as libfray's {"error": ..., "input": ...}: its members */
	bool members = state == JOB_FAILED && payload && payload[0] == '{';
	bool words = !object && !members && payload && (state == JOB_DONE || state == JOB_FAILED);
	size_t plen = object || members ? strlen(payload) : words ? fray_json_string(payload, NULL, 0) : 0;
	while ((object || members) && plen > 0 && (payload[plen - 1] == '\n' || (members && payload[plen - 1] == '}')))
		plen--;
	size_t cap = (size_t)nh + plen + 64;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	size_t n = (size_t)nh;
	memcpy(s, head, n);
	if (object) {
		n += (size_t)snprintf(s + n, cap - n, ", \"result\": ");
		memcpy(s + n, payload, plen);
		n += plen;
	} else if (members) {
		n += (size_t)snprintf(s + n, cap - n, ", ");
		memcpy(s + n, payload + 1, plen - 1);
		n += plen - 1;
		n += (size_t)snprintf(s + n, cap - n, ", \"status\": %u", status);
	} else if (words) {
		n += (size_t)snprintf(s + n, cap - n, ", \"%s\": ", state == JOB_DONE ? "text" : "error");
		n += fray_json_string(payload, s + n, cap - n);
		if (state == JOB_FAILED)
			n += (size_t)snprintf(s + n, cap - n, ", \"status\": %u", status);
	}
	snprintf(s + n, cap - n, "}\n");
	return s;
}

static void run_waiting(serve_jobs *j);

static void *run_job(void *arg)
{
	void **args = arg;
	serve_jobs *j = args[0];
	job *b = args[1];
	free(args);
	lower_priority();
	char *response = NULL, *error = NULL, *got;
	bool failed;
	fray_request_opts watch = {0};
	serve_watch_attach(&b->watch, &watch);
	unsigned status = fray_api_call("api/v1/jobs", b->request, &watch, &got, &failed);
	if (!got) {
		error = strdup("out of memory");
	} else if (failed || (status != 200 && b->watch.timed_out)) {
		error = strdup(serve_watch_message(&b->watch, got));
		free(got);
	} else if (status != 200) { /* the failure's {"error", "input"}: its members go into the job's */
		error = got;
	} else {
		response = got;
	}
	double seconds = serve_watch_seconds(&b->watch);
	job_state state = response ? JOB_DONE : b->watch.stop && !b->watch.timed_out ? JOB_STOPPED : JOB_FAILED;
	/* the answer every GET shares, built here once; the raw result goes */
	char *body = job_body(b, state, seconds, response ? response : error ? error : "out of memory", status);
	size_t len = body ? strlen(body) : 0;
	free(response);
	free(error);
	serve_answer *answer = serve_answer_new(body, len);
	if (!answer) { /* the budget (or memory) is out: said as the job's error */
		char msg[160];
		snprintf(msg, sizeof msg, "this answer (%zu MiB) does not fit: the answers this server holds are at "
			 "its memory budget (%zu MiB); read or delete a finished job, and ask again", (len >> 20) + 1,
			 serve_memory_budget() >> 20);
		body = job_body(b, JOB_FAILED, seconds, msg, 503);
		answer = serve_answer_new(body, body ? strlen(body) : 0);
		state = JOB_FAILED;
	}
	pthread_mutex_lock(&j->lock);
	b->answer = answer;
	b->state = state;
	b->ended = time(NULL);
	run_waiting(j); /* its place is free */
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

/* Forgets ended jobs past their time, and the ones deleted while running
 * once their thread ended. Under the lock. */
static void sweep(serve_jobs *j, time_t now)
{
	for (int i = 0; i < SERVE_JOBS_KEPT; i++) {
		job *b = &j->slots[i];
		if (!ended(b))
			continue;
		if (b->forgotten || now - b->ended > SERVE_JOBS_KEEP_S) {
			join_ended(b);
			clear_slot(b);
		}
	}
}

/* Starts b's thread (its time budget from now). false when no thread can
 * be had. Under the lock. */
static bool launch(serve_jobs *j, job *b)
{
	void **args = malloc(2 * sizeof *args);
	if (!args)
		return false;
	args[0] = j;
	args[1] = b;
	serve_watch_start(&b->watch, j->seconds);
	job_state was = b->state;
	b->state = JOB_RUNNING;
	if (pthread_create(&b->thread, NULL, run_job, args) != 0) {
		b->state = was;
		free(args);
		return false;
	}
	return true;
}

static int running_jobs(const serve_jobs *j)
{
	int n = 0;
	for (int i = 0; i < SERVE_JOBS_KEPT; i++)
		n += j->slots[i].state == JOB_RUNNING;
	return n;
}

/* The waiting jobs, in their turn, while a place is free (one a client
 * waits at most, so the line is fair between addresses). Under the lock. */
static void run_waiting(serve_jobs *j)
{
	while (!j->stopping && running_jobs(j) < SERVE_JOBS_RUNNING) {
		job *next = NULL;
		for (int i = 0; i < SERVE_JOBS_KEPT; i++) {
			job *b = &j->slots[i];
			if (b->state == JOB_WAITING && (!next || b->turn < next->turn))
				next = b;
		}
		if (!next || !launch(j, next))
			return; /* none waits, or no thread now: the next job's end tries again */
	}
}

/* A free slot, else the one that ended first, forgotten; NULL with why
 * when this client has a job running or waiting (one a client: an address
 * cannot hold both places while another waits) or every slot runs or
 * waits. Under the lock. */
static job *slot_for_new(serve_jobs *j, const char *client, const char **why)
{
	int mine = 0;
	job *free_slot = NULL, *oldest = NULL;
	for (int i = 0; i < SERVE_JOBS_KEPT; i++) {
		job *b = &j->slots[i];
		if (b->state == JOB_RUNNING || b->state == JOB_WAITING) {
			mine += strcmp(b->client, client) == 0;
		} else if (b->state == JOB_FREE) {
			free_slot = free_slot ? free_slot : b;
		} else if (!oldest || b->ended < oldest->ended) {
			oldest = b;
		}
	}
	*why = mine >= SERVE_JOBS_PER_CLIENT ? "busy: a job of yours is running or waiting (one a client); stop it or wait"
	       : !free_slot && !oldest ? "busy: 16 jobs are running or waiting; ask again soon"
				       : NULL;
	if (*why)
		return NULL;
	if (!free_slot) {
		join_ended(oldest);
		clear_slot(oldest);
		free_slot = oldest;
	}
	return free_slot;
}

void serve_jobs_start(serve_jobs *j, const char *client, const char *body, size_t len, serve_reply *out)
{
	/* a request that is not even JSON is refused now, as api/v1/run would */
	char *text = serve_request_text(body, len, true, out);
	if (!text)
		return;
	char key[CLIENT_MAX];
	copy_client(key, client);
	pthread_mutex_lock(&j->lock);
	sweep(j, time(NULL));
	const char *why = NULL;
	job *b = j->stopping ? NULL : slot_for_new(j, key, &why);
	if (!b) {
		pthread_mutex_unlock(&j->lock);
		free(text);
		serve_reply_error(out, 503, why ? why : "the server is stopping");
		return;
	}
	if (!serve_random_hex(b->id)) {
		pthread_mutex_unlock(&j->lock);
		free(text);
		serve_reply_error(out, 503, "no random numbers for a job id");
		return;
	}
	b->request = text;
	b->state = JOB_WAITING; /* in the line, behind the ones already waiting */
	b->turn = j->turns++;
	memcpy(b->client, key, sizeof key);
	run_waiting(j);
	if (b->state == JOB_WAITING && running_jobs(j) < SERVE_JOBS_RUNNING) { /* a place, but no thread */
		clear_slot(b);
		pthread_mutex_unlock(&j->lock);
		serve_reply_error(out, 503, "no thread for a job");
		return;
	}
	char *reply = malloc(112);
	if (reply)
		snprintf(reply, 112, "{\"id\": \"%s\", \"state\": \"running\"%s}\n", b->id,
			 b->state == JOB_WAITING ? ", \"waiting\": true" : "");
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
		if (b->state != JOB_FREE && !b->forgotten && serve_same_secret(b->id, id, 32))
			return b;
	}
	return NULL;
}

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
	if (b->state != JOB_RUNNING && b->answer) { /* shared: no copy */
		out->status = 200;
		out->type = "application/json";
		out->shared = serve_answer_ref(b->answer);
		out->len = serve_answer_len(b->answer);
		pthread_mutex_unlock(&j->lock);
		return;
	}
	char *reply = job_body(b, b->state, b->state == JOB_WAITING ? 0 : serve_watch_seconds(&b->watch), NULL, 0);
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
	if (b->state == JOB_WAITING) /* no thread: forgotten now */
		clear_slot(b);
	else
		b->forgotten = true; /* its slot is free once its thread has ended */
	sweep(j, time(NULL));
	pthread_mutex_unlock(&j->lock);
	char *reply = malloc(96);
	if (reply)
		snprintf(reply, 96, "{\"id\": \"%s\", \"state\": \"stopped\"}\n", id);
	serve_reply_text(out, 200, "application/json", reply);
}
