/* fray help [TOPIC]: the built-in manual, one topic per command. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../common/text.h"

typedef struct topic {
	const char *name;
	const char *text;
} topic;

/* A rule set's topic is its text, then one line for each of the set's
 * procedures and listings as the catalogue describes them
 * (fray_procedure_summary, _rules: no hand copy to fall behind), then its
 * tail. own names the set's commands of its own (src/cli/cmd_<set>.c),
 * which the tail tells instead. */
typedef struct set_topic {
	const char *set;
	const char *const *own;
	/* the topic's end: tail, the set's first procedure in the catalogue
	 * (its example: "adbg fire"), then after */
	const char *tail, *after;
} set_topic;

/* ADBG's battle on a scenario file is a command of its own (saves,
 * policies, progress); the catalogue's adbg.battle is the request's. */
static const char *const adbg_own[] = {"adbg battle", NULL};

#ifndef FRAY_DATADIR
#define FRAY_DATADIR "/usr/local/share/fray"
#endif

static const topic topics[] = {
	/* the commands' lines come from the command table (commands.c), the
	 * topics' names from this table (put_usage) */
	{"usage", "usage: fray COMMAND [options]\n\n"},
	{"table",
	 "fray table: play a game from a game file\n"
	 "\n"
	 "  fray table new GAME.yaml --rules {rules} --forces FORCES.yaml [--seed N]\n"
	 "  fray table GAME.yaml ACTION UNIT [--at TARGET] [options] [--json]\n"
	 "  fray table GAME.yaml status [--json]     the forces as they stand\n"
	 "  fray table GAME.yaml log [--json|--markdown]   every roll of the game\n"
	 "  fray table GAME.yaml undo               the last action (again: the one before)\n"
	 "  fray table GAME.yaml turn               the next turn (BBB: the next player's turn; the\n"
	 "                                        game turn goes up after the second player's)\n"
	 "  fray table GAME.yaml set UNIT KEY=VALUE...   the referee's own changes\n"
	 "  fray table GAME.yaml initiative | pass SIDE   Presidio: the turn's initiative; the acting side ends its\n"
	 "                                        action sequence\n"
	 "  fray table GAME.yaml advise UNIT [--goal G] [--json]   its actions ranked, exactly\n"
	 "  fray table GAME.yaml play SIDE [--goal G]   fray takes the side's next action\n"
	 "\n"
	 "The game file remembers the forces, the seed and the dice used, so a game\n"
	 "replays exactly; it is written whole after every action, or not at all,\n"
	 "by one fray at a time (an action waits for another's). Exit status 3:\n"
	 "the action was saved but could not be printed (do not run it again).\n"
	 "An action takes its inputs from the units (figures, skills, weapons,\n"
	 "casualties so far), applies the results and runs the follow-ups the rules\n"
	 "require. The procedure's own options (--range, --cover, --mode...) go to\n"
	 "its main roll and win over the units' values.\n"
	 "\n"
	 "An action's --odds, advise and play weigh exact odds within budgets:\n"
	 "--max-paths N (default 20,000,000), --max-memory MIB (default 1024)\n"
	 "and --max-seconds S of CPU time (default 60, or FRAY_MAX_SECONDS; 0:\n"
	 "none). Past the path or time budget --odds says which in one line,\n"
	 "and how to raise it (exit 2, nothing printed); past the time budget\n"
	 "advise and play do too (nothing printed or written). Advice values an\n"
	 "action whose odds passed the paths or memory as rolling no dice, and\n"
	 "says so.\n"
	 "\n"},
	{"scenario",
	 "fray scenario new {kinds} [FILE]\n"
	 "\n"
	 /* then its paragraph, the games' rule sets from their registry
	  * (put_scenario) */
	 },
	{"procedures",
	 "fray procedures [--json]\n"
	 "\n"
	 "The catalogue: every procedure fray resolves one at a time, grouped by\n"
	 "rule set, with its rule references. With --json, each procedure's inputs\n"
	 "(type, range, choices, default, rule) and outcome fields, as programs\n"
	 "and the page read them. 'fray COMMAND --help' tells one.\n"},
	{"request",
	 "fray request [FILE|-] [--max-seconds S]\n"
	 "\n"
	 "Runs one JSON request, read from FILE or standard input (at most 1 MiB):\n"
	 "\n"
	 "  {\"procedure\": \"adbg.fire\", \"mode\": \"odds\",\n"
	 "   \"inputs\": {\"type\": \"regular\", \"cf\": 3, \"terrain\": \"rough\"}}\n"
	 "\n"
	 "mode is \"roll\" (give \"seed\"), \"odds\" or \"simulate\" (\"trials\", \"seed\"),\n"
	 "as the procedure has them (default: its first). The inputs are\n"
	 "the procedure's options without their dashes ('fray procedures --json').\n"
	 "Prints exactly what the command with --json prints; the library's\n"
	 "fray_request does the same (docs/library.md).\n"
	 "\n"
	 "The request's work has a time budget: --max-seconds S of CPU time\n"
	 "(default 60, or FRAY_MAX_SECONDS; 0: none). Past it, one line says so\n"
	 "and how to raise it (exit 2, nothing printed). Ctrl-C or SIGTERM\n"
	 "stops it the same way, with exit status 130 or 143.\n"},
	{"report",
	 "fray report --html FILE [REQUEST|GAME|SWEEP|-]\n"
	 "\n"
	 "Runs one request (as 'fray request' takes it: a roll, odds or a\n"
	 "simulation, a whole battle too) and writes the page's charts, table and\n"
	 "story as one self-contained HTML file to share: it opens in any browser\n"
	 "with no server and no network. The request leaves out \"format\" (the\n"
	 "report has both). FILE is written whole or not at all, and never over\n"
	 "the request. See docs/serve.md.\n"
	 "\n"
	 "Given a game file ('fray help table') instead, the report is the game:\n"
	 "the forces as they stand and the log, every action with its story and\n"
	 "changes.\n"
	 "\n"
	 "Given a sweep's JSON ('fray adbg sweep ... --json'), the report plots it:\n"
	 "a line for each side's win rate with its 95% band (one knob), a heat map\n"
	 "a side (two knobs), and a table of every point. Every plot is SVG in the\n"
	 "file; it needs no script. See docs/simulate.md.\n"},
	{"serve",
	 "fray serve [--port N] [--lan [--qr]] [--memory MIB] [--wait S] [--games DIR]\n"
	 "\n"
	 "The page at the table: a small web server for a phone or a laptop, with\n"
	 "every procedure's form built from the catalogue, its exact odds as a\n"
	 "chart and a table, and rolls told as the command line tells them.\n"
	 "It binds 127.0.0.1 and prints the URL to open (port 8080; --port 0 picks\n"
	 "a free one). --lan listens on every interface for a phone on the same\n"
	 "network, with a random token in the URL that every request must carry,\n"
	 "and prints every address of this machine as a URL, then a QR code of the\n"
	 "first: a phone's camera on the same network opens it. The code is drawn\n"
	 "only on a terminal, or with --qr; ASCII when the locale is not UTF-8.\n"
	 "The page's 'Pass it on' button shows the same code (GET api/v1/qr.svg).\n"
	 "It reads no files but its games: scenarios and mixes are shipped\n"
	 "examples or pasted. It keeps games that every phone plays together in\n"
	 "--games DIR ($XDG_DATA_HOME/fray/games, else ~/.local/share/fray/games),\n"
	 "each DIR/NAME.yaml a file 'fray table' plays too, under the same lock:\n"
	 "api/v1/games lists them, api/v1/games/NAME is one (POST an op with\n"
	 "?version=V; 409 when the game changed), api/v1/games/NAME/events?after=V\n"
	 "waits for its next change.\n"
	 "API: GET api/v1/procedures, GET api/v1/examples, POST api/v1/run with a\n"
	 "request as 'fray request' takes it (at most 64 KiB; 10,000 trials);\n"
	 "POST api/v1/jobs for long work (1,000,000 trials, a battle's odds),\n"
	 "GET api/v1/jobs/ID for its progress and result, DELETE to stop it.\n"
	 "--memory MIB: the answers it holds at once (256 by default; 503 past it).\n"
	 "--wait S: how long a request waits for a worker before it is answered\n"
	 "503 (1 to 30 seconds, 30 by default).\n"
	 "Ctrl-C stops it. See docs/serve.md.\n"},
	{"roll",
	 "fray roll DICE [--seed N] [--json]\n"
	 "\n"
	 "Rolls a dice expression (see 'fray help dice') and tells every die.\n"
	 "Without --seed a seed is chosen and printed: give it back with --seed\n"
	 "to get the very same dice again, on any machine.\n"
	 "\n"
	 "  --seed N   0 to 18446744073709551615\n"
	 "  --json     one JSON document: expression, seed, events, total\n"
	 "\n"
	 "Example: fray roll 3d6 --seed 42\n"},
	{"odds",
	 "fray odds DICE [--at-least K] [--at-most K] [--exact] [--json]\n"
	 "\n"
	 "The exact probability of every total of a dice expression, as\n"
	 "percentages with the chance of at least and at most each total, short\n"
	 "fractions (5/36) and a bar chart. --at-least and --at-most add the\n"
	 "chance of a total in that range (both: between). A long table leaves\n"
	 "out each tail holding less than 0.05% and says so.\n"
	 "\n"
	 "  --exact  every total, each with its exact fraction however long\n"
	 "  --json   {\"expression\": \"2d6\", \"outcomes\": [{\"value\": 2,\n"
	 "           \"p\": 0.027777777777777776, \"exact\": \"1/36\"}, ...]}\n"
	 "           in increasing value, plus \"query\" with --at-least/--at-most\n"
	 "\n"
	 "Example: fray odds 2d6 --at-least 8\n"},
	{"check",
	 "fray check FILE...\n"
	 "\n"
	 "Reads fray data files (YAML or JSON) and reports every problem as\n"
	 "file:line:col: message. Exit status 0 when all are good, 2 otherwise.\n"}, /* then the kinds (put_kinds) */
	{"dice",
	 "Dice expressions\n"
	 "\n"
	 "  2d6      two six-sided dice, added        d30    one 30-sided die\n"
	 "  2d6+1    plus a constant                  3d12   three 12-sided dice\n"
	 "  1d6-1d6  a difference (from -5 to 5)      d6!    re-roll-and-add die\n"
	 "  4d6kh3   keep the 3 highest (kl: lowest)  4d6dl1 drop the lowest (dh)\n"
	 "  9d12>=9  count dice showing 9 or more     6d6<=2 count 2 or less\n"
	 "  d66      two d6 as tens and units         2d6r2  re-roll 2 or less once\n"
	 "\n"
	 "d6! is Presidio's morale die: roll one d6; on a 6 roll it once more and\n"
	 "add (once only): totals 1-5 and 7-12, and 12 means two 6s in a row.\n"
	 "Limits: 256 characters, 32 terms, 200 dice, 1000 sides, constants up\n"
	 "to 1000000; keep/drop terms 20 dice of 100 sides. Spaces between terms\n"
	 "are allowed: '2d6 + 1'. Quote '>' and '<' in a shell: '9d12>=9'.\n"
	 "\n"
	 "fray dice roll DICE [--odds | --seed N] [--json] is the same as a\n"
	 "procedure of the catalogue (dice.roll, what the page's dice roller\n"
	 "asks), within at most 50 dice of at most 100 sides.\n"},
	{"seeds",
	 "Seeds and replay\n"
	 "\n"
	 "fray's dice come from Philox4x32-10, a counter-based generator: the\n"
	 "numbers depend only on the seed and the stream, never on the machine,\n"
	 "the compiler or the number of threads. Every roll prints its seed;\n"
	 "--seed N replays it exactly.\n"},
	{"json",
	 "JSON output\n"
	 "\n"
	 "--json prints exactly one JSON document on stdout. Odds of a procedure\n"
	 "have the shape {\"procedure\": \"<ruleset>.<name>\", \"inputs\": {...},\n"
	 "\"outcomes\": [{\"outcome\": {...}, \"p\": 0.25, \"exact\": \"1/4\"}],\n"
	 "\"unresolved\": 0}; dice odds use \"value\" for the outcome. Names from\n"
	 "your files come through as written (escaped as JSON needs).\n"
	 "\n"
	 "Every --json output has a JSON Schema (draft 2020-12), installed in\n"
	 "share/doc/fray/json/ (docs/json/ in the source); its README.md says which\n"
	 "command prints which, and outcomes.schema.json each procedure's outcome\n"
	 "members.\n\n"}, /* then the commands that print only text (put_text_only) */
	{"exit",
	 "Exit status\n"
	 "\n"
	 "  0    done\n"
	 "  1    something failed at run time: out of memory (the machine's),\n"
	 "       output that could not be written (a full disk, /dev/full), a\n"
	 "       merge missing shards (the partial result is printed, marked\n"
	 "       PARTIAL)\n"
	 "  2    bad input: a dice expression, an option (unknown, given twice,\n"
	 "       out of range, or meaning nothing here) or a data file; the\n"
	 "       message names the column, the option or file:line:col. Also an\n"
	 "       output file that would replace an input of the same run, a\n"
	 "       link, a device or a FIFO. And every budget passed, in one line\n"
	 "       naming it and how to raise it, nothing printed: exact odds' paths\n"
	 "       (--max-paths: 20,000,000; adbg odds' --budget falls back to a\n"
	 "       simulation instead), their memory (--max-memory: 1024 MiB), and\n"
	 "       the time budget of odds, advise, play, request and adbg odds\n"
	 "       (--max-seconds or FRAY_MAX_SECONDS: 60 CPU seconds)\n"
	 "  3    a file was written (a game action saved, 'table new' or\n"
	 "       'scenario new' made its file) but what fray prints about it\n"
	 "       could not be: the work is done, do not run it again\n"
	 "  130  stopped by Ctrl-C, 143 by SIGTERM: a simulation prints its\n"
	 "       partial result (a shard goes to FILE.partial), a sweep the\n"
	 "       points done, adbg odds and request nothing\n"
	 "\n"
	 "fray never ends by a crash or an abort: no other status is its own.\n"},
	{"adbg",
	 "fray adbg PROCEDURE [options] [--odds | --seed N] [--json]\n"
	 "\n"
	 "A Dark and Bloody Ground, rule 19 (quick battle resolution):\n"},
	{"adbg battle",
	 "fray adbg battle SCENARIO.yaml [--seed N] [--policy P] [--set PATH=V] [--json]\n"
	 "\n"
	 "Fights a whole quick battle (ADBG 19.1-19.3) and tells it like a\n"
	 "referee: rounds, array, then each round fire, movement, melee and\n"
	 "recovery, every roll with its modifiers and rule numbers, and a final\n"
	 "table per side. Scenario files: docs/adbg.md, examples/adbg/.\n"
	 "\n"
	 "  --policy heuristic      fray decides sensibly for both sides (default)\n"
	 "  --policy interactive    you decide, answering numbered questions\n"
	 "  --policy scripted:FILE  answers from a file (answers: [...])\n"
	 "  --policy random[:SEED]  decisions chosen at random, for testing\n"
	 "  --policy-a P --policy-b Q  one policy per side (file order)\n"
	 "  --save FILE             save after every round (atomically)\n"
	 "  --stop-after R          stop after round R (go on: fray adbg resume)\n"
	 "  --json                  the same as events, plus the final state\n"},
	{"adbg resume",
	 "fray adbg resume FILE [--save FILE] [--stop-after R] [--json]\n"
	 "\n"
	 "Goes on with a battle saved by 'fray adbg battle --save FILE': the same\n"
	 "dice and decisions as if it had never stopped. Refuses a save whose\n"
	 "scenario file has changed, or whose format this fray does not know.\n"},
	{"adbg odds",
	 "fray adbg odds SCENARIO.yaml [--trials N] [--seed S] [--threads T]\n"
	 "                [--budget PATHS] [--max-memory MIB] [--max-seconds S] [--policy P] [--goal G]\n"
	 "                [--quiet] [--json]\n"
	 "                [--set PATH=V ...]\n"
	 "\n"
	 "The chance of each battle outcome (victory per side, draw) and the\n"
	 "distribution of units lost per side. Exact when the battle's paths fit\n"
	 "--budget (default 30000000: the shipped examples are exact, in seconds)\n"
	 "and its numbers --max-memory (default 1024 MiB); otherwise --trials\n"
	 "simulated battles (default 100000, seed 1) with 95% Wilson intervals.\n"
	 "Says which, and why; --budget 100000 gives a quick simulated answer for\n"
	 "a big battle. A progress line shows on a terminal (not with --quiet);\n"
	 "Ctrl-C or SIGTERM stops it (exit 130, 143). The whole command, the\n"
	 "exact walk and any simulation it falls back to, has a time budget:\n"
	 "--max-seconds S of CPU time (default 60, or FRAY_MAX_SECONDS; 0: none);\n"
	 "past it, one line says so and how to raise it (exit 2, nothing printed).\n"
	 "\n"
	 "  --policy best, --policy-a best --policy-b heuristic: each question\n"
	 "  answered by its option of highest exact value for the side asking\n"
	 "  (both sides best: each against the other's best); the answer adds\n"
	 "  each side's value, its gain over the heuristic and the questions\n"
	 "  decided exactly. --goal win|not-lose|casualties|hold (default win:\n"
	 "  P(win) + P(draw)/2). docs/adbg.md, \"Advice and solo play\".\n"},
	{"adbg simulate",
	 "fray adbg simulate SCENARIO.yaml [--trials N] [--seed S] [--threads T]\n"
	 "     [--policy P | --policy-a P --policy-b Q] [--shard I/N [--output FILE]]\n"
	 "     [--quiet] [--json]\n"
	 "\n"
	 "Fights N battles (default 100000, seed 1) and tells each side's win rate\n"
	 "with its 95% Wilson interval, the draws, and per side the mean and a bar\n"
	 "chart of units eliminated, routed, disrupted, leaders lost, losses and\n"
	 "units in good order, and the rounds fought. Memory stays the same\n"
	 "however many battles. Battle i always uses stream i of the seed, so the\n"
	 "result is the same for any --threads (0, the default: one per core).\n"
	 "\n"
	 "A progress bar is shown on a terminal (not with --quiet). Ctrl-C stops:\n"
	 "the battles counted so far are printed, marked PARTIAL, exit status 130.\n"
	 "\n"
	 "--shard I/N runs the I-th of N slices of the battles and writes a shard\n"
	 "file (to --output FILE, written whole or not at all, or to stdout);\n"
	 "'fray merge FILES...' adds the N shards into exactly the result of one\n"
	 "run. See docs/simulate.md for Slurm and GNU parallel.\n"
	 "\n"
	 "--set PATH=VALUE (repeatable; also on adbg odds, battle and sweep) changes\n"
	 "a value of the scenario for this run, PATH as in 'fray help adbg sweep'.\n"},
	{"adbg sweep",
	 "fray adbg sweep SCENARIO.yaml --vary PATH=VALUES [--vary ...] [--set PATH=V]\n"
	 "     [--trials N] [--seed S] [--threads T] [--policy P | --policy-a P --policy-b Q]\n"
	 "     [--csv | --json] [--target EXPR] [--max-points N] [--write POINT FILE]\n"
	 "     [--shard I/N [--split points|trials] [--output FILE]] [--quiet]\n"
	 "\n"
	 "Simulates the battle (default 10000 battles a point) at every point of a\n"
	 "grid of changed values, one row a point: each side's win rate with the\n"
	 "half-width of its 95% interval, draws, mean losses. PATH names a value in\n"
	 "the scenario file by its keys, list items numbered from 1; VALUES is a\n"
	 "list, and whole-number ranges FROM..TO or FROM..TO:STEP:\n"
	 "  --vary terrain=rough,wilderness,settled\n"
	 "  --vary sides.kentucky.level=1..4\n"
	 "  --vary sides.kentucky.stacks.1.2.melee=1..9:2   (stack 1, its 2nd unit)\n"
	 "  --vary units=none,remove:Boatmen,add:Boatmen,add:Boatmen@new\n"
	 "(units: a unit or leader removed by name, a unit copied into its stack or\n"
	 "as a new stack). Up to 4 --vary; the grid's points at most --max-points\n"
	 "(default 1000, at most 10000). The scenario's own values are the baseline\n"
	 "row (added as point 1 when not in the grid). Every point is read before\n"
	 "any is fought, and uses the same seed: differences come from the change.\n"
	 "After the rows: each knob's move of the win rates, ranked, and the values\n"
	 "that gave the very same battles (a table's cap, a unit that never fights).\n"
	 "--target EXPR keeps the points that meet it, closest first: draw<0.4,\n"
	 "B>=50%, |A-B|<0.03, A=0.5 (A, B, draw, a side's id or name).\n"
	 "--write POINT FILE saves a point as a scenario file instead of fighting.\n"
	 "--shard I/N writes a shard of the points (or, --split trials, of every\n"
	 "point's battles); fray merge adds the shards into one run's output.\n"},
	{"merge",
	 "fray merge SHARD... [--json | --csv]\n"
	 "\n"
	 "Adds the shard files of one simulation (fray adbg simulate --shard I/N)\n"
	 "or one sweep (fray adbg sweep --shard I/N, --csv for its rows as CSV)\n"
	 "and prints the result as the run would. Shards of another scenario file,\n"
	 "seed, trial count, policy or shard count are refused, as is a shard given\n"
	 "twice. With shards missing, the result is marked PARTIAL.\n"},
	{"bbb",
	 "fray bbb PROCEDURE [options] [--odds | --seed N] [--json]\n"
	 "\n"
	 "Bloody Big Battles!, from its quick reference sheet:\n"},
	{"chits",
	 "fray chits PROCEDURE ...\n"
	 "\n"
	 "The chit-pull brigade combat system:\n"},
	{"presidio",
	 "fray presidio PROCEDURE [options] [--odds | --seed N] [--json]\n"
	 "\n"
	 "Presidio (skirmish rules for the Spanish Borderlands):\n"},
	{"examples",
	 "Examples\n"
	 "\n"
	 "fray installs its example files in " FRAY_DATADIR ":\n"
	 "  examples/adbg/      three quick battles (Blue Licks, Lochry, Sandusky)\n"
	 "  examples/chits/     a chit mix and the rules' three worked combats\n"
	 "  examples/presidio/  a units file (skills, armor, morale: G4) and forces\n"
	 "                      for a game file ('fray help table')\n"
	 "  examples/bbb/       forces for a game file\n"
	 "  examples/c/         a C program using libfray's JSON entry point\n"
	 "  data/adbg/          the example melee CRT the battles name (G1)\n"
	 "They are examples for trying fray, not the published tables. In a\n"
	 "source checkout the same files are under examples/ and data/.\n"
	 "Try: fray adbg battle " FRAY_DATADIR "/examples/adbg/blue-licks-1782.yaml\n"},
	{"rules",
	 "Rule sets\n"
	 "\n"}, /* then the catalogue's rule sets (put_rule_sets) */
};

