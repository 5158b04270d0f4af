/* Fuzz target: the YAML/JSON data reader and the scripted-policy checks on
 * top of it. Any input: a tree or a positioned message, never a crash. */
#include <stdint.h>
#include <stdlib.h>
#include <fray/fray.h>
#include "narrate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk(fray_doc *doc, const fray_node *n, int depth)
{
	if (!n || depth > FRAY_DOC_MAX_DEPTH + 1)
		abort();
	int64_t v;
	bool b;
	const char *s;
	fray_doc_int(doc, n, -5, 5, "x", &v);
	fray_doc_bool(doc, n, "x", &b);
	fray_doc_string(doc, n, "x", &s);
	for (size_t i = 0; i < fray_node_len(n); i++) {
		if (fray_node_kind_of(n) == FRAY_NODE_SEQ) {
			walk(doc, fray_node_item(n, i), depth + 1);
		} else {
			walk(doc, fray_node_key(n, i), depth + 1);
			walk(doc, fray_node_value(n, i), depth + 1);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc;
	if (fray_doc_load_string(ctx, "fuzz.yaml", (const char *)data, size, &doc) == FRAY_OK) {
		const fray_node *root = fray_doc_root(doc);
		if (root) {
			walk(doc, root, 0);
			static const char *const keys[] = {"answers", "kind"};
			if (fray_node_kind_of(root) == FRAY_NODE_MAP)
				fray_doc_known_keys(doc, root, keys, 2);
		}
		fray_doc_status(doc);
		fuzz_show_errors(doc);
		fray_doc_free(doc);
	} else if (fray_ctx_message(ctx)[0] == '\0') {
		abort();
	}
	fuzz_show(fray_ctx_message(ctx));
	fray_ctx_free(ctx);
	return 0;
}
