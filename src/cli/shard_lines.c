/* fray merge of a sweep's shard read a line at a time (issue 45 item 4):
 * the run's lines, then one point a line (the layout fray writes:
 * fray_sweep_shard_text), each line read as a document of its own and its
 * point added at once. A shard of any number of points is merged in memory
 * bounded by a line and the sweep's counts, past the limits a document
 * read whole has (4 MiB, 32768 values in one flow collection). Every
 * problem is told at its file:line:col. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim_out.h"

enum {
	LINE_MAX_BYTES = 1 << 20, /* a point's line is at most ~100 KB (16 fields x 256 values) */
	HEAD_MAX_LINES = 8,       /* fray writes the run on 4 */
	HEAD_MAX_BYTES = 1 << 16
};

typedef struct lines {
	const char *path;
	FILE *f;
	char *buf;                /* LINE_MAX_BYTES + 1: a line and a NUL */
	size_t len;
	char *head;               /* HEAD_MAX_BYTES + 3: the run's lines, `]}` and a NUL */
	size_t head_len;
	long line;                /* the line in buf, 1-based */
} lines;

/* The next line into l->buf, its newline dropped: 1 a line, 0 the end,
 * -1 a line too long, -2 a read error. */
static int next_line(lines *l)
{
	size_t n = 0;
	int c;
	while ((c = getc(l->f)) != EOF && c != '\n') {
		if (n == LINE_MAX_BYTES)
			return -1;
		l->buf[n++] = (char)c;
	}
	if (c == EOF && ferror(l->f))
		return -2;
	if (c == EOF && n == 0)
		return 0;
	l->buf[n] = '\0';
	l->len = n;
	l->line++;
	return 1;
}

static bool ends_with(const char *s, size_t len, const char *end)
{
	size_t k = strlen(end);
	return len >= k && memcmp(s + len - k, end, k) == 0;
}

/* A message of a document read from the line at line: its "NAME:1:COL"
 * said at that line. */
static void tell_at(const char *cmd, const char *name, long line, const char *msg)
{
	size_t k = strlen(name);
	if (strncmp(msg, name, k) == 0 && msg[k] == ':' && isdigit((unsigned char)msg[k + 1])) {
		char *end;
		long at = strtol(msg + k + 1, &end, 10);
		if (*end == ':') {
			cli_error(cmd, EXIT_BAD_INPUT, "%s:%ld%s", name, at + line - 1, end);
			return;
		}
	}
	cli_error(cmd, EXIT_BAD_INPUT, "%s", msg);
}

/* Reads text (lines from line on) as a document; problems told. */
static fray_doc *load_at(const char *cmd, fray_ctx *ctx, const char *name, long line, const char *text, size_t len,
			 int *status)
{
	fray_doc *doc = NULL;
	if (fray_doc_load_string(ctx, name, text, len, &doc) != FRAY_OK) {
		if (fray_ctx_status(ctx) == FRAY_ERR_NOMEM) {
			*status = cli_fail(cmd, ctx);
		} else {
			tell_at(cmd, name, line, fray_ctx_message(ctx));
			*status = EXIT_BAD_INPUT;
		}
		return NULL;
	}
	return doc;
}

/* Prints doc's problems at line; the status. */
static int told(const char *cmd, fray_doc *doc, const char *name, long line)
{
	for (size_t e = 0; e < fray_doc_error_count(doc); e++)
		tell_at(cmd, name, line, fray_doc_error_msg(doc, e));
	return fray_doc_error_count(doc) ? EXIT_BAD_INPUT : EXIT_OK;
}

static const char LAYOUT[] = "not a sweep shard as fray writes it (the run on the first lines, up to "
			     "\"points\": [, then one point a line): write it again with fray adbg sweep --shard";

/* The run's lines into l->head, up to the one ending `"points": [` (then
 * `]}` is put after it) or `"points": []}`; *empty says which. 1 found, 0
 * not the layout, -1 a line too long, -2 a read error. */
static int read_head(lines *l, bool *empty)
{
	size_t used = 0;
	for (int i = 0; i < HEAD_MAX_LINES; i++) {
		int r = next_line(l);
		if (r <= 0)
			return r;
		if (used + l->len + 1 > HEAD_MAX_BYTES)
			return 0;
		memcpy(l->head + used, l->buf, l->len);
		used += l->len;
		bool open = ends_with(l->head, used, "\"points\": ["), none = ends_with(l->head, used, "\"points\": []}");
		if (open || none) {
			if (open) {
				memcpy(l->head + used, "]}", 2);
				used += 2;
			}
			l->head[used] = '\0';
			l->head_len = used;
			*empty = none;
			return 1;
		}
		l->head[used++] = '\n';
	}
	return 0;
}

/* The file opened for reading a line at a time; its problems printed
 * (cmd NULL: only the status, the caller will read it again and say). */
