// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the expanded payloads against their metadata: for every
 * record a probe or the statedump writes, the fill-in the probe calls is
 * run on poisoned memory with values that differ in every byte, the bytes
 * are put together as ktrace_event_write() or ktrace_event_write2() would,
 * and then decoded the way a decoder does, through the field records the
 * metadata writer emits for the event.  Every field must give back what
 * was written, and every byte no field covers must be zero: a layout that
 * disagrees with its metadata, or that copies uninitialised memory into
 * the trace, fails here.
 *
 * Also: the metadata writer announces the records it writes and counts
 * those refused.
 */
#include <kunit/test.h>
#include <linux/kdev_t.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "event.h"
#include "probes/records.h"

#define POISON		0xaa
#define MAX_PAYLOAD	256
#define MAX_FIELDS	16

/**
 * struct meta_capture - the metadata of events, as a decoder reads it
 * @w: the writer the records are given to
 * @fail_from: records from this one on (from 0) are refused; 0 for none
 * @nr: records given
 * @types: the type of each of the first records given
 * @trace: the last struct ktrace_meta_trace written
 * @fields: the field records of the last event written
 * @nr_fields: their number
 * @nr_events: event records written
 */
struct meta_capture {
	struct ktrace_meta_writer w;
	unsigned int fail_from;
	unsigned int nr;
	u8 types[8];
	struct ktrace_meta_trace trace;
	struct ktrace_meta_field fields[MAX_FIELDS];
	unsigned int nr_fields;
	unsigned int nr_events;
};

static int capture(struct ktrace_meta_writer *w, u8 type, const void *rec, u16 len)
{
	struct meta_capture *c = container_of(w, struct meta_capture, w);
	unsigned int i = c->nr++;

	if (i < ARRAY_SIZE(c->types))
		c->types[i] = type;
	if (c->fail_from && i >= c->fail_from)
		return -ENOSPC;
	switch (type) {
	case KTRACE_META_TRACE:
		if (len == sizeof(c->trace))
			memcpy(&c->trace, rec, len);
		break;
	case KTRACE_META_EVENT:
		c->nr_fields = 0;
		c->nr_events++;
		break;
	case KTRACE_META_FIELD:
		if (c->nr_fields < MAX_FIELDS && len == sizeof(c->fields[0]))
			memcpy(&c->fields[c->nr_fields++], rec, len);
		break;
	}
	return 0;
}

/**
 * struct field_want - what one field must decode to
 * @name: the field
 * @value: a number, sign-extended for signed fields
 * @str: a string field: its text
 */
struct field_want {
	const char *name;
	u64 value;
	const char *str;
};

/**
 * struct layout_case - one record
 * @desc: GROUP:NAME of its event
 * @fields: its field table
 * @nr_fields: the number of fields
 * @head: bytes @fill writes, sizeof() its struct
 * @fill: writes the struct as the probe does
 * @tail: the string written after it, or %NULL
 * @want: what each field must decode to
 */
struct layout_case {
	const char *desc;
	const struct ktrace_field *fields;
	u8 nr_fields;
	size_t head;
	void (*fill)(void *p);
	const char *tail;
	struct field_want want[MAX_FIELDS];
};

/* Values whose bytes all differ, so that a misplaced field shows. */
#define V64	0x0123456789abcdefULL
#define V32	0x8badf00dU

static void fill_fork(void *p)
{
	kt_fork_fill(p, 0x01020304, 0x05060708, 0x090a0b0c);
}

static void fill_exec(void *p)
{
	kt_exec_fill(p, 0x11121314, 0x15161718, "exec-comm");
}

static void fill_comm(void *p)
{
	kt_comm_fill(p, 0x21222324);
}

static void fill_timer(void *p)
{
	kt_timer_fill(p, (void *)(unsigned long)V64, -123456789, 1);
}

static void fill_timer_late(void *p)
{
	/* 5 s late: saturates at S32_MAX. */
	kt_timer_fill(p, (void *)(unsigned long)V64, 5000000000LL, 0);
}

static void fill_irqsoff(void *p)
{
	/* 5 s: saturates at U32_MAX. */
	kt_irqsoff_fill(p, (unsigned long)V64, 5000000000ULL);
}

