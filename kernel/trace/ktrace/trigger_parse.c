// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace triggers: the specs written to the triggers file, parsed, and
 * formatted back for its listing.  No state: arming is trigger.c's.
 *
 *   KIND [count=N] [delay=MS] [action=stop|mark] [nr=SYSCALL] [last=N]
 *   !KIND
 *
 * KIND is oom, oops, panic, hung_task, user, warn, kernel, cluster or
 * latency:LAT>DURATION with LAT
 * one of block, wakeup, syscall, irq and DURATION a number with a unit
 * (ns, us, ms, s).  SYSCALL is a number, or on x86-64 a name of
 * syscall_64.tbl (syscall_names.c).
 */
#include <linux/bitops.h>
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <kunit/visibility.h>

#include "ktrace_internal.h"
#include "trigger.h"
static const char * const ktrace_trigger_kinds[KTRACE_NR_TRIG_KINDS] = {
	[KTRACE_TRIG_OOM] = "oom",
	[KTRACE_TRIG_OOPS] = "oops",
	[KTRACE_TRIG_PANIC] = "panic",
	[KTRACE_TRIG_HUNG_TASK] = "hung_task",
	[KTRACE_TRIG_USER] = "user",
	[KTRACE_TRIG_WARN] = "warn",
	[KTRACE_TRIG_KERNEL] = "kernel",
	[KTRACE_TRIG_CLUSTER] = "cluster",
	[KTRACE_TRIG_LATENCY] = "latency",
};

static const char * const ktrace_trigger_slot_names[KTRACE_NR_TRIG_SLOTS] = {
	[KTRACE_TRIG_OOM] = "oom",
	[KTRACE_TRIG_OOPS] = "oops",
	[KTRACE_TRIG_PANIC] = "panic",
	[KTRACE_TRIG_HUNG_TASK] = "hung_task",
	[KTRACE_TRIG_USER] = "user",
	[KTRACE_TRIG_WARN] = "warn",
	[KTRACE_TRIG_KERNEL] = "kernel",
	[KTRACE_TRIG_CLUSTER] = "cluster",
	[KTRACE_TRIG_LATENCY + KTRACE_LAT_BLOCK] = "latency:block",
	[KTRACE_TRIG_LATENCY + KTRACE_LAT_WAKEUP] = "latency:wakeup",
	[KTRACE_TRIG_LATENCY + KTRACE_LAT_SYSCALL] = "latency:syscall",
	[KTRACE_TRIG_LATENCY + KTRACE_LAT_IRQ] = "latency:irq",
};

static const char * const ktrace_latency_kinds[KTRACE_NR_LAT_KINDS] = {
	[KTRACE_LAT_BLOCK] = "block",
	[KTRACE_LAT_WAKEUP] = "wakeup",
	[KTRACE_LAT_SYSCALL] = "syscall",
	[KTRACE_LAT_IRQ] = "irq",
};

static const char * const ktrace_trigger_actions[] = {
	[KTRACE_ACTION_STOP] = "stop",
	[KTRACE_ACTION_MARK] = "mark",
};

static const struct {
	const char *unit;
	u64 ns;
} ktrace_duration_units[] = {
	/* Largest first: the listing prints the largest exact unit. */
	{ "s", NSEC_PER_SEC },
	{ "ms", NSEC_PER_MSEC },
	{ "us", NSEC_PER_USEC },
	{ "ns", 1 },
};

/**
 * ktrace_trigger_slot() - where an armed trigger of a spec is kept
 * @spec: a parsed spec
 *
 * Return: the slot, below %KTRACE_NR_TRIG_SLOTS.
 */
unsigned int ktrace_trigger_slot(const struct ktrace_trigger_spec *spec)
{
	return spec->kind == KTRACE_TRIG_LATENCY ? KTRACE_TRIG_LATENCY + spec->lat :
						   spec->kind;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_trigger_slot);

/**
 * ktrace_trigger_slot_name() - the name a trigger is listed and disarmed by
 * @slot: its slot
 *
 * Return: "oom", ..., "latency:block", ...
 */
const char *ktrace_trigger_slot_name(unsigned int slot)
{
	return ktrace_trigger_slot_names[slot];
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_trigger_slot_name);

/**
 * ktrace_parse_duration() - parse a latency threshold
 * @s: digits and a unit: ns, us, ms or s
 * @ns: set to the duration in nanoseconds
 *
 * Return: 0; -EINVAL if @s is not digits followed by a unit; -ERANGE
 * outside %KTRACE_LATENCY_MIN_NS to %KTRACE_LATENCY_MAX_NS.
 */
