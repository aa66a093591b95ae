// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace event registry and metadata.
 *
 * Compact event ids are allocated per channel, 0 to KTRACE_ID_COMPACT_MAX;
 * expanded events get one major per group (1 is ktrace's own, 0 the
 * metadata) and minors in registration order.  At every start the low-rate
 * channel receives the metadata: the machine, the clock, the channels and
 * every event with its fields and enum values.
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/rculist.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/utsname.h>
#include <kunit/visibility.h>

#include "event.h"
#include "format.h"

/*
 * The registry, changed under ktrace_mutex.  It only grows: events are
 * never removed, so ktrace_event_lookup() walks it under RCU alone.
 */
struct ktrace_registry ktrace_registry = KTRACE_REGISTRY_INIT(ktrace_registry);

/* The writer's pid first: the running task, for decoders. */
static const struct ktrace_field ktrace_mark_fields[] = {
	{ .name = "pid", .offset = 0, .size = 4, .display = KTRACE_DISPLAY_PID },
	{ .name = "text", .offset = 4, .size = 0, .display = KTRACE_DISPLAY_STRING },
};

/* User annotations written to the mark file. */
struct ktrace_event ktrace_event_mark = {
	.group = "ktrace",
	.name = "mark",
	.channel = KTRACE_CHANNEL_MEDIUM,
	.kind = KTRACE_EVENT_EXPANDED,
	.fields = ktrace_mark_fields,
	.nr_fields = ARRAY_SIZE(ktrace_mark_fields),
	.pid_is_current = true,
	.enabled = true,
};

static struct ktrace_event *__ktrace_event_find(struct ktrace_registry *reg,
						const char *group, const char *name)
{
	struct ktrace_event *ev;

	list_for_each_entry(ev, &reg->events, list)
		if (!strcmp(ev->group, group) && !strcmp(ev->name, name))
			return ev;
	return NULL;
}

/**
 * ktrace_event_find() - look an event up
 * @group: its group
 * @name: its name
 *
 * Return: the event, or %NULL.
 */
struct ktrace_event *ktrace_event_find(const char *group, const char *name)
{
	struct ktrace_event *ev;

	mutex_lock(&ktrace_mutex);
	ev = __ktrace_event_find(&ktrace_registry, group, name);
	mutex_unlock(&ktrace_mutex);
	return ev;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_event_find);

/**
 * ktrace_event_lookup() - the event a record is
 * @ch: the channel of the record
 * @id: its record id
 * @major: for an expanded record, its major
 * @minor: for an expanded record, its minor
 *
 * Any context, no lock: the panic dump formats lines with interrupts off
 * and the other CPUs stopped, maybe in ktrace_mutex.  Events are added
 * with list_add_tail_rcu() and never removed, so the event stays valid
 * after the walk.
 *
 * Return: the event, or %NULL if no registered event has those ids.
 */
struct ktrace_event *ktrace_event_lookup(unsigned int ch, unsigned int id,
					 u8 major, u8 minor)
{
	struct ktrace_event *ev, *found = NULL;

	rcu_read_lock();
	list_for_each_entry_rcu(ev, &ktrace_registry.events, list) {
		if (ev->channel != ch || ev->id != id)
			continue;
		if (id == KTRACE_ID_EXPANDED && (ev->major != major || ev->minor != minor))
			continue;
		found = ev;
		break;
	}
	rcu_read_unlock();
	return found;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_event_lookup);

static bool ktrace_event_valid(const struct ktrace_event *ev)
{
	unsigned int i;

	if (!ev->group || !ev->name || ev->channel >= KTRACE_NR_CHANNELS ||
	    strlen(ev->group) >= KTRACE_NAME_LEN || strlen(ev->name) >= KTRACE_NAME_LEN ||
	    ev->kind > KTRACE_EVENT_EXPANDED)
		return false;
	for (i = 0; i < ev->nr_fields; i++) {
		const struct ktrace_field *f = &ev->fields[i];

		if (!f->name || strlen(f->name) >= KTRACE_NAME_LEN)
			return false;
		if (ev->kind == KTRACE_EVENT_COMPACT &&
		    (!f->size || f->offset + f->size > 32))
			return false;
	}
	return true;
}

/**
 * ktrace_registry_add() - give an event its ids and add it to a registry
 * @reg: the registry, its lock held by the caller
 * @ev: the event; its id, or major and minor, are set here
 *
 * Compact events get the next id of their channel; expanded events the
 * major of their group (a new one for a new group, 1 for "ktrace") and the
 * next minor in it.
 *
 * Return: 0; -EINVAL for a bad description, -EEXIST if GROUP/NAME is
 * taken, -ENOSPC when the channel has no compact id, or the group no
 * minor, or the registry no major left.  Nothing changes on an error.
 */