static void fill_block(void *p)
{
	/* 0x1234 sectors: under the 65535 at which the count saturates. */
	kt_blk_desc_fill(p, V32, V64, 0x1234 << SECTOR_SHIFT,
			 REQ_OP_WRITE | REQ_SYNC | REQ_META | REQ_FUA);
}

static void fill_block_big(void *p)
{
	/* 1 GiB of discard: the sector count saturates. */
	kt_blk_desc_fill(p, V32, V64, 1U << 30, REQ_OP_DISCARD | REQ_RAHEAD);
}

static void fill_block_status(void *p)
{
	kt_blk_status_fill(p, V32, 0x01020304, -EIO);
}

static void fill_shrink(void *p)
{
	struct reclaim_stat st = {
		.nr_dirty = 0x101, .nr_unqueued_dirty = 0x999,
		.nr_congested = 0x303, .nr_writeback = 0x202,
		.nr_immediate = 0x404, .nr_pageout = 0x999,
		.nr_activate = { 0x500, 0x5 }, .nr_ref_keep = 0x606,
		.nr_unmap_fail = 0x707, .nr_lazyfree_fail = 0x909,
	};

	st.nr_locked = 100000;	/* saturates */
	kt_shrink_fill(p, 0x0102, 100000, 0x0a0b, &st, 12, 2);
}

static void fill_oom(void *p)
{
	const struct kt_oom_mem mem = {
		.total_vm = 0x10000, .anon_rss = 0x2000, .file_rss = 0x300,
		.shmem_rss = 0x40, .pgtables_bytes = 0x50000,
	};

	kt_oom_fill(p, 0x31323334, "oom-victim", 0x35363738, -1000, &mem);
}

static void fill_oom_no_mm(void *p)
{
	kt_oom_fill(p, 0x41424344, "kthread", 0, 0, NULL);
}

static void fill_sd_task(void *p)
{
	kt_sd_task_fill(p, 0x51525354, 0x55565758, 0x595a5b5c, 2, true, "kworker/0:1");
}

static void fill_sd_fd(void *p)
{
	kt_sd_fd_fill(p, 0x61626364, 0x65666768);
}

static void fill_sd_map(void *p)
{
	kt_sd_map_fill(p, 0x71727374, V64, V64 + 0x1000, 0x1122334455667788ULL,
		       0x8877665544332211ULL);
}

static void fill_sd_irq(void *p)
{
	kt_sd_irq_fill(p, 0x81828384, (void *)(unsigned long)V64);
}

/* As kt_dump_bdev() and kt_dump_netdevs() write them. */
static void fill_sd_blockdev(void *p)
{
	struct kt_sd_blockdev e = { .dev = V32, .size_mib = 0x41424344 };

	memcpy(p, &e, sizeof(e));
}

static void fill_sd_netdev(void *p)
{
	struct kt_sd_netdev e = { .ifindex = 0x91929394 };

	memcpy(p, &e, sizeof(e));
}

static void fill_sd_module(void *p)
{
	kt_sd_module_fill(p, V64, 0xa1a2a3a4);
}

static void fill_sd_end(void *p)
{
	kt_sd_end_fill(p, V64, 0x1122334455667788ULL, 0xb1b2b3b4, 0xb5b6b7b8,
		       0xb9babbbc, 0xbdbebfc0, 0xc1c2c3c4);
}

