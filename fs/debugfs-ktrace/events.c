// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/ktrace/events/: which events are written, ftrace style.
 *
 *   events/enable              every event: reads 1, 0, or X when mixed
 *   events/GROUP/enable        the events of GROUP, the same way
 *   events/GROUP/NAME/enable   one event: 0 or 1
 *   events/GROUP/NAME/format   its channel, id and field layout
 *
 *   # cat /sys/kernel/debug/ktrace/events/ktrace/mark/format
 *   name: mark
 *   group: ktrace
 *   channel: medium
 *   kind: expanded
 *   major: 1
 *   minor: 0
 *   field: pid offset=0 size=4 display=pid
 *   field: text offset=4 size=0 display=string
 *   # echo 0 > /sys/kernel/debug/ktrace/events/enable
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <uapi/linux/ktrace.h>

#include "event.h"
#include "ktrace_internal.h"
#include "control.h"

static struct dentry *events_dir;

static const char * const display_names[] = {
	[KTRACE_DISPLAY_DEC] = "dec",
	[KTRACE_DISPLAY_HEX] = "hex",
	[KTRACE_DISPLAY_PID] = "pid",
	[KTRACE_DISPLAY_ENUM] = "enum",
	[KTRACE_DISPLAY_STRING] = "string",
	[KTRACE_DISPLAY_SYMBOL] = "symbol",
	[KTRACE_DISPLAY_DEV] = "dev",
	[KTRACE_DISPLAY_FLAGS] = "flags",
	[KTRACE_DISPLAY_KEY] = "key",
};

/*
 * The enable files: private data is the event (events/GROUP/NAME/enable),
 * the group's name (events/GROUP/enable), or NULL (events/enable).
 */
static ssize_t set_enable_read(struct file *file, char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	unsigned int on, total;
	char buf[3];

	ktrace_events_count(file->private_data, &on, &total);
	buf[0] = !on ? '0' : on == total ? '1' : 'X';
	buf[1] = '\n';
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, 2);
}

static ssize_t set_enable_write(struct file *file, const char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	bool on;
	int ret;

	ret = ktrace_ctl_get_bool(ubuf, cnt, &on);
	if (!ret)
		ret = ktrace_events_set_enabled(file->private_data, on);
	return ret ? ret : cnt;
}

static const struct file_operations set_enable_fops = {
	.open = simple_open,
	.read = set_enable_read,
	.write = set_enable_write,
	.llseek = default_llseek,
};

static ssize_t event_enable_read(struct file *file, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct ktrace_event *ev = file->private_data;
	char buf[3] = { READ_ONCE(ev->enabled) ? '1' : '0', '\n' };

	return simple_read_from_buffer(ubuf, cnt, ppos, buf, 2);
}

static ssize_t event_enable_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	bool on;
	int ret;

	ret = ktrace_ctl_get_bool(ubuf, cnt, &on);
	if (!ret)
		ret = ktrace_event_set_enabled(file->private_data, on);
	return ret ? ret : cnt;
}

static const struct file_operations event_enable_fops = {
	.open = simple_open,
	.read = event_enable_read,
	.write = event_enable_write,
	.llseek = default_llseek,
};

static int format_show(struct seq_file *m, void *v)
{
	const struct ktrace_event *ev = m->private;
	unsigned int i, j;

	seq_printf(m, "name: %s\ngroup: %s\nchannel: %s\n", ev->name, ev->group,
		   ktrace_channel_name(ev->channel));
	if (ev->kind == KTRACE_EVENT_COMPACT)
		seq_printf(m, "kind: compact\nid: %u\n", ev->id);
	else
		seq_printf(m, "kind: expanded\nmajor: %u\nminor: %u\n", ev->major,
			   ev->minor);
	for (i = 0; i < ev->nr_fields; i++) {
		const struct ktrace_field *f = &ev->fields[i];

		seq_printf(m, "field: %s offset=%u size=%u display=%s%s%s%s%s%s", f->name,
			   f->offset, f->size,
			   f->display < ARRAY_SIZE(display_names) ?
			   display_names[f->display] : "?",
			   f->flags & KTRACE_FIELD_SIGNED ? " signed" : "",
			   f->flags & KTRACE_FIELD_KADDR ? " kaddr" : "",
			   f->flags & KTRACE_FIELD_IDENT ? " ident" : "",
			   f->flags & KTRACE_FIELD_SATURATES ? " saturates" : "",
			   f->flags & KTRACE_FIELD_KEY_END ? " key_end" : "");
		for (j = 0; j < f->nr_values; j++)
			seq_printf(m, "%s%lld:%s", j ? "," : " values=",
				   f->values[j].value, f->values[j].name);
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(format);

/**
 * ktrace_fs_event_added() - create the files of a registered event
 * @ev: the event
 *
 * Called by the core with ktrace_mutex held, for every registered event
 * once this layer registered its hooks, and at each later registration.
 * An event whose group directory cannot be made gets no files.
 */
void ktrace_fs_event_added(struct ktrace_event *ev)
{
	struct dentry *group, *dir;

	if (IS_ERR_OR_NULL(events_dir))
		return;
	/* A reference to the group's directory, dropped at the end. */
	group = debugfs_lookup(ev->group, events_dir);
	if (!group) {
		group = debugfs_create_dir(ev->group, events_dir);
		/* Out of memory, or a name debugfs refuses: no files. */
		if (IS_ERR(group))
			return;
		debugfs_create_file("enable", 0600, group, (void *)ev->group,
				    &set_enable_fops);
		dget(group);
	}
	dir = debugfs_create_dir(ev->name, group);
	debugfs_create_file("enable", 0600, dir, ev, &event_enable_fops);
	debugfs_create_file("format", 0400, dir, ev, &format_fops);
	dput(group);
}

/**
 * ktrace_fs_events_init() - create events/; the events' files follow
 * @parent: the ktrace directory
 */
void __init ktrace_fs_events_init(struct dentry *parent)
{
	events_dir = debugfs_create_dir("events", parent);
	debugfs_create_file("enable", 0600, events_dir, NULL, &set_enable_fops);
}
