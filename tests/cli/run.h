/* Running the fray binary from a test: exit status, stdout, stderr. */
#ifndef FRAY_TEST_RUN_H
#define FRAY_TEST_RUN_H

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

typedef struct result {
	int status;
	char out[65536];
	char err[4096];
} result;

static inline void slurp(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
}

/* Starts fray with the given arguments (NULL-terminated) and file actions. */
static inline pid_t spawn_fray(const char *const *args, const posix_spawn_file_actions_t *fa)
{
	char *argv[32];
	int n = 0;
	argv[n++] = (char *)FRAY_BIN;
	for (; args[n - 1]; n++)
		argv[n] = (char *)args[n - 1];
	argv[n] = NULL;
	pid_t pid;
	assert_int_equal(posix_spawn(&pid, FRAY_BIN, fa, NULL, argv, environ), 0);
	return pid;
}

/* Runs fray with the given arguments (NULL-terminated), its standard
 * input from in_path (NULL: the test's own), and SIGTERM sent after
 * term_after_ms milliseconds (0: never). fray must exit, not be killed. */
static inline void run_io(result *res, const char *const *args, const char *in_path, int term_after_ms)
{
	char out[] = "/tmp/fray-cli-out-XXXXXX", err[] = "/tmp/fray-cli-err-XXXXXX";
	int fo = mkstemp(out), fe = mkstemp(err);
	assert_true(fo >= 0 && fe >= 0);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fo, 1);
	posix_spawn_file_actions_adddup2(&fa, fe, 2);
	if (in_path)
		posix_spawn_file_actions_addopen(&fa, 0, in_path, O_RDONLY, 0);
	pid_t pid = spawn_fray(args, &fa);
	if (term_after_ms) {
		struct timespec wait = {term_after_ms / 1000, (long)(term_after_ms % 1000) * 1000000};
		nanosleep(&wait, NULL);
		kill(pid, SIGTERM);
	}
	int ws;
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	assert_true(WIFEXITED(ws));
	res->status = WEXITSTATUS(ws);
	posix_spawn_file_actions_destroy(&fa);
	close(fo);
	close(fe);
	slurp(out, res->out, sizeof res->out);
	slurp(err, res->err, sizeof res->err);
	unlink(out);
	unlink(err);
}

static inline void run(result *res, const char *const *args)
{
	run_io(res, args, NULL, 0);
}

#define RUN(res, ...) run((res), (const char *const[]){__VA_ARGS__, NULL})

/* Runs fray with args (NULL-terminated) and checks it is refused as bad
 * input: exit status 2, nothing on stdout, exactly err on stderr. */
static inline void expect_bad_input(const char *const *args, const char *err)
{
	static result r;
	run(&r, args);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, err);
}

#endif
