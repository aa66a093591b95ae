# SPDX-License-Identifier: GPL-2.0
# bash completion for ktrace(1): its commands, their options, the events of
# the running kernel for -e (from "ktrace list"), trace files for the rest.
# Installed as share/bash-completion/completions/ktrace.

# The events "ktrace list" names, and their groups: GROUP:NAME and GROUP.
_ktrace_events()
{
	ktrace list 2>/dev/null | awk '{ print $1; sub(/:.*/, "", $1); print $1 }' | sort -u
}

# COMPREPLY from the words of $1 for the current word $2.
_ktrace_words()
{
	local IFS=$' \t\n'

	# shellcheck disable=SC2207
	COMPREPLY=($(compgen -W "$1" -- "$2"))
}

_ktrace()
{
	local cmds="extract record report stat latency io reclaim profile convert status list help" cmd="" i opts head line
	local words cword cur prev

	# The words split at blanks only, so that GROUP:NAME stays one word
	# whatever COMP_WORDBREAKS says.
	if [ -n "${COMP_LINE+x}" ]; then
		line=${COMP_LINE:0:COMP_POINT}
		read -ra words <<<"$line"
		[[ -z $line || $line == *[[:space:]] ]] && words+=("")
		cword=$((${#words[@]} - 1))
	else
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
	fi
	cur=${words[cword]}
	prev=${words[cword - 1]}
	_ktrace_complete "$cur" "$prev" "$cword" "${words[@]}"
	# bash replaces only what follows the last ':' or '=' of the word
	# that COMP_WORDBREAKS has (--realtime=iso, --event=sched:switch):
	# leave out what comes before it.
	if [ -n "${COMP_LINE+x}" ]; then
		head=""
		[[ $COMP_WORDBREAKS == *:* ]] && head+=":"
		[[ $COMP_WORDBREAKS == *=* ]] && head+="="
		if [ -n "$head" ] && [[ $cur == *["$head"]* ]]; then
			line=${cur%"${cur##*["$head"]}"}
			COMPREPLY=("${COMPREPLY[@]#"$line"}")
		fi
	fi
	return 0
}

# _ktrace_value OPTION CUR: COMPREPLY for CUR, the value of OPTION; false
# if OPTION takes no value completed here.
_ktrace_value()
{
	local head cur=$2

	case $1 in
	-e|--event)
		# A comma-separated list: complete its last item.
		head=""
		[[ $cur == *,* ]] && head=${cur%,*},
		_ktrace_words "$(_ktrace_events)" "${cur##*,}"
		COMPREPLY=("${COMPREPLY[@]/#/$head}") ;;
	-m|--mode)
		_ktrace_words "drop overwrite hybrid" "$cur" ;;
	-o|--output)
		# shellcheck disable=SC2207
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	--ctf)
		# shellcheck disable=SC2207
		COMPREPLY=($(compgen -d -- "$cur")) ;;
	-c|--cpu|-p|--pid|--from|--to|-b|--buffer-kb|-t|--trigger|--window)
		COMPREPLY=() ;;
	*) return 1 ;;
	esac
	return 0
}

# _ktrace_complete CUR PREV CWORD WORDS...: COMPREPLY for the word CUR.
_ktrace_complete()
{
	local cur=$1 prev=$2 cword=$3 cmds="extract record report stat latency io reclaim profile convert status list help"
	local cmd="" i opts head
	local -a words=("${@:4}")

	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		-*) ;;
		*) cmd=${words[i]}; break ;;
		esac
	done
	if [ -z "$cmd" ]; then
		case $cur in
		-*) _ktrace_words "--help --version" "$cur" ;;
		*) _ktrace_words "$cmds" "$cur" ;;
		esac
		return 0
	fi
	case $cmd in
	record)
		opts="-o --output -e --event -m --mode -b --buffer-kb -t --trigger -w --wait
		      --no-kernel-addresses --force -h --help" ;;
	extract) opts="-o --output -s --stop --no-kernel-addresses -h --help" ;;
	report)
		opts="-c --cpu -p --pid -e --event --from --to -r --relative --realtime
		      --realtime=iso --json --offset -h --help" ;;
	stat) opts="--json -h --help" ;;
	latency) opts="--top --hist -p --pid --min --offset -h --help" ;;
	io) opts="-r --relative --window -p --pid --offset -h --help" ;;
	reclaim) opts="-p --pid --offset -h --help" ;;
	profile) opts="--json -p --pid --offset -h --help" ;;
	convert) opts="--ctf --offset -h --help" ;;
	status|list) opts="-v --verbose -h --help" ;;
	help)
		[ "$i" -eq $((cword - 1)) ] && _ktrace_words "${cmds% help}" "$cur"
		return 0 ;;
	*) return 0 ;;
	esac
	# --event=VALUE, --mode=VALUE, ...: the value, after OPTION=.
	if [[ $cur == --*=* ]] && _ktrace_value "${cur%%=*}" "${cur#*=}"; then
		head=${cur%%=*}=
		COMPREPLY=("${COMPREPLY[@]/#/$head}")
		return 0
	fi
	_ktrace_value "$prev" "$cur" && return 0
	case $cur in
	-*) _ktrace_words "$opts" "$cur" ;;
	*)
		case $cmd in
		report|stat|latency|io|reclaim|profile|convert)
			# shellcheck disable=SC2207
			COMPREPLY=($(compgen -f -X '!*.dat' -- "$cur") $(compgen -d -- "$cur")) ;;
		esac ;;
	esac
	return 0
}
complete -F _ktrace ktrace
