// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the ktrace event registry: id allocation per channel,
 * majors per group, minors in order, refusals that change nothing, and
 * group enable writes that fail half-way and change nothing either.
 * They use a private registry, not the kernel's, except the lookups of
 * ktrace:mark: one of them with ktrace_mutex held by another task, as the
 * panic dump may find it.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/slab.h>

#include "event.h"
#include "ktrace_internal.h"

static const struct ktrace_field one_field[] = {
	{ .name = "pid", .offset = 0, .size = 22, .display = KTRACE_DISPLAY_PID },
};

static struct ktrace_event *new_event(struct kunit *test, const char *group,
				      const char *name, u8 channel, u8 kind)
{
	struct ktrace_event *ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ev);
	ev->group = group;
	ev->name = name;
	ev->channel = channel;
	ev->kind = kind;
	ev->fields = one_field;
	ev->nr_fields = ARRAY_SIZE(one_field);
	return ev;
}

static unsigned int count(struct ktrace_registry *reg)
{
	struct ktrace_event *ev;
	unsigned int n = 0;

	list_for_each_entry(ev, &reg->events, list)
		n++;
	return n;
}

static void event_compact_ids_test(struct kunit *test)
{
	struct ktrace_registry reg = KTRACE_REGISTRY_INIT(reg);
	char (*names)[8] = kunit_kcalloc(test, KTRACE_ID_COMPACT_MAX + 1, 8, GFP_KERNEL);
	struct ktrace_event *ev;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, names);
	for (i = 0; i <= KTRACE_ID_COMPACT_MAX; i++) {
		snprintf(names[i], sizeof(names[i]), "e%u", i);
		ev = new_event(test, "g", names[i], KTRACE_CHANNEL_HIGH,
			       KTRACE_EVENT_COMPACT);
		KUNIT_ASSERT_EQ(test, ktrace_registry_add(&reg, ev), 0);
		KUNIT_EXPECT_EQ(test, ev->id, i);
	}
	ev = new_event(test, "g", "one_too_many", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT);
	KUNIT_EXPECT_EQ(test, ktrace_registry_add(&reg, ev), -ENOSPC);
	KUNIT_EXPECT_EQ(test, count(&reg), KTRACE_ID_COMPACT_MAX + 1);

	/* Ids are per channel. */
	ev = new_event(test, "g", "medium0", KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_COMPACT);
	KUNIT_ASSERT_EQ(test, ktrace_registry_add(&reg, ev), 0);
	KUNIT_EXPECT_EQ(test, ev->id, 0);
}

static void event_expanded_ids_test(struct kunit *test)
{
	static const struct {
		const char *group, *name;
		u8 major, minor;
	} cases[] = {
		{ "sched", "a", 2, 0 },
		{ "sched", "b", 2, 1 },
		{ "block", "c", 3, 0 },
		{ "ktrace", "mark", KTRACE_MAJOR_KTRACE, 0 },
		{ "sched", "d", 2, 2 },
		{ "ktrace", "other", KTRACE_MAJOR_KTRACE, 1 },
		{ "vm", "e", 4, 0 },
	};
	struct ktrace_registry reg = KTRACE_REGISTRY_INIT(reg);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ktrace_event *ev = new_event(test, cases[i].group, cases[i].name,
						    KTRACE_CHANNEL_HIGH,
						    KTRACE_EVENT_EXPANDED);

		KUNIT_ASSERT_EQ(test, ktrace_registry_add(&reg, ev), 0);
		KUNIT_EXPECT_EQ_MSG(test, ev->major, cases[i].major, "%s:%s",
				    cases[i].group, cases[i].name);
		KUNIT_EXPECT_EQ_MSG(test, ev->minor, cases[i].minor, "%s:%s",
				    cases[i].group, cases[i].name);
		KUNIT_EXPECT_EQ(test, ev->id, KTRACE_ID_EXPANDED);
	}
}