#define CASE(ev, tbl, type, fn, tl, ...)				\
	{ .desc = ev, .fields = tbl##_fields,				\
	  .nr_fields = ARRAY_SIZE(tbl##_fields), .head = sizeof(type),	\
	  .fill = fn, .tail = tl, .want = { __VA_ARGS__ } }
#define NUM(nm, v)	{ .name = nm, .value = (u64)(v) }
#define STR(nm, s)	{ .name = nm, .str = s }

static const struct layout_case layout_cases[] = {
	CASE("sched:fork", kt_fork, struct kt_fork, fill_fork, "child-comm",
	     NUM("parent_pid", 0x01020304), NUM("child_pid", 0x05060708),
	     NUM("child_tgid", 0x090a0b0c), STR("comm", "child-comm")),
	CASE("sched:exec", kt_exec, struct kt_exec, fill_exec, "/usr/bin/true",
	     NUM("pid", 0x11121314), NUM("old_pid", 0x15161718),
	     STR("comm", "exec-comm"), STR("filename", "/usr/bin/true")),
	/* A name of TASK_COMM_LEN - 1 characters. */
	CASE("sched:comm", kt_comm, struct kt_comm, fill_comm, "fifteen-chars.x",
	     NUM("pid", 0x21222324), STR("comm", "fifteen-chars.x")),
	CASE("irq:timer_expire", kt_timer, struct kt_timer, fill_timer, NULL,
	     NUM("function", (unsigned long)V64), NUM("late_ns", -123456789LL),
	     NUM("kind", 1)),
	CASE("irq:timer_expire", kt_timer, struct kt_timer, fill_timer_late, NULL,
	     NUM("function", (unsigned long)V64), NUM("late_ns", S32_MAX),
	     NUM("kind", 0)),
	CASE("irq:irqsoff", kt_irqsoff, struct kt_irqsoff, fill_irqsoff, NULL,
	     NUM("caller", (unsigned long)V64), NUM("duration_ns", U32_MAX)),
	CASE("block:bio_queue", kt_blk_desc, struct ktrace_blk_desc, fill_block, NULL,
	     NUM("dev", V32), NUM("sector", V64), NUM("nr_sector", 0x1234),
	     NUM("op", KTRACE_BLK_OP_WRITE),
	     NUM("flags", KTRACE_BLK_SYNC | KTRACE_BLK_META | KTRACE_BLK_FUA)),
	CASE("block:rq_describe", kt_blk_desc, struct ktrace_blk_desc, fill_block_big,
	     NULL, NUM("dev", V32), NUM("sector", V64), NUM("nr_sector", U16_MAX),
	     NUM("op", KTRACE_BLK_OP_DISCARD), NUM("flags", KTRACE_BLK_RAHEAD)),
	CASE("block:rq_status", kt_blk_status, struct ktrace_blk_status,
	     fill_block_status, NULL, NUM("rq", V32), NUM("bytes", 0x01020304),
	     NUM("error", -EIO)),
	CASE("vm:shrink_inactive", kt_shrink, struct kt_shrink, fill_shrink, NULL,
	     NUM("nid", 0x0102), NUM("priority", 12), NUM("lru", 1),
	     NUM("scanned", U16_MAX), NUM("reclaimed", 0x0a0b),
	     NUM("dirty", 0x101), NUM("writeback", 0x202),
	     NUM("congested", 0x303), NUM("immediate", 0x404),
	     NUM("activated", 0x505), NUM("referenced", 0x606),
	     NUM("unmap_fail", 0x707), NUM("locked", U16_MAX),
	     NUM("lazyfree_fail", 0x909)),
	CASE("vm:oom_kill", kt_oom, struct kt_oom, fill_oom, NULL,
	     NUM("pid", 0x31323334), STR("comm", "oom-victim"),
	     NUM("total_vm_kb", 0x10000UL << (PAGE_SHIFT - 10)),
	     NUM("anon_rss_kb", 0x2000UL << (PAGE_SHIFT - 10)),
	     NUM("file_rss_kb", 0x300UL << (PAGE_SHIFT - 10)),
	     NUM("shmem_rss_kb", 0x40UL << (PAGE_SHIFT - 10)),
	     NUM("pgtables_kb", 0x50000 >> 10), NUM("uid", 0x35363738),
	     NUM("oom_score_adj", -1000LL)),
	CASE("vm:oom_kill", kt_oom, struct kt_oom, fill_oom_no_mm, NULL,
	     NUM("pid", 0x41424344), STR("comm", "kthread"),
	     NUM("total_vm_kb", 0), NUM("anon_rss_kb", 0), NUM("file_rss_kb", 0),
	     NUM("shmem_rss_kb", 0), NUM("pgtables_kb", 0), NUM("uid", 0),
	     NUM("oom_score_adj", 0)),
	CASE("statedump:task", kt_sd_task, struct kt_sd_task, fill_sd_task, NULL,
	     NUM("pid", 0x51525354), NUM("tgid", 0x55565758),
	     NUM("ppid", 0x595a5b5c), NUM("state", 2), NUM("kthread", 1),
	     STR("comm", "kworker/0:1")),
	CASE("statedump:fd", kt_sd_fd, struct kt_sd_fd, fill_sd_fd, "/dev/null",
	     NUM("pid", 0x61626364), NUM("fd", 0x65666768),
	     STR("path", "/dev/null")),
	CASE("statedump:map", kt_sd_map, struct kt_sd_map, fill_sd_map,
	     "/usr/lib/libc.so.6",
	     NUM("pid", 0x71727374), NUM("start", V64), NUM("end", V64 + 0x1000),
	     NUM("flags", 0x8877665544332211ULL), NUM("pgoff", 0x1122334455667788ULL),
	     STR("path", "/usr/lib/libc.so.6")),
	CASE("statedump:irq", kt_sd_irq, struct kt_sd_irq, fill_sd_irq, "ata_piix",
	     NUM("irq", 0x81828384), NUM("handler", (unsigned long)V64),
	     STR("name", "ata_piix")),
	CASE("statedump:blockdev", kt_sd_blockdev, struct kt_sd_blockdev,
	     fill_sd_blockdev, "vda1", NUM("dev", V32), NUM("size_mib", 0x41424344),
	     STR("name", "vda1")),
	CASE("statedump:netdev", kt_sd_netdev, struct kt_sd_netdev,
	     fill_sd_netdev, "eth0", NUM("ifindex", 0x91929394),
	     STR("name", "eth0")),
	CASE("statedump:module", kt_sd_module, struct kt_sd_module,
	     fill_sd_module, "test_module",
	     NUM("base", V64), NUM("size", 0xa1a2a3a4), STR("name", "test_module")),
	CASE("statedump:end", kt_sd_end, struct kt_sd_end, fill_sd_end, NULL,
	     NUM("duration_ns", V64), NUM("longest_hold_ns", 0x1122334455667788ULL),
	     NUM("tasks", 0xb1b2b3b4), NUM("fds", 0xb5b6b7b8),
	     NUM("maps", 0xb9babbbc), NUM("cpus", 0xbdbebfc0),
	     NUM("dropped", 0xc1c2c3c4)),
};

KUNIT_ARRAY_PARAM_DESC(layout, layout_cases, desc);

/*
 * The event the kernel registered under GROUP:NAME if this configuration
 * has it (its metadata is what traces carry), else one made of the table.
 */
static const struct ktrace_event *case_event(struct kunit *test,
					     const struct layout_case *c)
{
	struct ktrace_event *ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);
	const struct ktrace_event *reg;
	char *group, *name;

	KUNIT_ASSERT_NOT_NULL(test, ev);
	group = kunit_kstrdup(test, c->desc, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, group);
	name = strchr(group, ':');
	KUNIT_ASSERT_NOT_NULL(test, name);
	*name++ = '\0';
	reg = ktrace_event_find(group, name);
	if (reg) {
		unsigned int i;

		/* The table checked here is the one registered. */
		KUNIT_EXPECT_EQ(test, reg->kind, KTRACE_EVENT_EXPANDED);
		KUNIT_ASSERT_EQ(test, reg->nr_fields, c->nr_fields);
		for (i = 0; i < c->nr_fields; i++) {
			KUNIT_EXPECT_STREQ(test, reg->fields[i].name, c->fields[i].name);
			KUNIT_EXPECT_EQ(test, reg->fields[i].offset, c->fields[i].offset);
			KUNIT_EXPECT_EQ(test, reg->fields[i].size, c->fields[i].size);
			KUNIT_EXPECT_EQ(test, reg->fields[i].display, c->fields[i].display);
		}
		return reg;
	}
	kunit_info(test, "%s not registered in this configuration: its table", c->desc);
	ev->group = group;
	ev->name = name;
	ev->kind = KTRACE_EVENT_EXPANDED;
	ev->channel = KTRACE_CHANNEL_HIGH;
	ev->fields = c->fields;
	ev->nr_fields = c->nr_fields;
	return ev;
}