static const set_topic set_topics[] = {
	{"adbg", .own = adbg_own,
	 .tail = "\n"
		 "On a scenario file (docs/adbg.md, examples/adbg/):\n"
		 "  fray adbg battle SCENARIO.yaml    a whole battle, narrated\n"
		 "  fray adbg resume SAVE             go on with a saved battle\n"
		 "  fray adbg odds SCENARIO.yaml      the battle's outcome odds\n"
		 "  fray adbg simulate SCENARIO.yaml  many battles: win rates, losses, rounds\n"
		 "  fray adbg sweep SCENARIO.yaml --vary PATH=V1,V2,...  the same over a grid\n"
		 "\n"
		 "Without --odds a procedure is rolled and told (--seed N replays it);\n"
		 "with --odds its exact chances are printed (--max-memory MIB bounds the\n"
		 "memory they may take, default 1024). See docs/adbg.md and\n"
		 "'fray help ",
	 .after = "' (and so on) for each procedure's options.\n"},
	{"bbb",
	 .tail = "\n"
		 "See docs/bbb.md and 'fray help ",
	 .after = "' (and so on).\n"},
	{"chits",
	 .tail = "\n"
		 "See docs/chits.md and 'fray help ",
	 .after = "' (and so on); an example\n"
		  "mix and the text's three worked examples are in examples/chits/.\n"},
	{"presidio",
	 .tail = "\n"
		 "Distances are yours to measure; see docs/presidio.md and 'fray help\n",
	 .after = "' (and so on).\n"},
};

