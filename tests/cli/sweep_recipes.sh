#!/bin/sh
# The recipes of docs/simulate.md "Sweeps on many machines" (issue 45 item
# 4), each merged by fray merge into exactly one run's bytes:
#
# 1. GNU parallel across hosts: --sshlogin alpha,beta,: with --transferfile,
#    --return and --cleanup, as the docs write it. There is no sshd here, so
#    parallel's --ssh is a stand-in ssh (written below) that runs the
#    command with sh -c in a home folder of the host's own, as sshd would:
#    the scenario really is copied there by rsync through it, the shards
#    really come back, nothing shared but the fray binary's path. What this
#    cannot test: a real network, ssh itself, another fray on the host.
# 2. The Slurm job array, scripts/slurm-sweep.sh: checked by sh -n and
#    bash -n, and run once per task with SLURM_ARRAY_* set by hand (no
#    Slurm here), ids from 1 and from 0; a task without them is refused.
#
# The one run is computed here from the same arguments without --shard.
# Work is bounded by counts (147 points, 20 battles a point).
# usage: sweep_recipes.sh FRAY EXAMPLES_DIR SCRIPTS_DIR
set -eu
FRAY=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
EXAMPLES=$(cd "$2" && pwd)
SLURM_SCRIPT=$(cd "$3" && pwd)/slurm-sweep.sh
for tool in parallel rsync; do
	if ! command -v $tool > /dev/null; then
		echo "sweep_recipes: $tool is needed (Debian packages parallel, rsync: scripts/deps.sh --test)" >&2
		exit 1
	fi
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
same() { # what, expected file, merged file
	if cmp -s "$2" "$3"; then
		echo "ok: $1"
	else
		echo "FAIL: $1: the merged shards differ from one run" >&2
		diff "$2" "$3" | head -10 >&2
		fail=1
	fi
}

# ---- 1. GNU parallel across hosts ----

# ssh as sshd would run it: options, the host, then the command joined by
# spaces for the host's shell, in the host's home, with the login's HOME and
# SHELL set (parallel's remote wrapper starts the job with $SHELL; CI runs
# with no SHELL in its environment, where every remote shard then vanished)
cat > "$dir/fake-ssh" <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do
	case $1 in
	-[bcDEeFIiJLlmOopQRSWw]) shift 2 ;;
	-*) shift ;;
	*) break ;;
	esac
done
host=$1
shift
[ "${1-}" = "--" ] && shift
echo "$host" >> "$FAKE_SSH_ROOT/hosts.log"
mkdir -p "$FAKE_SSH_ROOT/$host"
cd "$FAKE_SSH_ROOT/$host" || exit 255
HOME=$FAKE_SSH_ROOT/$host SHELL=/bin/sh exec sh -c "$*"
EOF
chmod +x "$dir/fake-ssh"
export FAKE_SSH_ROOT="$dir/hosts"
mkdir -p "$FAKE_SSH_ROOT" "$dir/here"
# the example as a designer has it: its CRT named ../../data/..., which no
# host has (fray's own table by its name there)
cp "$EXAMPLES/adbg/blue-licks-1782.yaml" "$dir/here/scenario.yaml"
cd "$dir/here"
set -- --vary sides.kentucky.level=0..6 --vary terrain=rough,settled,wilderness \
	--vary sides.raiders.level=0..6 --trials 20 --seed 7 --quiet
"$FRAY" adbg sweep scenario.yaml "$@" --csv > "$dir/one.csv"
parallel --will-cite --ssh "$dir/fake-ssh" --sshlogin 1/alpha,1/beta,1/: --transferfile scenario.yaml \
	--return sweep-{}.json --cleanup \
	"$FRAY" adbg sweep scenario.yaml "$@" --shard {}/8 --output sweep-{}.json ::: 1 2 3 4 5 6 7 8
came=$(ls sweep-*.json | wc -l)
if [ "$came" -ne 8 ]; then
	echo "FAIL: GNU parallel brought back $came of the 8 shards" >&2
	exit 1
fi
"$FRAY" merge --csv sweep-*.json > "$dir/merged.csv"
same "GNU parallel --sshlogin alpha,beta,: with --transferfile, --return, --cleanup" "$dir/one.csv" \
	"$dir/merged.csv"
hosts_ok=1
for host in alpha beta; do
	if ! grep -qx "$host" "$FAKE_SSH_ROOT/hosts.log"; then
		echo "FAIL: no shard ran on $host" >&2
		hosts_ok=0
	fi
	left=$(ls -A "$FAKE_SSH_ROOT/$host" 2> /dev/null)
	if [ -n "$left" ]; then
		echo "FAIL: --cleanup left on $host: $left" >&2
		hosts_ok=0
	fi
done
[ $hosts_ok -eq 1 ] && echo "ok: shards ran on alpha and beta, which kept no file" || fail=1

# ---- 2. the Slurm job array ----

for sh in sh bash; do
	if command -v $sh > /dev/null && ! $sh -n "$SLURM_SCRIPT"; then
		echo "FAIL: $sh -n $SLURM_SCRIPT" >&2
		fail=1
	fi
done
rc=0
env -u SLURM_ARRAY_TASK_ID sh "$SLURM_SCRIPT" scenario.yaml > /dev/null 2> "$dir/err" || rc=$?
if [ "$rc" -eq 0 ] || ! grep -q 'run by sbatch' "$dir/err"; then
	echo "FAIL: the Slurm script outside a job array: exit $rc" >&2
	fail=1
fi
# the script's own knobs: the one run takes the arguments it gave fray
cat > "$dir/fray-rec" <<EOF
#!/bin/sh
printf '%s\n' "\$@" > "$dir/slurm-args"
exec "$FRAY" "\$@"
EOF
chmod +x "$dir/fray-rec"
slurm() { # first id, count
	rm -f sweep-*.json
	id=$1
	while [ "$id" -lt $(($1 + $2)) ]; do
		SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_MIN=$1 SLURM_ARRAY_TASK_COUNT=$2 SLURM_CPUS_PER_TASK=1 \
			FRAY="$dir/fray-rec" FRAY_SWEEP_TRIALS=20 FRAY_SWEEP_SEED=5 sh "$SLURM_SCRIPT" scenario.yaml ||
			{ echo "FAIL: the Slurm script, task $id of ids $1..$(($1 + $2 - 1)): exit $?" >&2; fail=1; }
		id=$((id + 1))
	done
}
slurm 1 5
# the arguments without the shard's: --shard, --split, --output, --threads
set --
skip=0
while IFS= read -r arg; do
	if [ $skip -eq 1 ]; then
		skip=0
	else
		case $arg in
		--shard | --split | --output | --threads) skip=1 ;;
		*) set -- "$@" "$arg" ;;
		esac
	fi
done < "$dir/slurm-args"
"$FRAY" "$@" --csv > "$dir/slurm-one.csv"
"$FRAY" merge --csv sweep-*.json > "$dir/slurm-merged.csv"
same "the Slurm script, 5 tasks with ids 1..5" "$dir/slurm-one.csv" "$dir/slurm-merged.csv"
slurm 0 3
"$FRAY" merge --csv sweep-*.json > "$dir/slurm-merged.csv"
same "the Slurm script, 3 tasks with ids 0..2" "$dir/slurm-one.csv" "$dir/slurm-merged.csv"
if [ "$(wc -l < "$dir/slurm-one.csv")" -ne 148 ]; then
	echo "FAIL: the Slurm script's sweep has not its 147 points" >&2
	fail=1
fi
exit $fail
