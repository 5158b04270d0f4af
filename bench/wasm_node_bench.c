/* The native half of bench/wasm_node_bench.js (issue 45 item 3): each line
 * of stdin is a request "PATH<TAB>BODY" (the body's JSON on one line); each
 * is answered by fray_api_call, as the WebAssembly build's fray_wasm_call
 * answers it, once and then for a quarter of the time to warm up, then
 * again and again until at least the given seconds of CPU time have passed
 * (the clock read after batches that double up to 64 calls, as in node). A line out
 * per request: "STATUS<TAB>CALLS<TAB>CPU SECONDS A CALL<TAB>WALL SECONDS A
 * CALL<TAB>ANSWER BYTES<TAB>FNV-1a OF THE ANSWER", so the script can check
 * that both builds gave the same bytes. Start-up is not timed.
 * Usage: wasm_node_bench [seconds a request, default 0.2] < requests */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fray/fray.h>
#include <fray/api.h>

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3u;
	return h;
}

static unsigned call(const char *path, const char *body, char **answer)
{
	bool is_message;
	*answer = NULL;
	return fray_api_call(path, body, NULL, answer, &is_message);
}

/* calls until budget seconds of CPU time: how many, in *cpu and *wall the seconds */
static unsigned long timed(const char *path, const char *body, double budget, double *cpu, double *wall)
{
	unsigned long calls = 0, batch = 1;
	double cpu0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), wall0 = clock_s(CLOCK_MONOTONIC);
	do {
		for (unsigned long j = 0; j < batch; j++) {
			char *answer;
			call(path, body, &answer);
			free(answer);
		}
		calls += batch;
		batch = batch < 32 ? 2 * batch : 64;
		*cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	} while (*cpu < budget);
	*wall = clock_s(CLOCK_MONOTONIC) - wall0;
	return calls;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 0.2;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, stdin)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		char *tab = strchr(line, '\t');
		if (!tab) {
			fprintf(stderr, "wasm_node_bench: a line without a tab\n");
			return 2;
		}
		*tab = '\0';
		const char *path = line, *body = tab + 1;
		char *answer;
		unsigned status = call(path, body, &answer); /* the warm-up: its answer is the one compared */
		size_t bytes = answer ? strlen(answer) : 0;
		uint64_t hash = answer ? fnv1a(answer) : 0;
		free(answer);
		double cpu, wall;
		timed(path, body, seconds / 4, &cpu, &wall);
		unsigned long calls = timed(path, body, seconds, &cpu, &wall);
		printf("%u\t%lu\t%.9f\t%.9f\t%zu\t%016" PRIx64 "\n", status, calls, cpu / (double)calls,
		       wall / (double)calls, bytes, hash);
		fflush(stdout);
	}
	free(line);
	return 0;
}