static int open_lines(const char *cmd, fray_ctx *ctx, const char *path, lines *l)
{
	*l = (lines){.path = path};
	int fd = -1;
	if (fray_input_open(ctx, path, SIZE_MAX / 2, &fd) != FRAY_OK)
		return cmd ? cli_fail(cmd, ctx) : EXIT_BAD_INPUT;
	l->f = fd == 0 ? stdin : fdopen(fd, "r");
	if (!l->f && fd > 0)
		close(fd);
	l->buf = malloc(LINE_MAX_BYTES + 1);
	l->head = malloc(HEAD_MAX_BYTES + 3);
	if (!l->f || !l->buf || !l->head)
		return cmd ? cli_error(cmd, EXIT_RUNTIME, "%s: %s", path, l->f ? "out of memory" : strerror(errno))
			   : EXIT_RUNTIME;
	return EXIT_OK;
}

static void close_lines(lines *l)
{
	if (l->f && l->f != stdin)
		fclose(l->f);
	free(l->buf);
	free(l->head);
}

static int line_problem(const char *cmd, const lines *l, int r)
{
	if (r == -1)
		return cli_error(cmd, EXIT_BAD_INPUT, "%s:%ld: a line longer than %d bytes: %s", l->path, l->line + 1,
				 LINE_MAX_BYTES, LAYOUT);
	return cli_error(cmd, EXIT_RUNTIME, "%s: cannot read: %s", l->path, strerror(errno));
}

bool shard_lines_is_sweep(const char *path)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	lines l = {0};
	bool empty = false, sweep = false;
	/* standard input can be read once: the whole-file reader says */
	if (ctx && strcmp(path, "-") != 0 && open_lines(NULL, ctx, path, &l) == EXIT_OK && read_head(&l, &empty) == 1) {
		fray_doc *doc = NULL;
		sweep = fray_doc_load_string(ctx, path, l.head, l.head_len, &doc) == FRAY_OK && fray_shard_is_sweep(doc);
		fray_doc_free(doc);
	}
	close_lines(&l);
	fray_ctx_free(ctx);
	return sweep;
}

/* Each point line after the head, added to mg as it is read. */
static int merge_points(const char *cmd, fray_ctx *ctx, lines *l, fray_sweep_merge *mg, const fray_sweep_shard *sh,
			fray_merge_verdict *verdict)
{
	fray_sweep_shard_point p = {0};
	int status = EXIT_OK;
	for (uint64_t k = sh->lo; k < sh->hi && status == EXIT_OK && *verdict == FRAY_MERGE_ADDED; k++) {
		int r = next_line(l);
		if (r < 0) {
			status = line_problem(cmd, l, r);
			break;
		}
		if (r == 0) {
			status = cli_error(cmd, EXIT_BAD_INPUT, "%s: ends after %" PRIu64 " of its %" PRIu64 " points "
					   "(cut short?)", l->path, k - sh->lo, sh->hi - sh->lo);
			break;
		}
		const char *end = k + 1 < sh->hi ? "," : "]}";
		if (!ends_with(l->buf, l->len, end)) {
			status = cli_error(cmd, EXIT_BAD_INPUT, "%s:%ld: expected point %" PRIu64 " on a line ending in "
					   "'%s': %s", l->path, l->line, k + 1, end, LAYOUT);
			break;
		}
		fray_doc *doc = load_at(cmd, ctx, l->path, l->line, l->buf, l->len - strlen(end), &status);
		if (!doc)
			break;
		if (!fray_sweep_shard_read_point(doc, fray_doc_root(doc), sh, k, &p))
			status = told(cmd, doc, l->path, l->line);
		else
			*verdict = fray_sweep_merge_point(mg, sh, &p);
		fray_doc_free(doc);
	}
	fray_sim_free(p.sim);
	int r;
	if (status == EXIT_OK && *verdict == FRAY_MERGE_ADDED && (r = next_line(l)) != 0)
		status = r < 0 ? line_problem(cmd, l, r)
			       : cli_error(cmd, EXIT_BAD_INPUT, "%s:%ld: more after the shard's last point", l->path,
					   l->line);
	return status;
}

int shard_lines_merge(const char *cmd, fray_ctx *ctx, const char *path, fray_sweep_merge *mg, fray_sweep_shard *sh,
		      fray_merge_verdict *verdict)
{
	*verdict = FRAY_MERGE_ADDED;
	lines l = {0};
	int status = open_lines(cmd, ctx, path, &l);
	bool empty = false;
	int r = status == EXIT_OK ? read_head(&l, &empty) : 1;
	if (status == EXIT_OK && r <= 0)
		status = r == 0 ? cli_error(cmd, EXIT_BAD_INPUT, "%s: %s", path, LAYOUT) : line_problem(cmd, &l, r);
	fray_doc *doc = NULL;
	if (status == EXIT_OK && (doc = load_at(cmd, ctx, path, 1, l.head, l.head_len, &status))) {
		fray_sweep_shard_free(sh);
		if (!fray_sweep_shard_read_head(ctx, doc, sh))
			status = told(cmd, doc, path, 1);
		fray_doc_free(doc);
	}
	if (status == EXIT_OK && empty != (sh->lo == sh->hi))
		status = cli_error(cmd, EXIT_BAD_INPUT, "%s: the shard has %" PRIu64 " points: %s", path,
				   sh->hi - sh->lo, LAYOUT);
	if (status == EXIT_OK)
		*verdict = fray_sweep_merge_begin(mg, sh);
	if (status == EXIT_OK && *verdict == FRAY_MERGE_ADDED)
		status = merge_points(cmd, ctx, &l, mg, sh, verdict);
	close_lines(&l);
	return status;
}
