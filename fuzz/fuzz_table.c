/* Fuzz target: a game file of fray table (docs/table.md) and an action on
 * it. The input's first line is the action, its words separated by tabs
 * (a unit's name may hold spaces, never a control character); the rest is
 * the game file. The file is read as every reader reads it: status (text
 * and JSON), the log (text, Markdown, JSON) and the report's page, each in
 * memory and checked for what its format needs (JSON that parses strictly,
 * no control character on a terminal, Markdown whose every line from the
 * file stays inside its fence, a page with no script). Then the action is
 * run as `fray table GAME ACTION...` on a copy in a temporary folder:
 * refused, it leaves the file byte for byte; done, the file it wrote
 * reads back, and so does its undo. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <fray/fray.h>
#include "cli.h"
#include "table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* cmd_table's help lives in cmd_help.c, which is not the reader fuzzed */
bool cli_help_topic(FILE *out, const char *topic)
{
	(void)out;
	(void)topic;
	return true;
}

static char dir[64], game[96];

static void remove_dir(void)
{
	unlink(game);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(dir, sizeof dir, "%s", "/tmp/fray-fuzz-table-XXXXXX");
	if (!mkdtemp(dir))
		abort();
	snprintf(game, sizeof game, "%s/game.yaml", dir);
	atexit(remove_dir);
	/* what the command prints is not what is checked here (AddressSanitizer
	 * writes to the descriptor, not to these); no terminal to ask at */
	FILE *null = fopen("/dev/null", "w");
	if (!null || !freopen("/dev/null", "r", stdin))
		abort();
	stdout = null;
	stderr = null;
	return 0;
}

/* ---- JSON, strictly (RFC 8259): what a program reading fray's JSON needs ---- */

static const char *json_value(const char *p, int depth);

static const char *json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *json_str(const char *p)
{
	if (*p++ != '"')
		return NULL;
	for (; *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p != '\\')
			continue;
		p++;
		if (*p == 'u') {
			for (int i = 1; i <= 4; i++)
				if (!isxdigit((unsigned char)p[i]))
					return NULL;
			p += 4;
		} else if (!strchr("\"\\/bfnrt", *p) || !*p) {
			return NULL;
		}
	}
	return p + 1;
}

