/* Presidio unit types are found by name: two names of 60 bytes sharing
 * their first 47 (a name keeps 47) must not become one type. Each is
 * refused at its key's file:line:col; 47 bytes still read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../../test_util.h"
#include <fray/fray.h>
#include <fray/presidio.h>

static bool read_units(const char *a, const char *b, char *got, size_t cap, fray_presidio_units *u)
{
	char text[1024];
	snprintf(text, sizeof text,
		 "units:\n"
		 "  %s: {ranged: 1, melee: 1, move: 2, recon: 1, camou: 1, morale: average}\n"
		 "  %s: {ranged: 2, melee: 2, move: 2, recon: 1, camou: 1, morale: average}\n",
		 a, b);
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(ctx, "units.yaml", text, strlen(text), &doc), FRAY_OK);
	bool ok = fray_presidio_units_read(doc, u);
	got[0] = '\0';
	for (size_t i = 0; i < fray_doc_error_count(doc); i++)
		snprintf(got + strlen(got), cap - strlen(got), "%s\n", fray_doc_error_msg(doc, i));
	fray_doc_free(doc);
	return ok;
}

static void long_unit_type_names_are_refused(void **state)
{
	(void)state;
	static fray_presidio_units u;
	char a[64], b[64], got[1024];
	memset(a, 'r', 47);
	memcpy(a + 47, "_rifles_one1", 13);
	memcpy(b, a, 61);
	b[58] = '2';
	assert_false(read_units(a, b, got, sizeof got, &u));
	assert_string_equal(got, "units.yaml:2:3: a unit type's name has at most 47 characters\n"
				 "units.yaml:3:3: a unit type's name has at most 47 characters\n");
	a[47] = '\0';
	memcpy(b, a, 48);
	b[46] = 's';
	memset(&u, 0, sizeof u);
	assert_true(read_units(a, b, got, sizeof got, &u));
	assert_int_equal(fray_presidio_unit_find(&u, b)->ranged, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(long_unit_type_names_are_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