static void event_refusals_test(struct kunit *test)
{
	static const struct ktrace_field too_wide[] = {
		{ .name = "x", .offset = 20, .size = 13 },
	};
	static const struct ktrace_field zero_width[] = {
		{ .name = "x", .offset = 0, .size = 0 },
	};
	struct ktrace_registry reg = KTRACE_REGISTRY_INIT(reg);
	struct ktrace_event *ev;

	ev = new_event(test, "g", "x", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT);
	KUNIT_ASSERT_EQ(test, ktrace_registry_add(&reg, ev), 0);
	ev = new_event(test, "g", "x", KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED);
	KUNIT_EXPECT_EQ(test, ktrace_registry_add(&reg, ev), -EEXIST);

	ev = new_event(test, "g", "wide", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT);
	ev->fields = too_wide;
	KUNIT_EXPECT_EQ(test, ktrace_registry_add(&reg, ev), -EINVAL);
	ev = new_event(test, "g", "zero", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT);
	ev->fields = zero_width;
	KUNIT_EXPECT_EQ(test, ktrace_registry_add(&reg, ev), -EINVAL);
	ev = new_event(test, "g", "bad_channel", KTRACE_NR_CHANNELS, KTRACE_EVENT_COMPACT);
	KUNIT_EXPECT_EQ(test, ktrace_registry_add(&reg, ev), -EINVAL);
	ev = new_event(test, NULL, "no_group", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT);
	KUNIT_EXPECT_EQ(test, ktrace_registry_add(&reg, ev), -EINVAL);
	ev = new_event(test, "g", "a_name_of_thirty_two_characters_", KTRACE_CHANNEL_HIGH,
		       KTRACE_EVENT_COMPACT);
	KUNIT_EXPECT_EQ(test, ktrace_registry_add(&reg, ev), -EINVAL);

	/* None of that used an id or changed the registry. */
	KUNIT_EXPECT_EQ(test, count(&reg), 1);
	ev = new_event(test, "g", "y", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT);
	KUNIT_ASSERT_EQ(test, ktrace_registry_add(&reg, ev), 0);
	KUNIT_EXPECT_EQ(test, ev->id, 1);
}

/* An event whose enable callback counts its calls and can be made to fail. */
struct test_event {
	struct ktrace_event ev;
	unsigned int calls;
	int fail_on;	/* the error of turning it on */
	int fail_off;	/* the error of turning it off */
};

static int test_event_enable(struct ktrace_event *ev, bool on)
{
	struct test_event *te = container_of(ev, struct test_event, ev);

	te->calls++;
	return on ? te->fail_on : te->fail_off;
}

static struct test_event *add_test_event(struct kunit *test, struct ktrace_registry *reg,
					 const char *group, const char *name, bool enabled)
{
	struct test_event *te = kunit_kzalloc(test, sizeof(*te), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, te);
	te->ev.group = group;
	te->ev.name = name;
	te->ev.channel = KTRACE_CHANNEL_HIGH;
	te->ev.kind = KTRACE_EVENT_COMPACT;
	te->ev.fields = one_field;
	te->ev.nr_fields = ARRAY_SIZE(one_field);
	te->ev.enable = test_event_enable;
	te->ev.enabled = enabled;
	KUNIT_ASSERT_EQ(test, ktrace_registry_add(reg, &te->ev), 0);
	return te;
}

/* "name=0|1 " for every event of the registry. */
static const char *states(struct kunit *test, struct ktrace_registry *reg)
{
	char *buf = kunit_kzalloc(test, 128, GFP_KERNEL);
	struct ktrace_event *ev;
	size_t len = 0;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	list_for_each_entry(ev, &reg->events, list)
		len += scnprintf(buf + len, 128 - len, "%s=%d ", ev->name, ev->enabled);
	return buf;
}

/*
 * A group or all-events write is all or nothing: an event that fails to
 * turn on, or off, leaves every event as it was, and the ones changed
 * before it had their callbacks called back.
 */
static void event_group_enable_all_or_nothing_test(struct kunit *test)
{
	struct ktrace_registry reg = KTRACE_REGISTRY_INIT(reg);
	struct test_event *a, *b, *c, *d, *x;
	struct ktrace_event *ev;

	a = add_test_event(test, &reg, "g", "a", false);
	b = add_test_event(test, &reg, "g", "b", true);
	c = add_test_event(test, &reg, "g", "c", false);
	d = add_test_event(test, &reg, "g", "d", false);
	x = add_test_event(test, &reg, "h", "x", false);

	c->fail_on = -ENOMEM;
	KUNIT_EXPECT_EQ(test, ktrace_registry_set_enabled(&reg, "g", true), -ENOMEM);
	KUNIT_EXPECT_STREQ(test, states(test, &reg), "a=0 b=1 c=0 d=0 x=0 ");
	/* a was turned on and back off; b was on already; d not reached. */
	KUNIT_EXPECT_EQ(test, a->calls, 2);
	KUNIT_EXPECT_EQ(test, b->calls, 0);
	KUNIT_EXPECT_EQ(test, c->calls, 1);
	KUNIT_EXPECT_EQ(test, d->calls, 0);

	/* The same for every event, through another group. */
	KUNIT_EXPECT_EQ(test, ktrace_registry_set_enabled(&reg, NULL, true), -ENOMEM);
	KUNIT_EXPECT_STREQ(test, states(test, &reg), "a=0 b=1 c=0 d=0 x=0 ");
	KUNIT_EXPECT_EQ(test, x->calls, 0);

	/* Turning off: d fails, a and b are turned back on. */
	c->fail_on = 0;
	KUNIT_ASSERT_EQ(test, ktrace_registry_set_enabled(&reg, NULL, true), 0);
	KUNIT_EXPECT_STREQ(test, states(test, &reg), "a=1 b=1 c=1 d=1 x=1 ");
	d->fail_off = -EBUSY;
	KUNIT_EXPECT_EQ(test, ktrace_registry_set_enabled(&reg, "g", false), -EBUSY);
	KUNIT_EXPECT_STREQ(test, states(test, &reg), "a=1 b=1 c=1 d=1 x=1 ");

	/* A successful write changes them all; no mark is left behind. */
	d->fail_off = 0;
	KUNIT_EXPECT_EQ(test, ktrace_registry_set_enabled(&reg, "g", false), 0);
	KUNIT_EXPECT_STREQ(test, states(test, &reg), "a=0 b=0 c=0 d=0 x=1 ");
	list_for_each_entry(ev, &reg.events, list)
		KUNIT_EXPECT_FALSE(test, ev->toggled);
}