/* A number of 1, 2, 4 or 8 bytes; 64-bit values are two words, low first. */
static u64 get_num(const u8 *p, unsigned int size, bool sign)
{
	u64 v = 0;
	u32 lo, hi;
	u16 v16;

	switch (size) {
	case 1:
		v = sign ? (u64)(s64)(s8)p[0] : p[0];
		break;
	case 2:
		memcpy(&v16, p, 2);
		v = sign ? (u64)(s64)(s16)v16 : v16;
		break;
	case 4:
		memcpy(&lo, p, 4);
		v = sign ? (u64)(s64)(s32)lo : lo;
		break;
	case 8:
		memcpy(&lo, p, 4);
		memcpy(&hi, p + 4, 4);
		v = (u64)hi << 32 | lo;
		break;
	}
	return v;
}

static const struct field_want *find_want(const struct layout_case *c,
					  const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c->want) && c->want[i].name; i++)
		if (!strcmp(c->want[i].name, name))
			return &c->want[i];
	return NULL;
}

static void layout_test(struct kunit *test)
{
	const struct layout_case *c = test->param_value;
	struct meta_capture *cap = kunit_kzalloc(test, sizeof(*cap), GFP_KERNEL);
	u8 *mem = kunit_kmalloc(test, MAX_PAYLOAD, GFP_KERNEL);
	u8 *rec = kunit_kmalloc(test, MAX_PAYLOAD, GFP_KERNEL);
	bool covered[MAX_PAYLOAD] = {};
	const struct ktrace_event *ev;
	unsigned int i, nr_want = 0;
	size_t len = c->head;

	KUNIT_ASSERT_NOT_NULL(test, cap);
	KUNIT_ASSERT_NOT_NULL(test, mem);
	KUNIT_ASSERT_NOT_NULL(test, rec);

	/* The payload, as the write path copies it. */
	memset(mem, POISON, MAX_PAYLOAD);
	c->fill(mem);
	memcpy(rec, mem, c->head);
	if (c->tail) {
		memcpy(rec + c->head, c->tail, strlen(c->tail));
		len += strlen(c->tail);
	}
	KUNIT_ASSERT_LE(test, len, MAX_PAYLOAD);
	/* Nothing written beyond the struct. */
	for (i = c->head; i < MAX_PAYLOAD; i++)
		KUNIT_ASSERT_EQ_MSG(test, mem[i], POISON, "fill-in wrote byte %u", i);

	/* The field records a decoder gets for the event. */
	ev = case_event(test, c);
	cap->w.write = capture;
	ktrace_meta_event_write(&cap->w, ev);
	KUNIT_ASSERT_EQ(test, cap->nr_events, 1);
	KUNIT_ASSERT_EQ(test, cap->nr_fields, c->nr_fields);
	KUNIT_EXPECT_EQ(test, cap->w.written, ktrace_meta_event_records(ev));

	for (i = 0; c->want[i].name; i++)
		nr_want++;
	KUNIT_EXPECT_EQ_MSG(test, cap->nr_fields, nr_want, "fields decoded and expected");

	for (i = 0; i < cap->nr_fields; i++) {
		const struct ktrace_meta_field *f = &cap->fields[i];
		const struct field_want *want = find_want(c, f->name);
		unsigned int end = f->size ? f->offset + f->size : len, b;

		KUNIT_ASSERT_NOT_NULL_MSG(test, want, "field %s not expected", f->name);
		/*
		 * Kernel addresses are flagged, so that tools can hide them:
		 * every symbol, and a module's base.
		 */
		KUNIT_EXPECT_EQ_MSG(test, !!(f->flags & KTRACE_FIELD_KADDR),
				    f->display == KTRACE_DISPLAY_SYMBOL ||
				    (!strcmp(c->desc, "statedump:module") &&
				     !strcmp(f->name, "base")),
				    "field %s: KTRACE_FIELD_KADDR", f->name);
		KUNIT_ASSERT_LE_MSG(test, end, len, "field %s beyond the payload", f->name);
		KUNIT_ASSERT_LE_MSG(test, f->offset, end, "field %s", f->name);
		for (b = f->offset; b < end; b++) {
			KUNIT_EXPECT_FALSE_MSG(test, covered[b], "field %s overlaps at byte %u",
					       f->name, b);
			covered[b] = true;
		}
		if (f->display == KTRACE_DISPLAY_STRING) {
			size_t n = strnlen(rec + f->offset, end - f->offset);

			KUNIT_ASSERT_NOT_NULL_MSG(test, want->str, "field %s", f->name);
			KUNIT_EXPECT_EQ_MSG(test, n, strlen(want->str), "field %s", f->name);
			KUNIT_EXPECT_MEMEQ_MSG(test, rec + f->offset, want->str,
					       min(n, strlen(want->str)), "field %s", f->name);
			/* A sized string is NUL-padded, never stale bytes. */
			for (b = f->offset + n; b < end; b++)
				KUNIT_EXPECT_EQ_MSG(test, rec[b], 0, "field %s byte %u",
						    f->name, b - f->offset);
			continue;
		}
		KUNIT_ASSERT_TRUE_MSG(test, f->size == 1 || f->size == 2 || f->size == 4 ||
				      f->size == 8, "field %s of %u bytes", f->name, f->size);
		KUNIT_EXPECT_EQ_MSG(test, get_num(rec + f->offset, f->size,
						  f->flags & KTRACE_FIELD_SIGNED),
				    want->value, "field %s at offset %u", f->name, f->offset);
	}

	/* What no field describes is padding: zero, not poison or the stack. */
	for (i = 0; i < len; i++)
		KUNIT_EXPECT_TRUE_MSG(test, covered[i] || !rec[i],
				      "byte %u of %zu is in no field and is 0x%02x",
				      i, len, rec[i]);
}

