/* The catalogue's order: by rule set, then as the rule text runs. */
#include "catalog.h"

extern const proc_desc frayi_presidio_leagues_desc; /* bind_presidio_raid.c */

const proc_desc *const frayi_catalog_procs[] = {
	&frayi_adbg_fire_desc, &frayi_adbg_move_desc, &frayi_adbg_melee_desc, &frayi_adbg_recover_desc,
			&frayi_adbg_rounds_desc, &frayi_adbg_battle_desc,
	&frayi_presidio_shoot_desc, &frayi_presidio_melee_desc, &frayi_presidio_morale_desc,
			&frayi_presidio_rally_desc, &frayi_presidio_move_desc, &frayi_presidio_initiative_desc,
					&frayi_presidio_jump_desc, &frayi_presidio_dismount_desc,
	&frayi_presidio_spot_desc, &frayi_presidio_status_desc, &frayi_presidio_artillery_desc,
			&frayi_presidio_fuse_desc,
	&frayi_presidio_gun_move_desc,
	&frayi_presidio_blast_desc, &frayi_presidio_radius_desc, &frayi_presidio_into_melee_desc,
	&frayi_presidio_camp_desc, &frayi_presidio_villagers_desc, &frayi_presidio_sentry_desc,
			&frayi_presidio_capture_desc,
	&frayi_presidio_ram_desc, &frayi_presidio_livestock_desc, &frayi_presidio_contact_desc,
			&frayi_presidio_entrance_desc,
	&frayi_presidio_night_desc, &frayi_presidio_bounce_desc, &frayi_presidio_herd_desc,
			&frayi_presidio_pursuit_desc, &frayi_presidio_leagues_desc,
	&frayi_bbb_fire_desc, &frayi_bbb_assault_desc, &frayi_bbb_move_desc,
	&frayi_chits_combat_desc, &frayi_chits_advise_desc, &frayi_chits_end_turn_desc,
	&frayi_dice_roll_desc,
};
const size_t frayi_catalog_nprocs = sizeof frayi_catalog_procs / sizeof frayi_catalog_procs[0];