static int ktrace_parse_duration(const char *s, u64 *ns)
{
	char digits[24];
	const char *unit = s;
	unsigned int i;
	u64 v;
	int ret;

	while (isdigit(*unit))
		unit++;
	if (unit == s || unit - s >= sizeof(digits))
		return unit == s ? -EINVAL : -ERANGE;
	memcpy(digits, s, unit - s);
	digits[unit - s] = '\0';
	ret = kstrtou64(digits, 10, &v);
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(ktrace_duration_units); i++) {
		if (strcmp(unit, ktrace_duration_units[i].unit))
			continue;
		if (v > KTRACE_LATENCY_MAX_NS / ktrace_duration_units[i].ns)
			return -ERANGE;
		v *= ktrace_duration_units[i].ns;
		if (v < KTRACE_LATENCY_MIN_NS)
			return -ERANGE;
		*ns = v;
		return 0;
	}
	return -EINVAL;
}

/**
 * ktrace_parse_uint() - parse an option's number within limits
 * @s: decimal digits
 * @min: the smallest value allowed
 * @max: the largest
 * @v: set to the value
 *
 * Return: 0; -EINVAL if @s is not a decimal number (a sign included);
 * -ERANGE outside @min..@max.
 */
static int ktrace_parse_uint(const char *s, u32 min, u32 max, u32 *v)
{
	int ret;

	if (!isdigit(*s))
		return -EINVAL;
	ret = kstrtou32(s, 10, v);
	if (ret)
		return ret;
	return *v < min || *v > max ? -ERANGE : 0;
}

enum {
	KTRACE_OPT_COUNT,
	KTRACE_OPT_DELAY,
	KTRACE_OPT_ACTION,
	KTRACE_OPT_NR,
	KTRACE_OPT_LAST,
	KTRACE_NR_OPTS,
};

static const char * const ktrace_trigger_opts[KTRACE_NR_OPTS] = {
	[KTRACE_OPT_COUNT] = "count",
	[KTRACE_OPT_DELAY] = "delay",
	[KTRACE_OPT_ACTION] = "action",
	[KTRACE_OPT_NR] = "nr",
	[KTRACE_OPT_LAST] = "last",
};

/**
 * ktrace_trigger_parse_opt() - parse one KEY=VALUE option
 * @spec: the spec so far; its kind is known
 * @opt: the option, modified
 * @seen: the options already given, updated
 *
 * Return: 0; -EINVAL for an unknown, repeated or malformed option, or
 * one that does not apply to the kind; -ERANGE for a value out of range.
 */
static int ktrace_trigger_parse_opt(struct ktrace_trigger_spec *spec,
				    char *opt, unsigned long *seen)
{
	char *val = strchr(opt, '=');
	int o, ret;
	u32 v;

	if (!val)
		return -EINVAL;
	*val++ = '\0';
	o = match_string(ktrace_trigger_opts, KTRACE_NR_OPTS, opt);
	if (o < 0 || __test_and_set_bit(o, seen))
		return -EINVAL;
	switch (o) {
	case KTRACE_OPT_COUNT:
		return ktrace_parse_uint(val, 1, KTRACE_TRIGGER_COUNT_MAX, &spec->count);
	case KTRACE_OPT_DELAY:
		return ktrace_parse_uint(val, 0, KTRACE_TRIGGER_DELAY_MAX_MS,
					 &spec->delay_ms);
	case KTRACE_OPT_ACTION:
		ret = match_string(ktrace_trigger_actions,
				   ARRAY_SIZE(ktrace_trigger_actions), val);
		if (ret < 0)
			return ret;
		spec->action = ret;
		return 0;
	case KTRACE_OPT_NR:
		if (spec->kind != KTRACE_TRIG_LATENCY || spec->lat != KTRACE_LAT_SYSCALL)
			return -EINVAL;
		/* A name, on x86-64 (syscall_names.c); else a number. */
		if (*val && !isdigit(*val) && *val != '-' && *val != '+') {
			ret = ktrace_syscall_nr(val);
			if (ret < 0)
				return -EINVAL;
			spec->nr = ret;
			return 0;
		}
		ret = ktrace_parse_uint(val, 0, 4095, &v);
		if (!ret)
			spec->nr = v;
		return ret;
	case KTRACE_OPT_LAST:
		if (spec->kind != KTRACE_TRIG_PANIC)
			return -EINVAL;
		return ktrace_parse_uint(val, 1, KTRACE_TRIGGER_LAST_MAX, &spec->last);
	}
	return -EINVAL;
}

