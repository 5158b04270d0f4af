/* The catalogue's order: by rule set, then as the rule text runs. */
#include "catalog.h"

const proc_desc *const catalog_procs[] = {
	&adbg_fire_desc, &adbg_move_desc, &adbg_melee_desc, &adbg_recover_desc, &adbg_rounds_desc, &adbg_battle_desc,
	&presidio_shoot_desc, &presidio_melee_desc, &presidio_morale_desc, &presidio_rally_desc, &presidio_move_desc, &presidio_initiative_desc, &presidio_jump_desc, &presidio_dismount_desc,
	&presidio_spot_desc, &presidio_status_desc, &presidio_artillery_desc, &presidio_fuse_desc,
	&presidio_gun_move_desc,
	&presidio_blast_desc, &presidio_radius_desc, &presidio_into_melee_desc,
	&presidio_camp_desc, &presidio_villagers_desc, &presidio_sentry_desc, &presidio_capture_desc,
	&presidio_ram_desc, &presidio_livestock_desc, &presidio_contact_desc, &presidio_entrance_desc,
	&presidio_night_desc, &presidio_bounce_desc, &presidio_herd_desc, &presidio_pursuit_desc,
	&bbb_fire_desc, &bbb_assault_desc, &bbb_move_desc,
	&chits_combat_desc, &chits_advise_desc, &chits_end_turn_desc,
};
const size_t catalog_nprocs = sizeof catalog_procs / sizeof catalog_procs[0];
