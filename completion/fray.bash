# bash completion for fray: commands, rule-set procedures, options.
_fray()
{
	local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]} words
	if [ "$COMP_CWORD" -eq 1 ]; then
		# the command table's names (src/cli/commands.c), from fray itself
		words="$(fray help commands 2>/dev/null) --version"
	elif [ "$COMP_CWORD" -eq 2 ]; then
		case $cmd in
		help)
			words=$(fray help topics 2>/dev/null)
			;;
		procedures)
			words="--json"
			;;
		*)
			# a rule set's procedures (fray procedures lists them under
			# its name: none is named here) and its own commands from
			# its help; any other command takes files
			words=
			[[ $cmd =~ ^[a-z][a-z-]*$ ]] &&
				words=$(fray procedures 2>/dev/null | sed -n "s/^  $cmd \([a-z-]*\).*/\1/p")
			if [ -z "$words" ]; then
				COMPREPLY=($(compgen -f -- "$cur"))
				return
			fi
			words=$( { fray procedures; fray help "$cmd"; } 2>/dev/null |
				sed -n "s/^  \(fray \)\{0,1\}$cmd \([a-z-]*\).*/\2/p" | sort -u)
			;;
		esac
	elif [[ $cur == -* ]]; then
		# the options a procedure's help shows
		words=$(fray help "$cmd" "${COMP_WORDS[2]}" 2>/dev/null | grep -o -- '--[a-z0-9-]*' | sort -u)
	else
		COMPREPLY=($(compgen -f -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _fray fray
