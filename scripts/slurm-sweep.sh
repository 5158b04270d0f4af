#!/bin/sh
# A sweep of an ADBG scenario as a Slurm job array (docs/simulate.md,
# "Sweeps on many machines"): array task I of N runs shard I/N of the
# sweep and writes sweep-I.json; when the array is done, one `fray merge`
# gives exactly what one run of the whole sweep prints, byte for byte
# (battle i of a point always draws from stream i of the seed, ruling R24).
#
#   sbatch scripts/slurm-sweep.sh scenario.yaml
#   # when every task is done (or: sbatch --dependency=afterok:JOBID ...):
#   fray merge --csv sweep-*.json > sweep.csv
#
# Every task must name the same scenario, knobs, trials and seed (they are
# checked: a shard of another sweep is refused). The scenario's files must
# be where the tasks run; a CRT named by fray's own name (melee_crt:
# example-melee-crt, or the shipped examples' ../../data/... path) needs
# none. Edit the knobs below. The array's ids may start anywhere
# (--array=0-63 or 1-64) but must be consecutive (no :STEP, no list): task
# I is the id's place in the array. FRAY, FRAY_SWEEP_TRIALS and
# FRAY_SWEEP_SEED override fray's path, the trials and the seed.
# Checked without Slurm by tests/cli/sweep_recipes.sh (every task run with
# SLURM_ARRAY_* set by hand, then merged: one run's bytes).
#SBATCH --job-name=fray-sweep
#SBATCH --array=1-64
#SBATCH --cpus-per-task=4
#SBATCH --output=fray-sweep-%a.log
set -eu
SCENARIO=${1:?usage: sbatch slurm-sweep.sh SCENARIO.yaml}
ID=${SLURM_ARRAY_TASK_ID:?run by sbatch (a job array)}
N=${SLURM_ARRAY_TASK_COUNT:?run by sbatch (a job array)}
I=$((ID - ${SLURM_ARRAY_TASK_MIN:-1} + 1))
# --split points: each task a slice of the points, all their battles (use
# --split trials when the points are fewer than the tasks)
exec "${FRAY:-fray}" adbg sweep "$SCENARIO" \
	--vary sides.kentucky.level=0..6 --vary terrain=rough,settled,wilderness \
	--vary sides.raiders.level=0..6 \
	--trials "${FRAY_SWEEP_TRIALS:-1000000}" --seed "${FRAY_SWEEP_SEED:-7}" \
	--threads "${SLURM_CPUS_PER_TASK:-1}" --quiet \
	--shard "$I/$N" --split points --output "sweep-$I.json"
