/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace event registry: instrumented code declares each event once, with
 * its group, name, channel, kind and field layout; ids are allocated per
 * channel at registration, and the metadata written at every start
 * describes every event, so that a decoder needs no built-in table.
 */
#ifndef _KTRACE_EVENT_H
#define _KTRACE_EVENT_H

#include <linux/list.h>
#include <linux/types.h>
#include <uapi/linux/ktrace.h>

#include "ktrace_internal.h"

/**
 * struct ktrace_enum_value - one named value of an enum field
 * @value: the value
 * @name: its name
 */
struct ktrace_enum_value {
	s64 value;
	const char *name;
};

/**
 * struct ktrace_field - one field of an event
 * @name: the key of key=value
 * @offset: compact events: first bit of the payload; expanded: byte offset
 * @size: compact events: bits; expanded: bytes, 0 for "to the end"
 * @display: enum ktrace_display
 * @flags: KTRACE_FIELD_*
 * @values: KTRACE_DISPLAY_ENUM: the named values
 * @nr_values: their number
 */
struct ktrace_field {
	const char *name;
	u16 offset;
	u16 size;
	u8 display;
	u8 flags;
	const struct ktrace_enum_value *values;
	u16 nr_values;
};

/**
 * struct ktrace_event - an event
 * @group: as in events/GROUP/NAME
 * @name: its name
 * @channel: enum ktrace_channel_id
 * @kind: KTRACE_EVENT_COMPACT or KTRACE_EVENT_EXPANDED
 * @fields: the field layout
 * @nr_fields: the number of fields
 * @enable: optional: called under ktrace_mutex to turn the event's source
 *	on or off (register a tracepoint probe, start a generator)
 * @id: compact events: the id in the channel, set at registration
 * @major: expanded events: set at registration, one per group
 * @minor: expanded events: set at registration
 * @pid_is_current: its first field is the pid of the task running on the
 *	CPU (the writer of a mark, the next task of a switch)
 * @enabled: whether the event is written; changed under ktrace_mutex
 * @toggled: changed by the group write under way, which undoes the change
 *	if a later event of the group fails; under ktrace_mutex
 * @list: in the registry: added under ktrace_mutex, never removed; walked
 *	under RCU by ktrace_event_lookup()
 */
struct ktrace_event {
	const char *group;
	const char *name;
	u8 channel;
	u8 kind;
	const struct ktrace_field *fields;
	u8 nr_fields;
	int (*enable)(struct ktrace_event *ev, bool on);
	u8 id;
	u8 major;
	u8 minor;
	bool pid_is_current;
	bool enabled;
	bool toggled;
	struct list_head list;
};

/**
 * struct ktrace_registry - events and the ids they were given
 * @events: the events, in registration order
 * @next_id: per channel, the next compact id
 * @next_major: the next major for a new group
 */
struct ktrace_registry {
	struct list_head events;
	u8 next_id[KTRACE_NR_CHANNELS];
	unsigned int next_major;
};

#define KTRACE_REGISTRY_INIT(name) {				\
	.events = LIST_HEAD_INIT((name).events),		\
	.next_major = KTRACE_MAJOR_KTRACE + 1,			\
}

int ktrace_registry_add(struct ktrace_registry *reg, struct ktrace_event *ev);
int ktrace_event_register(struct ktrace_event *ev);
int ktrace_event_set_enabled(struct ktrace_event *ev, bool on);
int ktrace_events_set_enabled(const char *group, bool on);
int ktrace_registry_set_enabled(struct ktrace_registry *reg, const char *group,
				bool on);
void ktrace_events_count(const char *group, unsigned int *on, unsigned int *total);
struct ktrace_event *ktrace_event_find(const char *group, const char *name);
struct ktrace_event *ktrace_event_lookup(unsigned int ch, unsigned int id,
					 u8 major, u8 minor);

/**
 * struct ktrace_meta_writer - where metadata records go
 * @write: writes one record of type enum ktrace_meta_type; returns 0, or
 *	a negative errno when the record was not written
 * @written: records written
 * @failed: records @write refused
 */
struct ktrace_meta_writer {
	int (*write)(struct ktrace_meta_writer *w, u8 type, const void *rec,
		     u16 len);
	unsigned int written;
	unsigned int failed;
};

unsigned int ktrace_meta_event_records(const struct ktrace_event *ev);
void ktrace_meta_event_write(struct ktrace_meta_writer *w,
			     const struct ktrace_event *ev);
void ktrace_metadata_write_to(struct ktrace_meta_writer *w);
unsigned int ktrace_metadata_write(void);

/* The registry of the kernel; iterate it with ktrace_mutex held. */
extern struct ktrace_registry ktrace_registry;
#define for_each_ktrace_event(ev) \
	list_for_each_entry(ev, &ktrace_registry.events, list)

extern struct ktrace_event ktrace_event_mark;

/* A pid in a compact payload: PID_MAX_LIMIT is 4M, 2^22. */
#define KTRACE_PID_BITS		22

/*
 * Writing an event from its description, in any context.  The result is
 * ignored: a refused event is counted by the buffer (dropped), or was not
 * to be written (not tracing).
 */
static __always_inline void
ktrace_event_write_compact(const struct ktrace_event *ev, u32 payload)
{
	ktrace_write_compact(ev->channel, ev->id, payload);
}

static __always_inline void ktrace_event_write(const struct ktrace_event *ev,
					       const void *data, u16 len)
{
	ktrace_write_expanded(ev->channel, ev->major, ev->minor, data, len);
}

static __always_inline void ktrace_event_write2(const struct ktrace_event *ev,
						const void *head, u16 hlen,
						const void *data, u16 len)
{
	ktrace_write_expanded2(ev->channel, ev->major, ev->minor, head, hlen,
			       data, len);
}

#endif /* _KTRACE_EVENT_H */
