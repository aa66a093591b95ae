// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the saved comms table: a name saved for a pid is found
 * for that pid only, two pids sharing a slot keep their names, a third
 * evicts the older (never giving a pid another's name),
 * long names are truncated, a busy slot is left alone and counted, and a
 * reset forgets everything.  They use a private table, not the trace's.
 */
#include <kunit/test.h>

#include "comm.h"

#define SLOTS	16

static struct ktrace_comm_table *new_table(struct kunit *test)
{
	struct ktrace_comm_table *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, ktrace_comm_table_init(t, SLOTS), 0);
	return t;
}

static void comm_save_lookup(struct kunit *test)
{
	struct ktrace_comm_table *t = new_table(test);
	char comm[TASK_COMM_LEN];

	ktrace_comm_table_save(t, 7, "init");
	ktrace_comm_table_save(t, 42, "worker");
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_lookup(t, 7, comm));
	KUNIT_EXPECT_STREQ(test, comm, "init");
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_lookup(t, 42, comm));
	KUNIT_EXPECT_STREQ(test, comm, "worker");
	/* A rename replaces the name. */
	ktrace_comm_table_save(t, 42, "renamed");
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_lookup(t, 42, comm));
	KUNIT_EXPECT_STREQ(test, comm, "renamed");
	/* Never saved, or the pid of the slot is another: not named. */
	KUNIT_EXPECT_FALSE(test, ktrace_comm_table_lookup(t, 8, comm));
	KUNIT_EXPECT_FALSE(test, ktrace_comm_table_lookup(t, 7 + SLOTS, comm));
	KUNIT_EXPECT_FALSE(test, ktrace_comm_table_lookup(t, 0, comm));
	KUNIT_EXPECT_FALSE(test, ktrace_comm_table_lookup(t, -7, comm));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t->missed), 0);
	ktrace_comm_table_free(t);
}

/*
 * Pids sharing their first slot (3, 67, 19 and 163 with 16 slots, pid_max
 * above the table's size): the second keeps both names, a third evicts
 * the older of its two slots, and a pid whose name was evicted has none,
 * never another pid's.  The second slots are hash_32()'s, checked first.
 */
static void comm_collision(struct kunit *test)
{
	struct ktrace_comm_table *t = new_table(test);
	char comm[TASK_COMM_LEN];
	pid_t pid;

	KUNIT_ASSERT_EQ(test, ktrace_comm_way(t, 3, 0), 3);
	KUNIT_ASSERT_EQ(test, ktrace_comm_way(t, 67, 0), 3);
	KUNIT_ASSERT_EQ(test, ktrace_comm_way(t, 67, 1), 9);
	ktrace_comm_table_save(t, 3, "old");
	ktrace_comm_table_save(t, 67, "new");
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_lookup(t, 3, comm));
	KUNIT_EXPECT_STREQ(test, comm, "old");
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_lookup(t, 67, comm));
	KUNIT_EXPECT_STREQ(test, comm, "new");
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_get(t, 3, &pid, comm));
	KUNIT_EXPECT_EQ(test, pid, 3);
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_get(t, 9, &pid, comm));
	KUNIT_EXPECT_EQ(test, pid, 67);
	KUNIT_EXPECT_FALSE(test, ktrace_comm_table_get(t, 4, &pid, comm));
	KUNIT_EXPECT_FALSE(test, ktrace_comm_table_get(t, SLOTS, &pid, comm));
	/* A rename of the pid in its second slot stays there. */
	ktrace_comm_table_save(t, 67, "renamed");
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_get(t, 9, &pid, comm));
	KUNIT_EXPECT_STREQ(test, comm, "renamed");
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_get(t, 3, &pid, comm));
	KUNIT_EXPECT_STREQ(test, comm, "old");
	ktrace_comm_table_free(t);
}