int ktrace_registry_add(struct ktrace_registry *reg, struct ktrace_event *ev)
{
	struct ktrace_event *e;
	unsigned int minor = 0, major = 0;

	if (!ktrace_event_valid(ev))
		return -EINVAL;
	if (__ktrace_event_find(reg, ev->group, ev->name))
		return -EEXIST;
	if (ev->kind == KTRACE_EVENT_COMPACT) {
		if (reg->next_id[ev->channel] > KTRACE_ID_COMPACT_MAX)
			return -ENOSPC;
		ev->id = reg->next_id[ev->channel]++;
	} else {
		list_for_each_entry(e, &reg->events, list) {
			if (e->kind != KTRACE_EVENT_EXPANDED || strcmp(e->group, ev->group))
				continue;
			major = e->major;
			minor = max(minor, e->minor + 1U);
		}
		if (!major)
			major = strcmp(ev->group, "ktrace") ? reg->next_major :
							      KTRACE_MAJOR_KTRACE;
		if (major > U8_MAX || minor > U8_MAX)
			return -ENOSPC;
		if (major == reg->next_major)
			reg->next_major++;
		ev->id = KTRACE_ID_EXPANDED;
		ev->major = major;
		ev->minor = minor;
	}
	/*
	 * Published for ktrace_event_lookup(): the ids set above are visible
	 * before the entry (the rcu_assign_pointer() of list_add_tail_rcu(),
	 * paired with the rcu_dereference() of list_for_each_entry_rcu()).
	 */
	list_add_tail_rcu(&ev->list, &reg->events);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_registry_add);

/**
 * ktrace_event_register() - add an event to the kernel's registry
 * @ev: the event; its id, or major and minor, are set here
 *
 * Its files appear under events/.
 *
 * Return: as ktrace_registry_add().
 */
int ktrace_event_register(struct ktrace_event *ev)
{
	int ret;

	mutex_lock(&ktrace_mutex);
	ret = ktrace_registry_add(&ktrace_registry, ev);
	if (!ret && ktrace_fs)
		ktrace_fs->event_added(ev);
	mutex_unlock(&ktrace_mutex);
	return ret;
}

/* Under ktrace_mutex: enable or disable one event. */
static int __ktrace_event_set_enabled(struct ktrace_event *ev, bool on)
{
	int ret = 0;

	lockdep_assert_held(&ktrace_mutex);
	if (ev->enabled != on && ev->enable)
		ret = ev->enable(ev, on);
	if (!ret)
		WRITE_ONCE(ev->enabled, on);
	return ret;
}

/**
 * ktrace_fs_register() - connect the control layer
 * @ops: its hooks
 *
 * Its files are made for the events registered so far, and for every
 * event registered after.
 */
void ktrace_fs_register(const struct ktrace_fs_ops *ops)
{
	struct ktrace_event *ev;

	mutex_lock(&ktrace_mutex);
	ktrace_fs = ops;
	for_each_ktrace_event(ev)
		ops->event_added(ev);
	mutex_unlock(&ktrace_mutex);
}

/**
 * ktrace_event_set_enabled() - turn an event on or off
 * @ev: the event
 * @on: whether it is written
 *
 * Return: 0, or the error of the event's enable callback (nothing
 * changed then).
 */
int ktrace_event_set_enabled(struct ktrace_event *ev, bool on)
{
	int ret;

	mutex_lock(&ktrace_mutex);
	ret = __ktrace_event_set_enabled(ev, on);
	mutex_unlock(&ktrace_mutex);
	return ret;
}

static bool ktrace_event_in(const struct ktrace_event *ev, const char *group)
{
	return !group || !strcmp(ev->group, group);
}

/**
 * ktrace_registry_set_enabled() - turn a group of events, or all, on or off
 * @reg: the registry (the kernel's, or a test's)
 * @group: the group, or %NULL for every event of @reg
 * @on: whether they are written
 *
 * All or nothing: when an event's enable callback fails, the events this
 * call changed before it are changed back, in reverse order, so that a
 * failed write to a group's enable file leaves every event as it was.
 * Turning an event back off cannot fail for ktrace's events (unregistering
 * a tracepoint probe does not); if turning one back on fails, it stays off
 * and its enable file says so.
 *
 * Return: 0, or the first error of an event's enable callback.
 */