/* The trace record announces how many records follow it. */
static void metadata_count_test(struct kunit *test)
{
	struct meta_capture *cap = kunit_kzalloc(test, sizeof(*cap), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cap);
	cap->w.write = capture;
	ktrace_metadata_write_to(&cap->w);
	KUNIT_EXPECT_EQ(test, cap->types[0], KTRACE_META_TRACE);
	KUNIT_EXPECT_EQ(test, cap->types[1], KTRACE_META_CLOCK);
	KUNIT_EXPECT_EQ(test, cap->types[2], KTRACE_META_CHANNEL);
	KUNIT_EXPECT_EQ(test, cap->trace.magic, KTRACE_MAGIC);
	/* The clock, three channels, and ktrace:mark's three records at least. */
	KUNIT_EXPECT_GE(test, cap->nr, 1 + 1 + KTRACE_NR_CHANNELS + 3);
	KUNIT_EXPECT_EQ(test, cap->trace.nr_records, cap->nr - 1);
	KUNIT_EXPECT_EQ(test, cap->w.written, cap->nr);
	KUNIT_EXPECT_EQ(test, cap->w.failed, 0);
	KUNIT_EXPECT_GT(test, cap->nr_events, 0);
}

/*
 * Records that are refused are counted, the others still written; the
 * trace record announces them all, so that a decoder sees what is missing.
 */
