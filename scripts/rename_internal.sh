#!/bin/sh
# Internal helpers take the frayi_ prefix (issue 42 item 4; docs/design.md,
# Symbols): fray_ is the public API, declared in include/fray/; a name the
# library's files share without declaring it there is frayi_. This renames
# the fixed list below, fray_X -> frayi_X, as whole words, in every text
# file of src/ tests/ fuzz/ bench/ examples/ docs/ and CMakeLists.txt that
# names one. Idempotent: a second run finds nothing to change.
#
# The list was generated once (issue 42) from the names libfray.a defines
# globally as fray_* that no public header declares (nm against clang's list
# of include/fray/*.h's declarations, as tests/core/declared_link.py makes
# it), plus the static inline helpers and types of the internal headers
# (src/**/*.h) named fray_*. The programs' own tables of embedded files
# take the programs' prefixes instead (serve_, cli_: docs/design.md,
# Symbols). tests/core/exports.sh keeps a new one from joining. A name a
# public header has since declared is left alone, and said.
#
# usage: scripts/rename_internal.sh [ROOT]   (default: this checkout)
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

names="
fray_alloc fray_binomial fray_calloc fray_copy_name fray_ctx_mallocs
fray_ctx_note_read fray_deal_nodes_free fray_deal_tables_max fray_dealloc
fray_dist_new_exact fray_enum_commit fray_enum_commit_small fray_enum_step
fray_enum_step_cut fray_fail fray_fnv1a fray_gmp_failed fray_gmp_guard
fray_gmp_live_bytes fray_grow fray_mpz_to_u128 fray_name_char
fray_nearest_name fray_nomem fray_q_to_double fray_realloc
fray_roller_begin_run fray_run_trials fray_shipped_examples fray_strdup
fray_tally fray_tally_fini fray_tally_hash fray_tally_init fray_tally_merge
fray_tally_prefetch fray_tally_reset fray_tally_slot fray_tally_slot_hashed
fray_tally_to_dist fray_threads_for_cores fray_trial_workers fray_u128
fray_u128_gcd fray_u128_ratio fray_u128_str fray_u128_to_mpz fray_utf8_len
fray_xq fray_xq_add fray_xq_add_q fray_xq_add_xq fray_xq_addmul
fray_xq_clear fray_xq_get_q fray_xq_is_zero fray_xq_str fray_xq_to_double
"
# the programs' tables: old new
programs="
fray_page_files serve_page_files
fray_template_files cli_template_files
"

# a name made public since the list was made keeps its fray_ name
keep=""
for n in $names; do
	if grep -rqw -- "$n" include/fray; then
		echo "rename_internal: $n is declared in include/fray/: left as it is"
		keep="$keep $n"
	fi
done
# the names as one alternation of what follows fray_ (alloc|binomial|...)
alt=""
for n in $names; do
	case " $keep " in *" $n "*) continue ;; esac
	alt="$alt${alt:+|}${n#fray_}"
done
# sed's expressions: the list's one, then one per program table
expr=""
[ -n "$alt" ] && expr="s/\\bfray_($alt)\\b/frayi_\\1/g"
words="${alt:+fray_($alt)}"
set -- $programs
while [ $# -ge 2 ]; do
	expr="$expr${expr:+; }s/\\b$1\\b/$2/g"
	words="$words${words:+|}$1"
	shift 2
done

dirs=""
for d in src tests fuzz bench examples docs; do
	[ -d "$d" ] && dirs="$dirs $d"
done
# grep -I skips binary files; the pattern is the one sed uses
files=$(grep -rlIwE -- "$words" $dirs CMakeLists.txt 2>/dev/null || true)
[ -n "$files" ] || { echo "rename_internal: nothing to rename"; exit 0; }
n=0
for f in $files; do
	sed -i -E "$expr" "$f"
	n=$((n + 1))
done
echo "rename_internal: $n files renamed"
