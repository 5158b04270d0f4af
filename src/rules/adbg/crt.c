/* The melee CRT (RULES-NOTES G1): "use the standard game's melee CRT" says
 * 19.2.3, and the table is not in the text, so it is user data. Columns are
 * odds "a:b" in increasing order; rows are modified die rolls; each cell
 * "A/D" gives the attacker's and defender's losses: a number of units
 * eliminated, R (routed and removed, ruling R8) or - (none). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "adbg_internal.h"

static bool parse_ratio(const char *s, int *num, int *den)
{
	char *end;
	long a = strtol(s, &end, 10);
	if (end == s || *end != ':' || a < 1 || a > 99)
		return false;
	const char *t = end + 1;
	long b = strtol(t, &end, 10);
	if (end == t || *end || b < 1 || b > 99)
		return false;
	*num = (int)a;
	*den = (int)b;
	return true;
}

static bool parse_loss(const char *s, size_t len, int *out)
{
	if (len == 1 && (s[0] == 'R' || s[0] == 'r')) {
		*out = FRAY_ADBG_ROUTE_ALL;
		return true;
	}
	if (len == 1 && s[0] == '-') {
		*out = 0;
		return true;
	}
	if (len == 1 && s[0] >= '0' && s[0] <= '9') {
		*out = s[0] - '0';
		return true;
	}
	return false;
}

static bool parse_cell(const char *s, int *att, int *def)
{
	const char *slash = strchr(s, '/');
	return slash && parse_loss(s, (size_t)(slash - s), att) &&
	       parse_loss(slash + 1, strlen(slash + 1), def);
}

FRAY_API bool fray_adbg_crt_read(fray_doc *doc, const fray_node *n,
				 fray_adbg_crt *crt)
{
	memset(crt, 0, sizeof *crt);
	size_t before = fray_doc_error_count(doc);
	if (!fray_doc_expect(doc, n, FRAY_NODE_MAP, "a melee CRT"))
		return false;
	static const char *const keys[] = {"name", "columns", "rows"};
	fray_doc_known_keys(doc, n, keys, 3);
	const fray_node *name = fray_doc_field(doc, n, "name", false);
	const char *s;
	if (name && fray_doc_string(doc, name, "the table's name", &s))
		snprintf(crt->name, sizeof crt->name, "%s", s);
	const fray_node *cols = fray_doc_field(doc, n, "columns", true);
	if (cols && fray_doc_expect(doc, cols, FRAY_NODE_SEQ, "'columns'")) {
		size_t nc = fray_node_len(cols);
		if (nc < 1 || nc > FRAY_ADBG_CRT_MAX_COLS)
			fray_doc_error(doc, cols, "expected 1 to %d columns, found %zu",
				       FRAY_ADBG_CRT_MAX_COLS, nc);
		for (size_t i = 0; i < nc && i < FRAY_ADBG_CRT_MAX_COLS; i++) {
			const fray_node *c = fray_node_item(cols, i);
			int a = 0, b = 1;
			if (!fray_node_scalar(c) || !parse_ratio(fray_node_scalar(c), &a, &b)) {
				fray_doc_error(doc, c, "expected odds such as \"3:1\" or \"1:2\"");
				continue;
			}
			/* increasing odds: a/b > previous */
			if (i > 0 && (int64_t)a * crt->col_den[i - 1] <= (int64_t)crt->col_num[i - 1] * b)
				fray_doc_error(doc, c, "expected columns in increasing odds");
			crt->col_num[i] = a;
			crt->col_den[i] = b;
		}
		crt->ncols = (int)(nc < FRAY_ADBG_CRT_MAX_COLS ? nc : FRAY_ADBG_CRT_MAX_COLS);
	}
	const fray_node *rows = fray_doc_field(doc, n, "rows", true);
	if (rows && fray_doc_expect(doc, rows, FRAY_NODE_MAP, "'rows' (die roll: cells)")) {
		size_t nr = fray_node_len(rows);
		if (nr < 1 || nr > FRAY_ADBG_CRT_MAX_ROWS)
			fray_doc_error(doc, rows, "expected 1 to %d rows, found %zu",
				       FRAY_ADBG_CRT_MAX_ROWS, nr);
		for (size_t i = 0; i < nr && i < FRAY_ADBG_CRT_MAX_ROWS; i++) {
			int64_t roll;
			const fray_node *k = fray_node_key(rows, i);
			if (!fray_doc_int(doc, k, -9, 19, "a die roll", &roll))
				continue;
			if (i == 0)
				crt->first_row = (int)roll;
			else if (roll != crt->first_row + (int64_t)i)
				fray_doc_error(doc, k, "expected row %d: rows are consecutive die rolls in order",
					       crt->first_row + (int)i);
			const fray_node *cells = fray_node_value(rows, i);
			if (!fray_doc_expect(doc, cells, FRAY_NODE_SEQ, "a row of cells"))
				continue;
			if ((int)fray_node_len(cells) != crt->ncols) {
				fray_doc_error(doc, cells, "expected %d cells, one per column, found %zu",
					       crt->ncols, fray_node_len(cells));
				continue;
			}
			for (int c = 0; c < crt->ncols; c++) {
				const fray_node *cell = fray_node_item(cells, (size_t)c);
				int *loss = crt->losses[i][c];
				if (!fray_node_scalar(cell) ||
				    !parse_cell(fray_node_scalar(cell), &loss[0], &loss[1]))
					fray_doc_error(doc, cell, "expected a cell \"attacker/defender\" "
						       "such as \"1/R\": each a count 0-9, R or -");
			}
		}
		crt->nrows = (int)(nr < FRAY_ADBG_CRT_MAX_ROWS ? nr : FRAY_ADBG_CRT_MAX_ROWS);
	}
	return fray_doc_error_count(doc) == before;
}

FRAY_API fray_status fray_adbg_crt_load(fray_ctx *ctx, const char *path,
					fray_adbg_crt *out)
{
	fray_doc *doc;
	fray_status st = fray_doc_load_file(ctx, path, &doc);
	if (st != FRAY_OK)
		return st;
	st = fray_adbg_crt_from_doc(doc, out);
	fray_doc_free(doc);
	return st;
}

FRAY_API fray_status fray_adbg_crt_from_doc(fray_doc *doc, fray_adbg_crt *out)
{
	if (!doc || !out)
		return FRAY_ERR_INPUT;
	const fray_node *root = fray_doc_root(doc);
	if (!root)
		fray_doc_error(doc, NULL, "empty file: expected a melee CRT");
	else
		fray_adbg_crt_read(doc, root, out);
	out->digest = fray_doc_digest(doc);
	return fray_doc_status(doc);
}

FRAY_API int fray_adbg_crt_column(const fray_adbg_crt *crt, int64_t a, int64_t d)
{
	if (d <= 0)
		return crt->ncols - 1;
	int col = 0;
	for (int c = 0; c < crt->ncols; c++)
		if (a * crt->col_den[c] >= d * crt->col_num[c])
			col = c;
	return col;
}

FRAY_API void fray_adbg_crt_label(const fray_adbg_crt *crt, int col, char *dst,
				  size_t cap)
{
	snprintf(dst, cap, "%d:%d", crt->col_num[col], crt->col_den[col]);
}