/**
 * ktrace_trigger_parse() - parse a write to the triggers file
 * @s: the text, without surrounding white space; modified
 * @spec: set to what it asks for
 *
 * "KIND [OPTION=VALUE]..." arms, "!KIND" disarms; see the top of this
 * file.  Options are separated by spaces or tabs; each may be given once.
 *
 * Return: 0; -EINVAL for an unknown kind or option, a malformed number,
 * threshold or option, or options after "!KIND"; -ERANGE for a value out
 * of range.  @spec is meaningful only on success.
 */
int ktrace_trigger_parse(char *s, struct ktrace_trigger_spec *spec)
{
	unsigned long seen = 0;
	char *name, *opt;
	int ret;

	*spec = (struct ktrace_trigger_spec) {
		.count = 1,
		.action = KTRACE_ACTION_STOP,
		.nr = -1,
		.last = KTRACE_TRIGGER_LAST_DEFAULT,
	};
	if (*s == '!') {
		spec->disarm = true;
		s++;
	}
	name = strsep(&s, " \t");
	if (str_has_prefix(name, "latency:")) {
		char *lat = name + strlen("latency:");
		char *gt = strchr(lat, '>');

		if (!gt == !spec->disarm)
			return -EINVAL;
		if (gt)
			*gt = '\0';
		ret = match_string(ktrace_latency_kinds, KTRACE_NR_LAT_KINDS, lat);
		if (ret < 0)
			return ret;
		spec->kind = KTRACE_TRIG_LATENCY;
		spec->lat = ret;
		if (gt) {
			ret = ktrace_parse_duration(gt + 1, &spec->threshold_ns);
			if (ret)
				return ret;
		}
	} else {
		ret = match_string(ktrace_trigger_kinds, KTRACE_NR_TRIG_KINDS, name);
		if (ret < 0 || ret == KTRACE_TRIG_LATENCY)
			return -EINVAL;
		spec->kind = ret;
	}
	while ((opt = strsep(&s, " \t"))) {
		if (!*opt)
			continue;
		if (spec->disarm)
			return -EINVAL;
		ret = ktrace_trigger_parse_opt(spec, opt, &seen);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_trigger_parse);

/**
 * ktrace_trigger_format_spec() - a spec as the triggers file lists it
 * @spec: an armed spec
 * @buf: where to
 * @size: bytes at @buf
 *
 * Every option is shown, with its default if it was not given, so that
 * the line armed again gives the same trigger.
 *
 * Return: the length, as scnprintf().
 */
int ktrace_trigger_format_spec(const struct ktrace_trigger_spec *spec,
			       char *buf, size_t size)
{
	int len = scnprintf(buf, size, "%s",
			    ktrace_trigger_slot_name(ktrace_trigger_slot(spec)));
	unsigned int i;

	if (spec->kind == KTRACE_TRIG_LATENCY) {
		for (i = 0; i < ARRAY_SIZE(ktrace_duration_units); i++)
			if (!(spec->threshold_ns % ktrace_duration_units[i].ns))
				break;
		len += scnprintf(buf + len, size - len, ">%llu%s",
				 div64_u64(spec->threshold_ns, ktrace_duration_units[i].ns),
				 ktrace_duration_units[i].unit);
	}
	len += scnprintf(buf + len, size - len, " count=%u delay=%u action=%s",
			 spec->count, spec->delay_ms,
			 ktrace_trigger_actions[spec->action]);
	if (spec->kind == KTRACE_TRIG_LATENCY && spec->lat == KTRACE_LAT_SYSCALL &&
	    spec->nr >= 0)
		len += scnprintf(buf + len, size - len, " nr=%d", spec->nr);
	if (spec->kind == KTRACE_TRIG_PANIC)
		len += scnprintf(buf + len, size - len, " last=%u", spec->last);
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_trigger_format_spec);

/**
 * ktrace_trigger_action_name() - the name of an action
 * @action: enum ktrace_trigger_action
 *
 * Return: "stop" or "mark".
 */
const char *ktrace_trigger_action_name(unsigned int action)
{
	return ktrace_trigger_actions[action & 1];
}