int ktrace_registry_set_enabled(struct ktrace_registry *reg, const char *group,
				bool on)
{
	struct ktrace_event *ev;
	int ret = 0;

	mutex_lock(&ktrace_mutex);
	list_for_each_entry(ev, &reg->events, list) {
		if (!ktrace_event_in(ev, group) || ev->enabled == on)
			continue;
		ret = __ktrace_event_set_enabled(ev, on);
		if (ret)
			break;
		ev->toggled = true;
	}
	/* Undo from the failed event back; on success, only clear the marks. */
	if (ret) {
		list_for_each_entry_continue_reverse(ev, &reg->events, list) {
			if (ev->toggled && __ktrace_event_set_enabled(ev, !on))
				pr_warn("could not turn %s:%s back %s\n", ev->group,
					ev->name, on ? "off" : "on");
		}
	}
	list_for_each_entry(ev, &reg->events, list)
		ev->toggled = false;
	mutex_unlock(&ktrace_mutex);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_registry_set_enabled);

/**
 * ktrace_events_set_enabled() - turn a group of events, or all, on or off
 * @group: the group, or %NULL for every event
 * @on: whether they are written
 *
 * Return: as ktrace_registry_set_enabled(): 0, or the first error of an
 * event's enable callback, the events left as they were.
 */
int ktrace_events_set_enabled(const char *group, bool on)
{
	return ktrace_registry_set_enabled(&ktrace_registry, group, on);
}

/**
 * ktrace_events_count() - count the enabled events of a group, or of all
 * @group: the group, or %NULL for every event
 * @on: set to the number of enabled events
 * @total: set to the number of events
 */
void ktrace_events_count(const char *group, unsigned int *on, unsigned int *total)
{
	struct ktrace_event *ev;

	*on = 0;
	*total = 0;
	mutex_lock(&ktrace_mutex);
	for_each_ktrace_event(ev) {
		if (!ktrace_event_in(ev, group))
			continue;
		*on += ev->enabled;
		(*total)++;
	}
	mutex_unlock(&ktrace_mutex);
}

/* What the last metadata writes gave; under ktrace_mutex, read locklessly. */
static struct {
	unsigned int records;
	unsigned int failed;
	unsigned long incomplete;
} ktrace_meta_stats;

static void ktrace_meta(struct ktrace_meta_writer *w, u8 type, const void *rec,
			u16 len)
{
	if (w->write(w, type, rec, len))
		w->failed++;
	else
		w->written++;
}

/**
 * ktrace_meta_event_records() - count the metadata records of an event
 * @ev: the event
 *
 * Return: the records ktrace_meta_event_write() writes for @ev: its own,
 * one per field and one per enum value.
 */
unsigned int ktrace_meta_event_records(const struct ktrace_event *ev)
{
	unsigned int i, n = 1 + ev->nr_fields;

	for (i = 0; i < ev->nr_fields; i++)
		n += ev->fields[i].nr_values;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_meta_event_records);

/**
 * ktrace_meta_event_write() - describe one event
 * @w: where the records go
 * @ev: the event
 *
 * Writes its struct ktrace_meta_event, then a struct ktrace_meta_field per
 * field, each followed by a struct ktrace_meta_enum per named value.
 */
void ktrace_meta_event_write(struct ktrace_meta_writer *w,
			     const struct ktrace_event *ev)
{
	struct ktrace_meta_event me = {
		.channel = ev->channel,
		.kind = ev->kind,
		.id = ev->id,
		.major = ev->major,
		.minor = ev->minor,
		.nr_fields = ev->nr_fields,
		.flags = ev->pid_is_current ? KTRACE_EVENT_PID_IS_CURRENT : 0,
	};
	unsigned int i, j;

	strscpy_pad(me.group, ev->group);
	strscpy_pad(me.name, ev->name);
	ktrace_meta(w, KTRACE_META_EVENT, &me, sizeof(me));
	for (i = 0; i < ev->nr_fields; i++) {
		const struct ktrace_field *f = &ev->fields[i];
		struct ktrace_meta_field mf = {
			.offset = f->offset,
			.size = f->size,
			.display = f->display,
			.flags = f->flags,
			.nr_values = f->nr_values,
		};

		strscpy_pad(mf.name, f->name);
		ktrace_meta(w, KTRACE_META_FIELD, &mf, sizeof(mf));
		for (j = 0; j < f->nr_values; j++) {
			struct ktrace_meta_enum me = {
				.value_lo = lower_32_bits(f->values[j].value),
				.value_hi = upper_32_bits(f->values[j].value),
			};

			strscpy_pad(me.name, f->values[j].name);
			ktrace_meta(w, KTRACE_META_ENUM, &me, sizeof(me));
		}
	}
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_meta_event_write);

/**
 * __ktrace_metadata_write() - describe the trace
 * @w: where the records go; its counts are added to
 *
 * With ktrace_mutex held: the machine, with the number of records that
 * follow it, so that a decoder can tell an incomplete metadata; the clock,
 * with a reference point in CLOCK_MONOTONIC and CLOCK_REALTIME; the
 * channels; and every registered event.
 */