#define HELP_COLUMNS 79

static void put_wrapped(FILE *out, const char *text, size_t col);

/* After the actions of 'fray help table': each rule set's example forces. */
static void put_table_tail(FILE *out)
{
	char line[1024];
	textbuf t = text_on(line, sizeof line);
	text_add(&t, "Examples:");
	for (size_t r = 0; fray_game_rule_set(r); r++)
		text_add(&t, "%s examples/%s/forces.yaml", r ? "," : "", fray_game_rule_set(r));
	text_add(&t, "; a walk through a game in docs/table.md.");
	fputc('\n', out);
	put_wrapped(out, line, 0);
}

/* A topic's text, its lists from where they are kept: {rules} the rule
 * sets a game plays (fray_game_rule_set), {kinds} the templates of fray
 * scenario new, each joined by '|'. */
static void put_topic_text(FILE *out, const char *text)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "{");
		fwrite(p, 1, n, out);
		p += n;
		if (!*p)
			break;
		char list[512];
		textbuf t = text_on(list, sizeof list);
		if (!strncmp(p, "{rules}", 7)) {
			for (size_t r = 0; fray_game_rule_set(r); r++)
				text_add(&t, "%s%s", r ? "|" : "", fray_game_rule_set(r));
			p += 7;
		} else if (!strncmp(p, "{kinds}", 7)) {
			cli_scenario_kinds(list, sizeof list, "|");
			p += 7;
		} else {
			text_add(&t, "{");
			p++;
		}
		fputs(list, out);
	}
}