static void metadata_failed_test(struct kunit *test)
{
	struct meta_capture *cap = kunit_kzalloc(test, sizeof(*cap), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cap);
	cap->w.write = capture;
	cap->fail_from = 3;
	ktrace_metadata_write_to(&cap->w);
	KUNIT_EXPECT_EQ(test, cap->trace.nr_records, cap->nr - 1);
	KUNIT_EXPECT_EQ(test, cap->w.written, 3);
	KUNIT_EXPECT_EQ(test, cap->w.failed, cap->nr - 3);
	KUNIT_EXPECT_GT(test, cap->w.failed, 0);
}

/* Each REQ_OP_* and REQ_* bit against the stable value it becomes. */
static void block_translate_test(struct kunit *test)
{
	static const struct { blk_opf_t opf; u8 op; } ops[] = {
		{ REQ_OP_READ, KTRACE_BLK_OP_READ },
		{ REQ_OP_WRITE, KTRACE_BLK_OP_WRITE },
		{ REQ_OP_FLUSH, KTRACE_BLK_OP_FLUSH },
		{ REQ_OP_DISCARD, KTRACE_BLK_OP_DISCARD },
		{ REQ_OP_SECURE_ERASE, KTRACE_BLK_OP_SECURE_ERASE },
		{ REQ_OP_WRITE_ZEROES, KTRACE_BLK_OP_WRITE_ZEROES },
		{ REQ_OP_ZONE_APPEND, KTRACE_BLK_OP_ZONE_APPEND },
		{ REQ_OP_ZONE_OPEN, KTRACE_BLK_OP_ZONE_MGMT },
		{ REQ_OP_ZONE_CLOSE, KTRACE_BLK_OP_ZONE_MGMT },
		{ REQ_OP_ZONE_FINISH, KTRACE_BLK_OP_ZONE_MGMT },
		{ REQ_OP_ZONE_RESET, KTRACE_BLK_OP_ZONE_MGMT },
		{ REQ_OP_ZONE_RESET_ALL, KTRACE_BLK_OP_ZONE_MGMT },
		{ REQ_OP_DRV_IN, KTRACE_BLK_OP_DRV_IN },
		{ REQ_OP_DRV_OUT, KTRACE_BLK_OP_DRV_OUT },
		{ (__force blk_opf_t)REQ_OP_LAST, KTRACE_BLK_OP_OTHER },
	};
	static const struct { blk_opf_t flag; u8 bit; } flags[] = {
		{ REQ_SYNC, KTRACE_BLK_SYNC }, { REQ_META, KTRACE_BLK_META },
		{ REQ_PRIO, KTRACE_BLK_PRIO }, { REQ_FUA, KTRACE_BLK_FUA },
		{ REQ_PREFLUSH, KTRACE_BLK_PREFLUSH }, { REQ_RAHEAD, KTRACE_BLK_RAHEAD },
		{ REQ_BACKGROUND, KTRACE_BLK_BACKGROUND }, { REQ_NOWAIT, KTRACE_BLK_NOWAIT },
	};
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		KUNIT_EXPECT_EQ_MSG(test, kt_blk_op(ops[i].opf | REQ_SYNC | REQ_FUA), ops[i].op,
				    "REQ_OP %u", (__force u32)ops[i].opf);
		KUNIT_EXPECT_EQ(test, kt_blk_flags(ops[i].opf), 0);
		/* The stable op has a name in the metadata. */
		for (j = 0; j < ARRAY_SIZE(kt_blkop_values); j++)
			if (kt_blkop_values[j].value == ops[i].op)
				break;
		KUNIT_EXPECT_LT_MSG(test, j, ARRAY_SIZE(kt_blkop_values), "op %u", ops[i].op);
	}
	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		KUNIT_EXPECT_EQ(test, kt_blk_flags(REQ_OP_WRITE | flags[i].flag), flags[i].bit);
		KUNIT_EXPECT_EQ(test, kt_blkflag_values[i].value, flags[i].bit);
	}
	/* Bits with no stable meaning are not passed on. */
	KUNIT_EXPECT_EQ(test, kt_blk_flags(REQ_OP_WRITE | REQ_NOMERGE | REQ_IDLE), 0);
	/*
	 * KT_BLK_REQ_FLAGS names exactly the bits passed on, each to a bit of
	 * its own: the block probes compare two requests' flags by it.
	 */
	for (i = REQ_OP_BITS, j = 0; i < 32; i++) {
		blk_opf_t bit = (__force blk_opf_t)BIT(i);
		u8 f = kt_blk_flags(REQ_OP_WRITE | bit);

		KUNIT_EXPECT_EQ_MSG(test, !!f, !!(bit & KT_BLK_REQ_FLAGS), "REQ bit %u", i);
		KUNIT_EXPECT_LE_MSG(test, hweight8(f), 1, "REQ bit %u", i);
		KUNIT_EXPECT_EQ_MSG(test, f & j, 0, "REQ bit %u", i);
		j |= f;
	}
	KUNIT_EXPECT_EQ(test, j, 0xff);
}