static void __ktrace_metadata_write(struct ktrace_meta_writer *w)
{
	struct ktrace_meta_trace mt = {
		.magic = KTRACE_MAGIC,
		.version = KTRACE_FORMAT_VERSION,
		.byte_order = IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ?
			      KTRACE_BIG_ENDIAN : KTRACE_LITTLE_ENDIAN,
		.nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = nr_cpu_ids,
		/* The clock and the channels. */
		.nr_records = 1 + KTRACE_NR_CHANNELS,
	};
	struct ktrace_meta_clock mc = { };
	struct ktrace_clock_conv conv;
	struct ktrace_event *ev;
	unsigned int ch;

	lockdep_assert_held(&ktrace_mutex);
	for_each_ktrace_event(ev)
		mt.nr_records += ktrace_meta_event_records(ev);
	strscpy_pad(mt.release, init_utsname()->release);
	strscpy_pad(mt.machine, init_utsname()->machine);
	strscpy_pad(mt.nodename, init_utsname()->nodename);
	ktrace_meta(w, KTRACE_META_TRACE, &mt, sizeof(mt));

	/* The set the ascii pipe converts with: the same times. */
	ktrace_clock_conv_get(&conv);
	mc.freq_hz = conv.freq_hz;
	mc.shift = conv.shift;
	mc.ref_clock = conv.ref_clock;
	mc.ref_mono_ns = conv.ref_mono_ns;
	mc.ref_real_ns = mc.ref_mono_ns + ktime_get_real_fast_ns() -
			 ktime_get_mono_fast_ns();
	strscpy_pad(mc.name, ktrace_clock.name);
	ktrace_meta(w, KTRACE_META_CLOCK, &mc, sizeof(mc));

	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		struct ktrace_meta_channel mch = { .channel = ch };

		ktrace_channel_info(ch, &mch);
		ktrace_meta(w, KTRACE_META_CHANNEL, &mch, sizeof(mch));
	}
	for_each_ktrace_event(ev)
		ktrace_meta_event_write(w, ev);
}

/**
 * ktrace_metadata_write_to() - describe the trace to a writer
 * @w: where the records go; its counts are added to
 *
 * As __ktrace_metadata_write(), taking ktrace_mutex.
 */
void ktrace_metadata_write_to(struct ktrace_meta_writer *w)
{
	mutex_lock(&ktrace_mutex);
	__ktrace_metadata_write(w);
	mutex_unlock(&ktrace_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_metadata_write_to);

static int ktrace_meta_to_trace(struct ktrace_meta_writer *w, u8 type,
				const void *rec, u16 len)
{
	return ktrace_write_meta(type, rec, len);
}

/**
 * ktrace_metadata_write() - describe the trace in the low-rate channel
 *
 * Called with ktrace_mutex held, at a start before the writers' gate
 * opens: the records pass it alone (ktrace_write_meta()), so that a
 * trigger freezing the trace meanwhile cannot cut them short.  A record
 * that does not fit (the low-rate channel full in drop mode, a write
 * refused) is counted in the stats file and warned about; the decoder
 * sees fewer records than struct ktrace_meta_trace announces.
 *
 * Return: the number of records that were not written.
 */
unsigned int ktrace_metadata_write(void)
{
	struct ktrace_meta_writer w = { .write = ktrace_meta_to_trace };

	lockdep_assert_held(&ktrace_mutex);
	/*
	 * On one CPU: a decoder reads an event's field and enum records after
	 * it, so they must all be in one stream, in order.
	 */
	migrate_disable();
	__ktrace_metadata_write(&w);
	migrate_enable();
	WRITE_ONCE(ktrace_meta_stats.records, w.written + w.failed);
	WRITE_ONCE(ktrace_meta_stats.failed, w.failed);
	if (w.failed) {
		WRITE_ONCE(ktrace_meta_stats.incomplete,
			   ktrace_meta_stats.incomplete + 1);
		pr_warn("metadata incomplete: %u of %u records not written\n",
			w.failed, w.written + w.failed);
	}
	return w.failed;
}

/**
 * ktrace_metadata_stats() - what the metadata writes gave
 * @records: set to the number of records of the last metadata
 * @failed: set to how many of them were not written
 * @incomplete: set to the number of metadata writes with a record missing
 *
 * Read without ktrace_mutex: the three may come from different writes.
 */
void ktrace_metadata_stats(unsigned int *records, unsigned int *failed,
			   unsigned long *incomplete)
{
	*records = READ_ONCE(ktrace_meta_stats.records);
	*failed = READ_ONCE(ktrace_meta_stats.failed);
	*incomplete = READ_ONCE(ktrace_meta_stats.incomplete);
}

static int __init ktrace_events_init(void)
{
	return ktrace_event_register(&ktrace_event_mark);
}
core_initcall(ktrace_events_init);