static void comm_evict_oldest(struct kunit *test)
{
	struct ktrace_comm_table *t = new_table(test);
	char comm[TASK_COMM_LEN];

	/* 19 and 163: slots 3 and 4 both. */
	KUNIT_ASSERT_EQ(test, ktrace_comm_way(t, 19, 0), 3);
	KUNIT_ASSERT_EQ(test, ktrace_comm_way(t, 19, 1), 4);
	KUNIT_ASSERT_EQ(test, ktrace_comm_way(t, 163, 0), 3);
	KUNIT_ASSERT_EQ(test, ktrace_comm_way(t, 163, 1), 4);
	ktrace_comm_table_save(t, 3, "three");
	ktrace_comm_table_save(t, 19, "nineteen");
	KUNIT_EXPECT_EQ(test, t->slots[4].pid, 19);
	/* 19 saved before 3: 163 evicts 19. */
	t->slots[3].stamp = 1000;
	t->slots[4].stamp = 900;
	ktrace_comm_table_save(t, 163, "late");
	KUNIT_EXPECT_FALSE(test, ktrace_comm_table_lookup(t, 19, comm));
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_lookup(t, 3, comm));
	KUNIT_EXPECT_STREQ(test, comm, "three");
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_lookup(t, 163, comm));
	KUNIT_EXPECT_STREQ(test, comm, "late");
	/* Now 3 is the older, across a wrap of the stamp: 19 evicts it. */
	t->slots[3].stamp = U32_MAX - 5;
	t->slots[4].stamp = 10;
	ktrace_comm_table_save(t, 19, "again");
	KUNIT_EXPECT_FALSE(test, ktrace_comm_table_lookup(t, 3, comm));
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_lookup(t, 19, comm));
	KUNIT_EXPECT_STREQ(test, comm, "again");
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_lookup(t, 163, comm));
	KUNIT_EXPECT_STREQ(test, comm, "late");
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t->missed), 0);
	ktrace_comm_table_free(t);
}

static void comm_truncate(struct kunit *test)
{
	struct ktrace_comm_table *t = new_table(test);
	char comm[TASK_COMM_LEN];

	ktrace_comm_table_save(t, 5, "a_name_longer_than_sixteen");
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_lookup(t, 5, comm));
	KUNIT_EXPECT_STREQ(test, comm, "a_name_longer_t");
	/* A shorter name leaves nothing of the longer one. */
	ktrace_comm_table_save(t, 5, "ab");
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_lookup(t, 5, comm));
	KUNIT_EXPECT_STREQ(test, comm, "ab");
	KUNIT_EXPECT_NULL(test, memchr_inv(comm + 2, 0, TASK_COMM_LEN - 2));
	ktrace_comm_table_free(t);
}

/*
 * A writer interrupted in the middle of a slot (its count odd): a nested
 * save gives up and is counted, readers do not return the half-written
 * slot, and the slot is whole again once the writer finishes.
 */
static void comm_busy_slot(struct kunit *test)
{
	struct ktrace_comm_table *t = new_table(test);
	struct ktrace_comm_slot *s = &t->slots[9];
	char comm[TASK_COMM_LEN];

	ktrace_comm_table_save(t, 9, "before");
	atomic_inc(&s->seq);
	ktrace_comm_table_save(t, 9, "nested");
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t->missed), 1);
	KUNIT_EXPECT_FALSE(test, ktrace_comm_table_lookup(t, 9, comm));
	atomic_inc(&s->seq);
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_lookup(t, 9, comm));
	KUNIT_EXPECT_STREQ(test, comm, "before");
	ktrace_comm_table_save(t, 9, "after");
	KUNIT_EXPECT_TRUE(test, ktrace_comm_table_lookup(t, 9, comm));
	KUNIT_EXPECT_STREQ(test, comm, "after");
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t->missed), 1);
	ktrace_comm_table_free(t);
}

static void comm_reset(struct kunit *test)
{
	struct ktrace_comm_table *t = new_table(test);
	char comm[TASK_COMM_LEN];
	unsigned int slot;
	pid_t pid;

	for (pid = 1; pid <= SLOTS; pid++)
		ktrace_comm_table_save(t, pid, "x");
	ktrace_comm_table_reset(t);
	for (slot = 0; slot < SLOTS; slot++)
		KUNIT_EXPECT_FALSE(test, ktrace_comm_table_get(t, slot, &pid, comm));
	ktrace_comm_table_free(t);
}

static struct kunit_case ktrace_comm_cases[] = {
	KUNIT_CASE(comm_save_lookup),
	KUNIT_CASE(comm_collision),
	KUNIT_CASE(comm_evict_oldest),
	KUNIT_CASE(comm_truncate),
	KUNIT_CASE(comm_busy_slot),
	KUNIT_CASE(comm_reset),
	{}
};

static struct kunit_suite ktrace_comm_suite = {
	.name = "ktrace_comm",
	.test_cases = ktrace_comm_cases,
};

kunit_test_suite(ktrace_comm_suite);

MODULE_DESCRIPTION("KUnit tests for ktrace's saved comms");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