/*
 * The key a probe writes is the one a decoder computes from the metadata:
 * the KTRACE_FIELD_IDENT fields of the description, in order; and it
 * changes with each of them.
 */
static void block_key_test(struct kunit *test)
{
	struct ktrace_blk_desc d, e;
	u64 h = KTRACE_KEY_SEED;
	unsigned int i, n = 0;

	kt_blk_desc_fill(&d, MKDEV(8, 16), 123456789, 4096, REQ_OP_WRITE | REQ_SYNC);
	for (i = 0; i < ARRAY_SIZE(kt_blk_desc_fields); i++) {
		const struct ktrace_field *f = &kt_blk_desc_fields[i];

		if (!(f->flags & KTRACE_FIELD_IDENT))
			continue;
		h = ktrace_key_add(h, get_num((u8 *)&d + f->offset, f->size, false));
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 5);
	KUNIT_EXPECT_EQ(test, ktrace_key_final(h), ktrace_blk_key(&d));

	/* Each field is part of the identity, the flags too. */
	kt_blk_desc_fill(&e, MKDEV(8, 16), 123456789, 4096, REQ_OP_WRITE);
	KUNIT_EXPECT_NE(test, ktrace_blk_key(&e), ktrace_blk_key(&d));
	kt_blk_desc_fill(&e, MKDEV(8, 17), 123456789, 4096, REQ_OP_WRITE);
	KUNIT_EXPECT_NE(test, ktrace_blk_key(&e), ktrace_blk_key(&d));
	kt_blk_desc_fill(&e, MKDEV(8, 16), 123456790, 4096, REQ_OP_WRITE);
	KUNIT_EXPECT_NE(test, ktrace_blk_key(&e), ktrace_blk_key(&d));
	kt_blk_desc_fill(&e, MKDEV(8, 16), 123456789, 8192, REQ_OP_WRITE);
	KUNIT_EXPECT_NE(test, ktrace_blk_key(&e), ktrace_blk_key(&d));
	kt_blk_desc_fill(&e, MKDEV(8, 16), 123456789, 4096, REQ_OP_READ);
	KUNIT_EXPECT_NE(test, ktrace_blk_key(&e), ktrace_blk_key(&d));
}

