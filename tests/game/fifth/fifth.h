/* A fifth rule set that lives only in the tests (issue 42 item 2): two
 * procedures of its own in the catalogue (fifth_procs.c) and a game with
 * one action (fifth_game.c), each registered by a call, so that fray
 * itself needs no change to play it. */
#ifndef FIFTH_H
#define FIFTH_H

#define FIFTH_MAX_MEN 20
#define FIFTH_HIT_ON 4

/* Its procedures into the catalogue, its game into the registry: a
 * fray_status each. */
int fifth_register_procedures(void);
int fifth_register_game(void);

#endif
