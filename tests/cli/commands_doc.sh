#!/bin/bash
# The man page, `fray help` and the bash completion come from one command
# table (src/cli/commands.c; issue 42 item 4): every command the table
# names (fray help commands) has its SYNOPSIS line and a paragraph in the
# man page, a help topic, and is offered by the completion; so is every
# help topic after `fray help`. An empty table fails (a broken listing
# must not pass).
# usage: commands_doc.sh FRAY MAN_PAGE COMPLETION
set -u
fray=$1 man=$2 completion=$3
status=0
commands=$("$fray" help commands) || { echo "commands_doc: fray help commands failed"; exit 1; }
topics=$("$fray" help topics) || { echo "commands_doc: fray help topics failed"; exit 1; }
[ "$(printf '%s\n' "$commands" | wc -l)" -ge 10 ] || { echo "commands_doc: too few commands: $commands"; exit 1; }
synopsis=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$man")
body=$(sed -n '/^\.SH DESCRIPTION/,$p' "$man")

# what the completion offers for the words before the cursor ($@)
complete_words() {
	PATH="$(dirname "$(readlink -f "$fray")"):$PATH" bash -c '
		source "$1"; shift
		COMP_WORDS=(fray "$@" ""); COMP_CWORD=$(( $# + 1 ))
		_fray; printf "%s\n" "${COMPREPLY[@]}"' sh "$completion" "$@"
}
offered=$(complete_words)
offered_topics=$(complete_words help)
# fray's usage lines, read once: each ASan fray run costs a seventh of a
# second of CPU, and this one was run again for every command
usage=$("$fray" help) || { echo "commands_doc: fray help failed"; exit 1; }

for c in $commands; do
	printf '%s\n' "$synopsis" | grep -qx "\.B fray $c" || { echo "man page: no SYNOPSIS line for 'fray $c'"; status=1; }
	# a paragraph's name: "fray NAME ..." in its .B/.BI line, or a rule set's (NAME) in the description
	[ "$c" = help ] || printf '%s\n' "$body" | grep -Eq "fray $c( |\"|$)|^\.RB \( $c \)" ||
		{ echo "man page: no paragraph names 'fray $c'"; status=1; }
	printf '%s\n' "$offered" | grep -qx "$c" || { echo "completion: 'fray $c' not offered"; status=1; }
	printf '%s\n' "$topics" | grep -qx "$c" || "$fray" help "$c" >/dev/null 2>&1 ||
		{ echo "fray help $c: no topic"; status=1; }
	printf '%s\n' "$usage" | grep -q "^  fray $c " || { echo "fray help: no usage line for 'fray $c'"; status=1; }
done
# every topic listed is a topic (the commands among them once, here)
for t in $topics; do
	printf '%s\n' "$offered_topics" | grep -qx "$t" || { echo "completion: 'fray help $t' not offered"; status=1; }
	"$fray" help "$t" >/dev/null 2>&1 || { echo "fray help $t: listed but no topic"; status=1; }
done
[ $status -eq 0 ] && echo "commands_doc: $(echo $commands | wc -w) commands and $(echo $topics | wc -w) topics in the man page, help and completion"
exit $status