/*
 * The control layer gives no files to an event whose group directory
 * debugfs refuses to make (a '/' in the name), and takes no reference on
 * the error it got instead of a directory.
 */
static void event_fs_bad_group_test(struct kunit *test)
{
	struct ktrace_event *ev = new_event(test, "kunit/bad", "x", KTRACE_CHANNEL_HIGH,
					    KTRACE_EVENT_COMPACT);

	if (!ktrace_fs || !ktrace_fs->event_added)
		kunit_skip(test, "no control layer");
	/*
	 * debugfs gives an ERR_PTR() for the group, which must not be
	 * dget().  ktrace_mutex, which orders the hook's calls for the
	 * events of one group, is not needed: no other event has this group.
	 */
	ktrace_fs->event_added(ev);
	KUNIT_SUCCEED(test);
}

/* The kernel's registry has ktrace:mark where the format says. */
static void event_mark_test(struct kunit *test)
{
	struct ktrace_event *ev = ktrace_event_find("ktrace", "mark");

	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, ev->major, KTRACE_MAJOR_KTRACE);
	KUNIT_EXPECT_EQ(test, ev->minor, KTRACE_MINOR_MARK);
	KUNIT_EXPECT_EQ(test, ev->channel, KTRACE_CHANNEL_MEDIUM);
	KUNIT_EXPECT_NULL(test, ktrace_event_find("ktrace", "nonexistent"));
}

struct lookup_ctx {
	struct completion done;
	struct ktrace_event *found;
};

static int lookup_fn(void *data)
{
	struct lookup_ctx *ctx = data;

	/* As the panic dump calls it: interrupts off. */
	local_irq_disable();
	ctx->found = ktrace_event_lookup(KTRACE_CHANNEL_MEDIUM, KTRACE_ID_EXPANDED,
					 KTRACE_MAJOR_KTRACE, KTRACE_MINOR_MARK);
	local_irq_enable();
	kthread_complete_and_exit(&ctx->done, 0);
}

/*
 * The panic dump looks events up while the other CPUs are stopped, one
 * maybe in ktrace_mutex (an ascii reader formatting a line, a control
 * file): the lookup must find the event without waiting for it.
 */
static void event_lookup_unlocked_test(struct kunit *test)
{
	struct lookup_ctx ctx = {};
	struct task_struct *t;
	unsigned long left;

	init_completion(&ctx.done);
	mutex_lock(&ktrace_mutex);
	t = kthread_run(lookup_fn, &ctx, "ktrace_lookup");
	if (IS_ERR(t)) {
		mutex_unlock(&ktrace_mutex);
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		return;
	}
	left = wait_for_completion_timeout(&ctx.done, 2 * HZ);
	mutex_unlock(&ktrace_mutex);
	/* A lookup that waited for the mutex ends now. */
	if (!left)
		wait_for_completion(&ctx.done);
	KUNIT_EXPECT_NE_MSG(test, left, 0, "the lookup waited for ktrace_mutex");
	KUNIT_EXPECT_PTR_EQ(test, ctx.found, ktrace_event_find("ktrace", "mark"));
	KUNIT_EXPECT_NOT_NULL(test, ctx.found);
}

static struct kunit_case ktrace_event_cases[] = {
	KUNIT_CASE(event_compact_ids_test),
	KUNIT_CASE(event_expanded_ids_test),
	KUNIT_CASE(event_refusals_test),
	KUNIT_CASE(event_mark_test),
	KUNIT_CASE(event_group_enable_all_or_nothing_test),
	KUNIT_CASE(event_fs_bad_group_test),
	KUNIT_CASE(event_lookup_unlocked_test),
	{}
};

static struct kunit_suite ktrace_event_suite = {
	.name = "ktrace_event",
	.test_cases = ktrace_event_cases,
};

kunit_test_suite(ktrace_event_suite);

MODULE_DESCRIPTION("KUnit tests for the ktrace event registry");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
