#!/bin/sh
# The library's symbols (STYLE.md, API conventions; issue 30 item 3):
#   libfray.so exports fray_* only (the public API; everything else is hidden);
#   libfray.a defines no global outside fray_* (public) and frayi_* (internal:
#   shared between the library's files, never API; docs/design.md, Symbols).
# A library that is missing, or that nm cannot read, fails the test (it once
# passed, nm's error and an empty list looking like a clean library).
# AddressSanitizer adds an "__odr_asan.NAME" beside each global NAME: NAME is
# what is checked.
# usage: exports.sh LIBFRAY.so LIBFRAY.a
set -u
shared=$1 static=$2
status=0

# The unprefixed globals of src/catalog/ (being reworked by issue 30's
# catalogue branch, so not renamed here): each is to become frayi_* or
# static, and leave this list. Nothing else may join it.
allowed="
adbg_odds_report adbg_sim_report
adbg_fire_desc adbg_melee_desc adbg_move_desc adbg_recover_desc adbg_rounds_desc adbg_battle_desc
bbb_assault_desc bbb_fire_desc bbb_move_desc
chits_end_turn_desc chits_advise_desc chits_combat_desc
presidio_melee_desc presidio_shoot_desc presidio_morale_desc presidio_move_desc
presidio_artillery_desc presidio_blast_desc presidio_dismount_desc presidio_fuse_desc presidio_gun_move_desc
presidio_initiative_desc presidio_into_melee_desc presidio_jump_desc presidio_radius_desc presidio_rally_desc
presidio_spot_desc presidio_status_desc
presidio_bounce_desc presidio_camp_desc presidio_capture_desc presidio_contact_desc presidio_entrance_desc
presidio_herd_desc presidio_livestock_desc presidio_night_desc presidio_pursuit_desc presidio_ram_desc
presidio_sentry_desc presidio_villagers_desc
call_bad call_echo call_load_doc call_missing call_open_named call_opt call_option_name call_title
catalog_find shipped_doc catalog_procs catalog_nprocs
call_presidio_band call_presidio_shell call_presidio_structure call_presidio_units
narrate render_call render_common sb_escaped
sb_add sb_free sb_give sb_json sb_put sb_take sb_mem sb_unmem fmt_outcome
"

# the global names nm lists (one a line), or exit 1 when it cannot read $2
globals() {
	if [ ! -f "$2" ]; then
		echo "exports: $2: no such library (build it first)"
		exit 1
	fi
	out=$(nm $1 "$2") || { echo "exports: nm $1 $2 failed"; exit 1; }
	printf '%s\n' "$out" | awk 'NF == 3 {print $3}' | sed 's/^__odr_asan\.//' | sort -u
}

names=$(globals "-D --defined-only" "$shared") || { echo "$names"; exit 1; }
if ! printf '%s\n' "$names" | grep -qx 'fray_version'; then
	echo "exports: $shared does not export fray_version: not the library?"
	status=1
fi
bad=$(printf '%s\n' "$names" | grep -v '^fray_')
if [ -n "$bad" ]; then
	echo "exports: $shared exports names outside fray_*:"
	printf '  %s\n' $bad
	status=1
fi

names=$(globals "-g --defined-only" "$static") || { echo "$names"; exit 1; }
if ! printf '%s\n' "$names" | grep -qx 'fray_version'; then
	echo "exports: $static does not define fray_version: not the library?"
	status=1
fi
bad=""
for n in $(printf '%s\n' "$names" | grep -v '^fray_' | grep -v '^frayi_'); do
	case " $(echo $allowed) " in
	*" $n "*) ;;
	*) bad="$bad $n" ;;
	esac
done
if [ -n "$bad" ]; then
	echo "exports: $static defines globals outside fray_* and frayi_* (prefix them frayi_, or make them static):"
	printf '  %s\n' $bad
	status=1
fi
# a name renamed or made static since: said, so the list only shrinks
for n in $allowed; do
	printf '%s\n' "$names" | grep -qx "$n" || echo "exports: note: $n is no longer global: take it off the allow-list"
done
exit $status
