# bash completion for fray: commands, rule-set procedures, options.
_fray()
{
	local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]} words
	if [ "$COMP_CWORD" -eq 1 ]; then
		# the command table's names (src/cli/commands.c), from fray itself
		words="$(fray help commands 2>/dev/null) --version"
	elif [ "$COMP_CWORD" -eq 2 ]; then
		case $cmd in
		adbg|bbb|chits|presidio)
			# the procedures, from the catalogue and the group's own help
			words=$( { fray procedures; fray help "$cmd"; } 2>/dev/null |
				sed -n "s/^  \(fray \)\{0,1\}$cmd \([a-z-]*\).*/\2/p" | sort -u)
			;;
		help)
			words=$(fray help topics 2>/dev/null)
			;;
		procedures)
			words="--json"
			;;
		*)
			COMPREPLY=($(compgen -f -- "$cur"))
			return
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