/*
 * The flag tables the metadata carries: the traced kernel's names for its
 * own values, each within the field that carries it.
 */
static void flag_tables_test(struct kunit *test)
{
	bool kernel = false, nowarn = false;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kt_gfp_values); i++) {
		const struct ktrace_enum_value *e = &kt_gfp_values[i];

		/* vm:direct_reclaim_begin keeps 28 bits of gfp flags. */
		KUNIT_EXPECT_LT_MSG(test, (u64)e->value, 1ULL << 28, "%s", e->name);
		KUNIT_EXPECT_NE_MSG(test, (u64)e->value, 0, "%s", e->name);
		if (!strcmp(e->name, "GFP_KERNEL")) {
			kernel = true;
			KUNIT_EXPECT_EQ(test, (u64)e->value, (__force u64)GFP_KERNEL);
		}
		if (!strcmp(e->name, "__GFP_NOWARN")) {
			nowarn = true;
			KUNIT_EXPECT_EQ(test, (u64)e->value, (__force u64)__GFP_NOWARN);
		}
	}
	KUNIT_EXPECT_TRUE(test, kernel);
	KUNIT_EXPECT_TRUE(test, nowarn);
	for (i = 0; i < ARRAY_SIZE(kt_vmflag_values); i++) {
		const struct ktrace_enum_value *e = &kt_vmflag_values[i];

		if (!strcmp(e->name, "read"))
			KUNIT_EXPECT_EQ(test, (u64)e->value, (u64)VM_READ);
		if (!strcmp(e->name, "mayshare"))
			KUNIT_EXPECT_EQ(test, (u64)e->value, (u64)VM_MAYSHARE);
		KUNIT_EXPECT_EQ_MSG(test, hweight64(e->value), 1, "%s", e->name);
	}
}

static struct kunit_case layout_test_cases[] = {
	KUNIT_CASE_PARAM(layout_test, layout_gen_params),
	KUNIT_CASE(metadata_count_test),
	KUNIT_CASE(metadata_failed_test),
	KUNIT_CASE(block_translate_test),
	KUNIT_CASE(block_key_test),
	KUNIT_CASE(flag_tables_test),
	{}
};

static struct kunit_suite ktrace_layout_suite = {
	.name = "ktrace_layout",
	.test_cases = layout_test_cases,
};

kunit_test_suite(ktrace_layout_suite);

MODULE_DESCRIPTION("KUnit tests of ktrace's record layouts and metadata");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