static const char *json_num(const char *p)
{
	p += *p == '-';
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (isdigit((unsigned char)*p))
			p++;
	else
		return NULL;
	if (*p == '.') {
		if (!isdigit((unsigned char)*++p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p += 1 + (p[1] == '+' || p[1] == '-');
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return p;
}

static const char *json_items(const char *p, int depth, char close, bool members)
{
	p = json_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		p = json_ws(p);
		if (members) {
			if (!(p = json_str(p)))
				return NULL;
			p = json_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		if (!(p = json_value(p, depth + 1)))
			return NULL;
		p = json_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *json_value(const char *p, int depth)
{
	if (depth > 200)
		return NULL;
	p = json_ws(p);
	switch (*p) {
	case '{':
		return json_items(p, depth, '}', true);
	case '[':
		return json_items(p, depth, ']', false);
	case '"':
		return json_str(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		return json_num(p);
	}
}

static void check_json(const char *s)
{
	const char *end = json_value(s, 0);
	if (!end || *json_ws(end))
		abort();
}

/* ---- the other formats ---- */

/* For a terminal: no control but the line break (C1 as UTF-8 too). */
static void check_terminal(const char *s)
{
	for (const unsigned char *u = (const unsigned char *)s; *u; u++)
		if ((*u < 0x20 && *u != '\n') || *u == 0x7F || (*u == 0xC2 && u[1] >= 0x80 && u[1] <= 0x9F))
			abort();
}

/* Markdown: outside its fences, only fray's own lines (the title, the
 * seed, a heading an action); a fence closes only on its own length. */
static void check_markdown(char *s)
{
	check_terminal(s);
	size_t fence = 0;
	for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n")) {
		size_t run = strspn(line + strspn(line, " "), "~`");
		if (fence) {
			if (run >= fence && line[strspn(line, " ") + run] == '\0' && strspn(line, " ") < 4)
				fence = 0;
			continue;
		}
		if (run >= 3 && strspn(line, " ") < 4)
			fence = run;
		else if (strncmp(line, "# ", 2) && strncmp(line, "## ", 3) && strncmp(line, "Seed ", 5))
			abort();
	}
}

static void check_html(const char *s)
{
	for (const char *p = s; (p = strchr(p, '<')); p++)
		if (!strncasecmp(p + 1, "script", 6))
			abort();
}

typedef void (*printer)(const table_game *g, FILE *f, fray_format how);

static void print_status(const table_game *g, FILE *f, fray_format how)
{
	frayi_table_print_status(g, how, f);
}

static void print_log(const table_game *g, FILE *f, fray_format how)
{
	frayi_table_print_log(g, how, f);
}

/* Every reader of a game that loaded, its output checked. */
static void read_all(const table_game *g)
{
	static const struct {
		printer print;
		fray_format how;
		void (*check)(char *);
	} readers[] = {
		{print_status, FRAY_FORMAT_TEXT, (void (*)(char *))check_terminal},
		{print_status, FRAY_FORMAT_JSON, (void (*)(char *))check_json},
		{print_log, FRAY_FORMAT_TEXT, (void (*)(char *))check_terminal},
		{print_log, FRAY_FORMAT_MARKDOWN, check_markdown},
		{print_log, FRAY_FORMAT_JSON, (void (*)(char *))check_json},
	};
	for (size_t i = 0; i < sizeof readers / sizeof *readers; i++) {
		char *out = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&out, &len);
		if (!f)
			abort();
		readers[i].print(g, f, readers[i].how);
		if (fclose(f) != 0)
			abort();
		readers[i].check(out);
		free(out);
	}
	char *html = frayi_table_report_html(g, "");
	if (!html)
		abort();
	check_html(html);
	free(html);
}

/* The game at path, loaded (and read by every reader when read): true
 * when it loads. */
static bool load(const char *path, bool read)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	table_game *g = calloc(1, sizeof *g);
	if (!ctx || !g)
		abort();
	g->cmd = "table";
	bool ok = frayi_table_load(g, ctx, path) == EXIT_OK;
	if (ok && read)
		read_all(g);
	frayi_table_free(g);
	free(g);
	fray_ctx_free(ctx);
	return ok;
}

static char *file_text(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		abort();
	char *buf = malloc(FRAY_DOC_MAX_BYTES + 1);
	if (!buf)
		abort();
	*len = fread(buf, 1, FRAY_DOC_MAX_BYTES + 1, f);
	fclose(f);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	if (!nl || size > FRAY_DOC_MAX_BYTES)
		return 0;
	/* the action's words: `fray table GAME WORD...` */
	size_t alen = (size_t)(nl - data);
	char *action = malloc(alen + 1), *argv[24] = {game};
	int argc = 1;
	if (!action)
		abort();
	memcpy(action, data, alen);
	action[alen] = '\0';
	for (char *w = strtok(action, "\t"); w && argc < 23; w = strtok(NULL, "\t"))
		argv[argc++] = w;
	/* `table new` writes where it is told: not here */
	if (argc < 2 || !strcmp(argv[1], "new") || strlen(action) != alen) {
		free(action);
		return 0;
	}
	FILE *f = fopen(game, "wb");
	if (!f || fwrite(nl + 1, 1, size - alen - 1, f) != size - alen - 1 || fclose(f) != 0)
		abort();
	if (load(game, true)) {
		size_t blen, alen2;
		char *before = file_text(game, &blen);
		int status = cmd_table(argc, argv);
		char *after = file_text(game, &alen2);
		if (status != EXIT_OK && (blen != alen2 || memcmp(before, after, blen) != 0))
			abort(); /* refused, yet written */
		if (status == EXIT_OK && !load(game, true))
			abort(); /* written, and fray's own reader refuses it */
		char *undo[] = {game, "undo"};
		if (status == EXIT_OK && alen2 != blen && cmd_table(2, undo) == EXIT_OK && !load(game, false))
			abort();
		free(before);
		free(after);
	}
	unlink(game);
	free(action);
	return 0;
}
