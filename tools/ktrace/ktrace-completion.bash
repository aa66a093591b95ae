# SPDX-License-Identifier: GPL-2.0
# bash completion for ktrace(1): its commands, their options, the latency
# kinds, the events for -e (of the trace file on the line for the commands
# that read one, else of the running kernel, from "ktrace list"; on a
# machine without ktrace, of ktrace.dat), trace files for the rest.
# Installed as share/bash-completion/completions/ktrace.

# The events "ktrace list" names, and their groups: GROUP:NAME and GROUP.
_ktrace_events()
{
	ktrace list 2>/dev/null | awk '{ print $1; sub(/:.*/, "", $1); print $1 }' | sort -u
}

# The events of the trace file $1 ("ktrace stat"), and their groups.
_ktrace_file_events()
{
	ktrace stat "$1" 2>/dev/null | awk '/^events per type:/ { on = 1; next }
		/^[^ ]/ { on = 0 }
		on && $1 != "unknown" { print $1; sub(/:.*/, "", $1); print $1 }' | sort -u
}

# The events for -e of command $1, words $2...: of the last trace file
# among the words for the commands that read one, else of the kernel.
_ktrace_e_events()
{
	local cmd=$1 w f="" evs=""

	shift
	if [ "$cmd" != record ]; then
		for w in "$@"; do
			[[ $w != -* && -f $w ]] && f=$w
		done
		[ -n "$f" ] && evs=$(_ktrace_file_events "$f")
	fi
	[ -n "$evs" ] || evs=$(_ktrace_events)
	# An analysis host, without ktrace: the default trace file.
	[ -n "$evs" ] || [ ! -f ktrace.dat ] || evs=$(_ktrace_file_events ktrace.dat)
	echo "$evs"
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
	local cmds="extract record report stat latency io reclaim profile convert slice status list help" cmd="" i opts head line
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
		_ktrace_words "$(_ktrace_e_events "$cmd" "${words[@]:2}")" "${cur##*,}"
		COMPREPLY=("${COMPREPLY[@]/#/$head}") ;;
	-m|--mode)
		_ktrace_words "drop overwrite hybrid" "$cur" ;;
	--layout)
		_ktrace_words "lttng ktrace" "$cur" ;;
	-o|--output|--vmcore|--kallsyms)
		# shellcheck disable=SC2207
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	--ctf)
		# shellcheck disable=SC2207
		COMPREPLY=($(compgen -d -- "$cur")) ;;
	-c|--cpu|-p|--pid|--from|--to|-b|--buffer-kb|-t|--trigger|--window|--before|--after)
		COMPREPLY=() ;;
	*) return 1 ;;
	esac
	return 0
}

# _ktrace_complete CUR PREV CWORD WORDS...: COMPREPLY for the word CUR.
_ktrace_complete()
{
	local cur=$1 prev=$2 cword=$3 cmds="extract record report stat latency io reclaim profile convert slice status list help"
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
		      --no-kernel-addresses --force -z --compress -h --help" ;;
	extract)
		opts="-o --output -s --stop --last-boot --vmcore --kallsyms --no-kernel-addresses
		      -z --compress -h --help" ;;
	slice)
		opts="--from --to --before --after -o --output -z --compress -h --help" ;;
	report)
		opts="-c --cpu -p --pid -e --event --from --to -r --relative --realtime
		      --realtime=iso --json --offset -h --help" ;;
	stat) opts="--json -h --help" ;;
	latency)
		opts="--top --hist -p --pid --min --offset -h --help"
		# Its first argument: the KIND.
		if [ "$cword" -eq $((i + 1)) ] && [[ $cur != -* ]]; then
			_ktrace_words "block syscall wakeup irq irqsoff timer" "$cur"
			return 0
		fi ;;
	io) opts="-r --relative --window -p --pid --offset -h --help" ;;
	reclaim) opts="-p --pid --offset -h --help" ;;
	profile) opts="--json -p --pid --offset -h --help" ;;
	convert) opts="--ctf --layout --offset --ftrace -o --output -h --help" ;;
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
		report|stat|latency|io|reclaim|profile|convert|slice)
			# shellcheck disable=SC2207
			COMPREPLY=($(compgen -f -X '!*.dat' -- "$cur") $(compgen -d -- "$cur")) ;;
		esac ;;
	esac
	return 0
}
complete -F _ktrace ktrace