/* Whether the i-th command of the catalogue ("presidio shoot") is one of
 * t's set and not one of its own commands. */
static bool listed(const set_topic *t, size_t i)
{
	const char *command = fray_procedure_command(i);
	size_t n = strlen(t->set);
	if (strncmp(command, t->set, n) != 0 || command[n] != ' ')
		return false;
	for (const char *const *own = t->own; own && *own; own++)
		if (strcmp(command, *own) == 0)
			return false;
	return true;
}

/* text from column col, its words wrapped at width columns under col. */
static void put_wrapped_at(FILE *out, const char *text, size_t col, size_t width)
{
	size_t at = col;
	while (*text) {
		size_t word = strcspn(text, " ");
		if (at > col && at + 1 + word > width) {
			fprintf(out, "\n%*s", (int)col, "");
			at = col;
		} else if (at > col) {
			fputc(' ', out);
			at++;
		}
		fprintf(out, "%.*s", (int)word, text);
		at += word;
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

static void put_wrapped(FILE *out, const char *text, size_t col)
{
	put_wrapped_at(out, text, col, HELP_COLUMNS);
}

/* "a, b and c": the i-th item of a list by item(i, buf), NULL past the
 * last, into t. */
static void put_series(textbuf *t, size_t n, const char *(*item)(size_t i, char *buf, size_t cap))
{
	char one[256];
	for (size_t i = 0; i < n; i++)
		text_add(t, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ", item(i, one, sizeof one));
}

static const char *game_id(size_t i, char *buf, size_t cap)
{
	(void)buf, (void)cap;
	return fray_game_rule_set(i);
}

/* "A Dark and Bloody Ground quick battles (adbg)" */
static const char *set_named(size_t i, char *buf, size_t cap)
{
	const char *title, *id = fray_rule_set(i, &title);
	snprintf(buf, cap, "%s (%s)", title, id);
	return buf;
}

static size_t count_of(const char *(*nth)(size_t))
{
	size_t n = 0;
	while (nth(n))
		n++;
	return n;
}

static const char *rule_set_id(size_t i)
{
	return fray_rule_set(i, NULL);
}

/* fray scenario new's paragraph: the games' rule sets (fray_game_rule_set)
 * named as the game's registry has them; as wide as the topic's lines. */
static void put_scenario(FILE *out)
{
	char line[1024];
	textbuf t = text_on(line, sizeof line);
	text_add(&t, "A commented template to start from, written to FILE (never over a file that exists) or shown: "
		     "for adbg a quick-battle scenario (fray adbg battle, simulate, check) with fray's example CRT "
		     "inline; for ");
	put_series(&t, count_of(fray_game_rule_set), game_id);
	text_add(&t, " the forces of a game file (fray table new GAME.yaml --rules R --forces FILE). Each names "
		     "what to change; the chits one needs a chit mix beside it (fray help examples says where "
		     "the example mix is).");
	put_wrapped_at(out, line, 0, 74);
}

/* "fray implements four rule sets ...": the catalogue's registry of them
 * (fray_rule_set), each by its title and id. */
static void put_rule_sets(FILE *out)
{
	static const char *const counts[] = {"no", "one", "two", "three", "four", "five", "six", "seven", "eight"};
	size_t n = count_of(rule_set_id);
	char line[1024], many[24];
	snprintf(many, sizeof many, "%zu", n);
	textbuf t = text_on(line, sizeof line);
	text_add(&t, "fray implements %s rule set%s, each from its published text, with rulings where the texts are "
		     "silent or contradict themselves: ", n < sizeof counts / sizeof *counts ? counts[n] : many,
		 n == 1 ? "" : "s");
	put_series(&t, n, set_named);
	text_add(&t, ". A \"ruling R7\" or \"G3\" in fray's output is one of the project's rulings, each told in "
		     "docs/rulings.md; docs/rules-coverage.md maps every rule clause and ruling to its code and "
		     "tests.");
	put_wrapped_at(out, line, 0, 72);
}

/* "  fray presidio ram        a stampede rams the figures in its path
 *                             (Presidio Section 8, Ramming; also: fray presidio stampede)" */
static void put_set_procedures(FILE *out, const set_topic *t)
{
	size_t width = 0;
	for (size_t i = 0; fray_procedure_command(i); i++)
		if (listed(t, i) && strlen(fray_procedure_command(i)) > width)
			width = strlen(fray_procedure_command(i));
	for (size_t i = 0; fray_procedure_command(i); i++) {
		if (!listed(t, i))
			continue;
		char line[512];
		const char *also = fray_procedure_also(i);
		snprintf(line, sizeof line, "%s (%s%s%s)", fray_procedure_summary(i), fray_procedure_rules(i),
			 also ? "; also: fray " : "", also ? also : "");
		fprintf(out, "  fray %-*s  ", (int)width, fray_procedure_command(i));
		put_wrapped(out, line, 2 + 5 + width + 2);
	}
}

/* "Actions of --rules presidio:" and each action's words, as the game API
 * lists them (fray_game_rule_set_action): an action added to a rule set is
 * in the help without a hand edit. */
static void put_game_actions(FILE *out)
{
	for (size_t r = 0; fray_game_rule_set(r); r++) {
		const char *rules = fray_game_rule_set(r), *usage;
		size_t width = 0;
		for (size_t i = 0; fray_game_rule_set_action(rules, i, NULL); i++)
			if (strlen(fray_game_rule_set_action(rules, i, NULL)) > width)
				width = strlen(fray_game_rule_set_action(rules, i, NULL));
		fprintf(out, "Actions of --rules %s:\n", rules);
		for (size_t i = 0; fray_game_rule_set_action(rules, i, &usage); i++) {
			fprintf(out, "  %-*s  ", (int)width, fray_game_rule_set_action(rules, i, NULL));
			put_wrapped(out, usage, 2 + width + 2);
		}
	}
}

/* The end of a set's topic, its example procedure the catalogue's first
 * of the set, so that no procedure is named here by hand. */
static void put_set_tail(FILE *out, const set_topic *t)
{
	size_t i = 0;
	while (fray_procedure_command(i) && !listed(t, i))
		i++;
	fprintf(out, "%s%s%s", t->tail, fray_procedure_command(i) ? fray_procedure_command(i) : t->set, t->after);
}

/* "Commands that print only text refuse --json: check, bbb night, ...":
 * fray check and the catalogue's listings (a descriptor whose only mode
 * is FRAY_MODE_SHOW), so a listing added is named without a hand edit. */
static void put_text_only(FILE *out)
{
	char line[1024];
	size_t n = (size_t)snprintf(line, sizeof line, "Commands that print only text refuse --json: check");
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	const char *last = NULL;
	for (size_t i = 0; ctx && fray_procedure_command(i) && n < sizeof line; i++) {
		fray_call *c = fray_call_new(ctx, fray_procedure_command(i));
		if (c && fray_call_modes(c) == FRAY_MODE_SHOW) {
			if (last)
				n += (size_t)snprintf(line + n, sizeof line - n, ", %s", last);
			last = fray_procedure_command(i);
		}
		fray_call_free(c);
	}
	fray_ctx_free(ctx);
	if (n < sizeof line)
		snprintf(line + n, sizeof line - n, "%s%s.", last ? " and " : "", last ? last : "");
	put_wrapped(out, line, 0);
}

/* "Kinds, by their top-level keys: adbg scenario (with 'sides'), ...": as
 * the library tells them (fray_data_kind). */
static void put_kinds(FILE *out)
{
	char line[1024];
	size_t n = (size_t)snprintf(line, sizeof line, "Kinds, by their top-level keys:");
	const char *keys;
	for (size_t i = 0; fray_data_kind(i, &keys) && n < sizeof line; i++)
		n += (size_t)snprintf(line + n, sizeof line - n, "%s %s (with %s)", i ? "," : "", fray_data_kind(i, NULL),
				      keys);
	if (n < sizeof line)
		snprintf(line + n, sizeof line - n, ". A policy script holds the answers a scripted policy gives, in order.");
	put_wrapped(out, line, 0);
}

static bool is_topic(const char *name)
{
	for (size_t i = 0; i < sizeof topics / sizeof topics[0]; i++)
		if (strcmp(name, topics[i].name) == 0)
			return true;
	return false;
}

/* The topics' names, one a line or separated by sep: first the commands
 * that have one (in the command table's order), then the others; never
 * "usage" or a two-word topic ("adbg sweep"), which help TOPIC SUB reads. */
static void put_topic_names(textbuf *t, const char *sep)
{
	for (size_t i = 0; i < cli_ncommands; i++)
		if (cli_commands[i].run && strcmp(cli_commands[i].name, "help") != 0 && is_topic(cli_commands[i].name))
			text_add(t, "%s%s", t->len ? sep : "", cli_commands[i].name);
	for (size_t i = 0; i < sizeof topics / sizeof topics[0]; i++)
		if (!strchr(topics[i].name, ' ') && strcmp(topics[i].name, "usage") != 0 &&
		    !cli_command_find(topics[i].name))
			text_add(t, "%s%s", t->len ? sep : "", topics[i].name);
}

static void put_usage(FILE *out)
{
	char names[1024];
	textbuf t = text_on(names, sizeof names);
	put_topic_names(&t, ", ");
	cli_commands_usage(out);
	fputs("\n", out);
	char line[1100];
	snprintf(line, sizeof line, "Topics: %s", names);
	put_wrapped(out, line, 0);
	fputs("('fray help adbg simulate', 'fray help adbg sweep' and so on for\n"
	      "procedures; 'fray help commands' and 'fray help topics' list the names\n"
	      "alone, for scripts and completion).\n", out);
}

bool cli_help_topic(FILE *out, const char *name)
{
	for (size_t i = 0; i < sizeof topics / sizeof topics[0]; i++)
		if (strcmp(name, topics[i].name) == 0) {
			put_topic_text(out, topics[i].text);
			if (strcmp(name, "usage") == 0)
				put_usage(out);
			if (strcmp(name, "json") == 0)
				put_text_only(out);
			if (strcmp(name, "check") == 0)
				put_kinds(out);
			if (strcmp(name, "scenario") == 0)
				put_scenario(out);
			if (strcmp(name, "rules") == 0)
				put_rule_sets(out);
			if (strcmp(name, "table") == 0) {
				put_game_actions(out);
				put_table_tail(out);
			}
			for (size_t k = 0; k < sizeof set_topics / sizeof set_topics[0]; k++)
				if (strcmp(name, set_topics[k].set) == 0) {
					put_set_procedures(out, &set_topics[k]);
					put_set_tail(out, &set_topics[k]);
				}
			return true;
		}
	/* a catalogue procedure's help comes from its descriptor */
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	char *text = NULL;
	bool found = ctx && strchr(name, ' ') && fray_procedure_help(ctx, name, &text) == FRAY_OK;
	if (found)
		fputs(text, out);
	free(text);
	fray_ctx_free(ctx);
	return found;
}

int cmd_help(int argc, char **argv)
{
	if (argc == 0 || cli_is_help(argv[0]) || strcmp(argv[0], "help") == 0) {
		cli_help_topic(stdout, "usage");
		return EXIT_OK;
	}
	if (argc == 1 && strcmp(argv[0], "commands") == 0) {
		cli_commands_names(stdout);
		return EXIT_OK;
	}
	if (argc == 1 && strcmp(argv[0], "topics") == 0) {
		char names[1024];
		textbuf t = text_on(names, sizeof names);
		put_topic_names(&t, "\n");
		puts(names);
		return EXIT_OK;
	}
	char name[64];
	if (argc >= 2)
		snprintf(name, sizeof name, "%s %s", argv[0], argv[1]);
	if (argc >= 2 && cli_help_topic(stdout, name))
		return EXIT_OK;
	if (cli_help_topic(stdout, argv[0]))
		return EXIT_OK;
	const char *near = cli_nearest(argv[0], &topics[0].name, sizeof topics / sizeof topics[0],
				       sizeof topics[0]);
	if (near)
		return cli_error("help", EXIT_BAD_INPUT, "no topic '%s' (did you mean '%s'?)", argv[0], near);
	char names[1024];
	textbuf t = text_on(names, sizeof names);
	put_topic_names(&t, ", ");
	return cli_error("help", EXIT_BAD_INPUT, "no topic '%s' (topics: %s)", argv[0], names);
}
