// SPDX-License-Identifier: GPL-2.0
/*
 * mktrace: write synthetic trace files straight from the uapi header, and
 * the lines ktrace report must print for them, for the host tests.
 *
 *   mktrace TRACE EXPECTED [notrigger|incomplete|norealtime|symbols|
 *                           badsymbols|undecoded|timers ADDR...|longstr|dir DIR|
 *                           clock MONO REAL|v1|blockkeys|futurever|futuremeta|
 *                           manykeys N ended|collide|badmeta|latency [HOST]|
 *                           io|reclaim|ctf|attrib|profile|nodata|
 *                           cluster HOST ID OFFSET_NS DRIFT_PPB MODE]
 *
 * With "v1", the default trace in format version 1 (which it fits); with
 * "blockkeys", the displays of version 2 (see blockkeys_trace()); with
 * "futurever" and "futuremeta", a trace of a version after this one.
 *
 * With "clock MONO REAL", the clock record's references are MONO and REAL
 * nanoseconds (the events' times move with MONO); with "longstr", a trace
 * of an event whose two string fields are both its 65535 bytes, each
 * escaped to 4 bytes (text) or 6 (JSON), for lines of 512 KiB; a compact
 * event of the same GROUP:NAME on another channel; tasks named "7z" (pid
 * 123) and "my task" (pid 456); an armed trigger's line of 5000 bytes.
 *
 * With "dir DIR", each stream's bytes are also written to
 * DIR/CHANNEL/cpuN (DIR/high/cpu1, ...), as ktrace's relay files give
 * them, for ktrace extract and record to read from a fake $KTRACE_DIR;
 * $MKTRACE_DIR does the same for any trace.
 *
 * The trace has: metadata for a clock of 2.5 GHz with shift 7 (51.2 ns
 * per unit, so that expected times are exact integers), a compact event
 * and an expanded event of every display kind; compact events across
 * several 27-bit rollovers; a subbuffer sequence gap (overwritten
 * subbuffers); an expanded event of the maximum length; events with no
 * metadata (unknown); a pid-is-current event changing the running task;
 * the tasks section naming pids; the saved comms section, which wins over
 * the tasks section; and an event with "pid" and "comm" fields naming
 * pids, which wins over both.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/kernel.h>		/* tools/include: ARRAY_SIZE() */

#include "../trace.h"

/* A named value (below 2^32) of an enum or flags field. */
#define META_ENUM(v, n)		{ .value_lo = (v), .name = (n) }
/* The clock of most traces: 2.5 GHz, shift 7, 5 s at clock 1000. */
#define TEST_CLOCK		{ .freq_hz = 2500000000ULL, .shift = 7, .ref_clock = 1000, \
				  .ref_mono_ns = 5000000000ULL, .name = "tsc" }

#define SB_HIGH		4096
#define SB_MEDIUM	131072
#define SB_LOW		16384

static FILE *trace, *expect;
static const char *stream_dir;
/* The version of the subbuffer headers and trace records written. */
static unsigned int fmt_version = KTRACE_FORMAT_VERSION;

static void section(unsigned int type, unsigned int ch, unsigned int cpu,
		    const void *data, size_t len)
{
	static const char zero[8];
	struct ktf_section s = { .type = type, .channel = ch, .cpu = cpu, .length = len };

	fwrite(&s, sizeof(s), 1, trace);
	fwrite(data, 1, len, trace);
	fwrite(zero, 1, (8 - len % 8) % 8, trace);
}

/* One stream being built: one subbuffer at a time. */
struct sb {
	unsigned int ch, cpu;
	unsigned char *buf;
	size_t size, used;
	uint64_t last;
	unsigned char *out;
	size_t out_len;
};

static void sb_timestamp(struct sb *s, uint64_t clock)
{
	struct ktrace_timestamp ts = {
		.header = KTRACE_HEADER(KTRACE_ID_TIMESTAMP, clock),
		.clock_lo = (uint32_t)clock, .clock_hi = clock >> 32,
	};

	memcpy(s->buf + s->used, &ts, sizeof(ts));
	s->used += sizeof(ts);
	s->last = clock;
}

static void sb_begin(struct sb *s, uint64_t seq, int pid, uint64_t clock)
{
	struct ktrace_subbuf_header h = {
		.magic = KTRACE_MAGIC, .version = fmt_version,
		.channel = s->ch, .cpu = s->cpu, .seq = seq, .pid = pid,
	};

	memset(s->buf, 0, s->size);
	memcpy(s->buf, &h, sizeof(h));
	s->used = sizeof(h);
	sb_timestamp(s, clock);
}

static void sb_end(struct sb *s, uint64_t overwritten)
{
	struct ktrace_subbuf_header *h = (void *)s->buf;

	h->data_size = s->used - sizeof(*h);
	h->overwritten = overwritten;
	s->out = realloc(s->out, s->out_len + s->used);
	memcpy(s->out + s->out_len, s->buf, s->used);
	s->out_len += s->used;
}

static void *sb_reserve(struct sb *s, uint64_t clock, size_t len)
{
	void *p;

	if ((s->last ^ clock) >> KTRACE_CLOCK_BITS)
		sb_timestamp(s, clock);
	s->last = clock;
	p = s->buf + s->used;
	s->used += len;
	if (s->used >= s->size) {
		fprintf(stderr, "mktrace: subbuffer overflow\n");
		exit(1);
	}
	return p;
}

static void sb_compact(struct sb *s, unsigned int id, uint64_t clock, uint32_t payload)
{
	struct ktrace_compact c = { .header = KTRACE_HEADER(id, clock), .payload = payload };

	memcpy(sb_reserve(s, clock, sizeof(c)), &c, sizeof(c));
}

static void sb_expanded(struct sb *s, unsigned int major, unsigned int minor,
			uint64_t clock, const void *data, size_t len)
{
	struct ktrace_expanded e = {
		.header = KTRACE_HEADER(KTRACE_ID_EXPANDED, clock),
		.major = major, .minor = minor, .length = len,
	};
	unsigned char *p = sb_reserve(s, clock, KTRACE_EXPANDED_SIZE(len));

	memcpy(p, &e, sizeof(e));
	memcpy(p + sizeof(e), data, len);
}

static void sb_flush(struct sb *s)
{
	static const char *const names[] = { "high", "medium", "low" };

	section(KTF_STREAM, s->ch, s->cpu, s->out, s->out_len);
	if (stream_dir) {
		char path[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", stream_dir, names[s->ch]);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/%s/cpu%u", stream_dir, names[s->ch], s->cpu);
		f = fopen(path, "w");
		if (!f || fwrite(s->out, 1, s->out_len, f) != s->out_len || fclose(f)) {
			perror(path);
			exit(1);
		}
	}
	free(s->out);
	s->out = NULL;
	s->out_len = 0;
}

static struct sb low = { .ch = KTRACE_CHANNEL_LOW, .size = SB_LOW };

/* The metadata records after the trace record, and how many are written. */
#define META_RECORDS	21
static unsigned int meta_n, meta_max = META_RECORDS;

static void meta(unsigned int type, const void *rec, size_t len)
{
	/* An incomplete metadata: the last records did not fit. */
	if (meta_n++ > meta_max)
		return;
	sb_expanded(&low, KTRACE_META_MAJOR, type, 1000, rec, len);
}

static void meta_field(const char *name, unsigned int offset, unsigned int size,
		       unsigned int display, unsigned int flags, unsigned int nr_values)
{
	struct ktrace_meta_field f = {
		.offset = offset, .size = size, .display = display,
		.flags = flags, .nr_values = nr_values,
	};

	memcpy(f.name, name, strnlen(name, sizeof(f.name)));
	meta(KTRACE_META_FIELD, &f, sizeof(f));
}

static void meta_event(unsigned int ch, unsigned int kind, unsigned int id, unsigned int major,
		       unsigned int minor, unsigned int nr_fields, unsigned int flags,
		       const char *group, const char *name)
{
	struct ktrace_meta_event e = {
		.channel = ch, .kind = kind, .id = id, .major = major,
		.minor = minor, .nr_fields = nr_fields, .flags = flags,
	};

	memcpy(e.group, group, strnlen(group, sizeof(e.group)));
	memcpy(e.name, name, strnlen(name, sizeof(e.name)));
	meta(KTRACE_META_EVENT, &e, sizeof(e));
}

/* ns of a clock value: 5 s at clock 1000, 51.2 ns per unit. */
static uint64_t ns_of(uint64_t clock)
{
	return 5000000000ULL + (clock - 1000) / 5 * 256 + (clock - 1000) % 5 * 256 / 5;
}

static void line(uint64_t clock, unsigned int cpu, const char *task, const char *rest)
{
	uint64_t ns = ns_of(clock);

	fprintf(expect, "%llu.%09llu %u %s %s\n", (unsigned long long)(ns / 1000000000),
		(unsigned long long)(ns % 1000000000), cpu, task, rest);
}

/*
 * mktrace TRACE EXPECTED symbols: kernel addresses, for t-symbols.sh.  A
 * timer-like event whose function is a symbol (KTRACE_FIELD_KADDR) and a
 * module-like event whose base is a hexadecimal kernel address; EXPECTED
 * has the lines report prints once the symbols of t-symbols.sh's fake
 * kallsyms are saved.  badsymbols: the same with a crafted symbols
 * section; timers ADDR...: only timer-like events, of those functions
 * (hexadecimal), EXPECTED printing them in hexadecimal.
 */
static const struct {
	uint64_t addr;
	const char *sym;	/* as %pS prints it with the fake kallsyms */
} sym_values[] = {
	{ 0xffffffff81001000ULL, "alpha+0x0/0x40" },	/* the first of two aliases */
	{ 0xffffffff81001058ULL, "beta+0x18/0x30" },
	{ 0xffffffffc0002010ULL, "modfn+0x10/0x20 [mymod]" },
	{ 0xffffffff80000010ULL, "0xffffffff80000010" },	/* before the first symbol */
	{ 0xffffffff81001000ULL, "alpha+0x0/0x40" },	/* again */
	{ 0, "0x0" },					/* no address */
	{ 0xffffffffc0003008ULL, "0xffffffffc0003008" },	/* after the last one */
};

/* The trace's symbols section, crafted: ESC, CR, a symbol of no form. */
static const char bad_symbols[] =
	"ffffffff81001000 alpha\x1b[2J+0x0/0x40\n"
	"ffffffff81001058 beta+0x18/0x30\rEVIL\n"
	"ffffffffc0002010 modfn+0x10/0x20 [mymod]\n"
	"ffffffffc0003008 rm -rf /\n";

/*
 * symbols: the trace above; with @bad, also bad_symbols as its symbols
 * section; with @nr_addrs, only timer_expire events of those functions.
 */
static int symbols_trace(bool bad, char **addrs, unsigned int nr_addrs)
{
	struct ktf_header h = { KTF_MAGIC, KTF_VERSION, 0 };
	struct ktrace_meta_trace mt = {
		.magic = KTRACE_MAGIC, .version = KTRACE_FORMAT_VERSION,
		.byte_order = KTRACE_LITTLE_ENDIAN, .nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = 1, .nr_records = 8,
	};
	struct ktrace_meta_clock mc = TEST_CLOCK;
	struct sb high = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 0, .size = SB_HIGH };
	struct sb med = { .ch = KTRACE_CHANNEL_MEDIUM, .cpu = 0, .size = SB_MEDIUM };
	unsigned char ex[24];
	char text[256];
	uint64_t clock = 1100;
	unsigned int i;

	low.buf = malloc(SB_LOW);
	high.buf = malloc(SB_HIGH);
	med.buf = malloc(SB_MEDIUM);
	meta_max = ~0U;
	fwrite(&h, sizeof(h), 1, trace);
	sb_begin(&low, 0, 1, 1000);
	meta(KTRACE_META_TRACE, &mt, sizeof(mt));
	meta(KTRACE_META_CLOCK, &mc, sizeof(mc));
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 3, 1, 2, 0,
		   "irq", "timer_expire");
	meta_field("function", 0, 8, KTRACE_DISPLAY_SYMBOL, KTRACE_FIELD_KADDR, 0);
	meta_field("late_ns", 8, 4, KTRACE_DISPLAY_DEC, KTRACE_FIELD_SIGNED, 0);
	meta_event(KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 4, 5, 3, 0,
		   "statedump", "module");
	meta_field("base", 0, 8, KTRACE_DISPLAY_HEX, KTRACE_FIELD_KADDR, 0);
	meta_field("size", 8, 4, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("name", 12, 0, KTRACE_DISPLAY_STRING, 0, 0);
	sb_end(&low, 0);
	sb_flush(&low);

	sb_begin(&high, 0, 0, clock);
	for (i = 0; i < (nr_addrs ? nr_addrs : ARRAY_SIZE(sym_values)); i++) {
		uint64_t addr = nr_addrs ? strtoull(addrs[i], NULL, 16) : sym_values[i].addr;
		int32_t late = -(int32_t)i;

		clock += 10;
		memset(ex, 0, sizeof(ex));
		memcpy(ex, &addr, 8);
		memcpy(ex + 8, &late, 4);
		sb_expanded(&high, 3, 1, clock, ex, 12);
		if (nr_addrs)
			snprintf(text, sizeof(text), "irq:timer_expire function=0x%llx late_ns=%d",
				 (unsigned long long)addr, late);
		else
			snprintf(text, sizeof(text), "irq:timer_expire function=%s late_ns=%d",
				 sym_values[i].sym, late);
		line(clock, 0, "<idle>-0", text);
	}
	sb_end(&high, 0);
	sb_flush(&high);
	if (nr_addrs) {
		fclose(trace);
		fclose(expect);
		return 0;
	}

	sb_begin(&med, 0, 0, 1050);
	memset(ex, 0, sizeof(ex));
	memcpy(ex, &(uint64_t){ 0xffffffffc0002000ULL }, 8);
	memcpy(ex + 8, &(uint32_t){ 4096 }, 4);
	memcpy(ex + 12, "mymod", 5);
	sb_expanded(&med, 4, 5, 1050, ex, 20);
	line(1050, 0, "<idle>-0",
	     "statedump:module base=0xffffffffc0002000 size=4096 name=\"mymod\"");
	sb_end(&med, 0);
	sb_flush(&med);
	section(KTF_UNAME, 0, 0, "Linux synthetic\n", 16);
	if (bad)
		section(KTF_SYMBOLS, 0, 0, bad_symbols, strlen(bad_symbols));
	fclose(trace);
	fclose(expect);
	return 0;
}

/*
 * mktrace TRACE EXPECTED undecoded: kernel addresses where the decoder
 * delivers no field, for t-symbols.sh's hide tests, and in strings.  The
 * addresses (in t-symbols.sh's fake kallsyms range) of undecoded_addrs,
 * in order: in a low-channel record that is no metadata; in a record of
 * no metadata; in a record after a corrupt one (the rest of its
 * subbuffer skipped); in bytes that are no subbuffer header; in the bytes
 * after the last subbuffer, at an odd offset.  EXPECTED has the lines
 * report prints once hidden.
 */
static const uint64_t undecoded_addrs[] = {
	0xffffffff81001111ULL, 0xffffffff81001222ULL, 0xffffffff81001333ULL,
	0xffffffffc0002222ULL, 0xffffffffc0003333ULL,
};

#define UNDECODED_REASON \
	"general protection fault, probably for non-canonical address 0xdead000000000122 " \
	"RIP: 0xffffffff81001058 at 0xffff888003c41000 short 0x12345 long 0x12345678901234567 " \
	"upper 0XFFFFFFFFC0002010"
#define UNDECODED_HIDDEN \
	"general protection fault, probably for non-canonical address 0xdead000000000122 " \
	"RIP: 0xxxxxxxxxxxxxxxxx at 0xxxxxxxxxxxxxxxxx short 0x12345 long 0x12345678901234567 " \
	"upper 0Xxxxxxxxxxxxxxxxx"

static void timer(struct sb *s, uint64_t clock, uint64_t addr, int32_t late, const char *sym)
{
	unsigned char ex[12];
	char text[256];

	memcpy(ex, &addr, 8);
	memcpy(ex + 8, &late, 4);
	sb_expanded(s, 3, 1, clock, ex, 12);
	if (sym) {
		snprintf(text, sizeof(text), "irq:timer_expire function=%s late_ns=%d", sym, late);
		line(clock, 0, "<idle>-0", text);
	}
}

static int undecoded_trace(void)
{
	struct ktf_header h = { KTF_MAGIC, KTF_VERSION, 0 };
	struct ktrace_meta_trace mt = {
		.magic = KTRACE_MAGIC, .version = KTRACE_FORMAT_VERSION,
		.byte_order = KTRACE_LITTLE_ENDIAN, .nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = 1, .nr_records = 7,
	};
	struct ktrace_meta_clock mc = TEST_CLOCK;
	struct sb high = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 0, .size = SB_HIGH };
	struct sb med = { .ch = KTRACE_CHANNEL_MEDIUM, .cpu = 0, .size = SB_MEDIUM };
	struct ktrace_expanded bad = {
		KTRACE_HEADER(KTRACE_ID_EXPANDED, 1130), 3, 1, 4000
	};
	static const char triggers[] =
		"oops fired: " UNDECODED_REASON "\nuser armed at 0xffffffff81001000\n";
	unsigned char ex[256], junk[32] = { 0 }, tail[13] = { 0xaa, 0xbb, 0xcc };
	uint64_t clock = 1100;

	low.buf = malloc(SB_LOW);
	high.buf = malloc(SB_HIGH);
	med.buf = malloc(SB_MEDIUM);
	meta_max = ~0U;
	fwrite(&h, sizeof(h), 1, trace);
	sb_begin(&low, 0, 1, 1000);
	meta(KTRACE_META_TRACE, &mt, sizeof(mt));
	meta(KTRACE_META_CLOCK, &mc, sizeof(mc));
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 3, 1, 2, 0,
		   "irq", "timer_expire");
	meta_field("function", 0, 8, KTRACE_DISPLAY_SYMBOL, KTRACE_FIELD_KADDR, 0);
	meta_field("late_ns", 8, 4, KTRACE_DISPLAY_DEC, KTRACE_FIELD_SIGNED, 0);
	meta_event(KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 1, 1, 2, 0,
		   "ktrace", "trigger");
	meta_field("trigger", 0, 16, KTRACE_DISPLAY_STRING, 0, 0);
	meta_field("reason", 16, 0, KTRACE_DISPLAY_STRING, 0, 0);
	/* Not metadata, on the low channel. */
	memset(ex, 0, 12);
	memcpy(ex + 4, &undecoded_addrs[0], 8);
	sb_expanded(&low, 9, 9, 1000, ex, 12);
	sb_end(&low, 0);
	sb_flush(&low);

	sb_begin(&high, 0, 0, clock);
	timer(&high, clock += 10, 0xffffffff81001000ULL, -1, "alpha+0x0/0x40");
	/* No metadata for 9/1. */
	sb_expanded(&high, 9, 1, clock += 10, &undecoded_addrs[1], 8);
	line(clock, 0, "<idle>-0", "unknown:high major=9 minor=1 length=8");
	/* A record longer than its subbuffer: the rest is skipped. */
	memcpy(high.buf + high.used, &bad, sizeof(bad));
	high.used += sizeof(bad);
	timer(&high, clock += 10, undecoded_addrs[2], -9, NULL);
	sb_end(&high, 0);
	sb_begin(&high, 1, 0, clock += 10);
	timer(&high, clock += 10, 0xffffffff81001058ULL, -2, "beta+0x18/0x30");
	sb_end(&high, 0);
	/* No subbuffer header. */
	memcpy(junk + 8, &undecoded_addrs[3], 8);
	high.out = realloc(high.out, high.out_len + sizeof(junk));
	memcpy(high.out + high.out_len, junk, sizeof(junk));
	high.out_len += sizeof(junk);
	sb_begin(&high, 2, 0, clock += 10);
	timer(&high, clock += 10, 0xffffffffc0002010ULL, -3, "modfn+0x10/0x20 [mymod]");
	sb_end(&high, 0);
	/* After the last subbuffer, at an odd offset. */
	memcpy(tail + 3, &undecoded_addrs[4], 8);
	high.out = realloc(high.out, high.out_len + sizeof(tail));
	memcpy(high.out + high.out_len, tail, sizeof(tail));
	high.out_len += sizeof(tail);
	sb_flush(&high);

	/* An oops trigger: die()'s message as its reason. */
	sb_begin(&med, 0, 0, 1050);
	memset(ex, 0, sizeof(ex));
	memcpy(ex, "oops", 4);
	memcpy(ex + 16, UNDECODED_REASON, strlen(UNDECODED_REASON));
	sb_expanded(&med, 1, 1, 1050, ex, 16 + strlen(UNDECODED_REASON));
	line(1050, 0, "<idle>-0",
	     "ktrace:trigger trigger=\"oops\" reason=\"" UNDECODED_HIDDEN "\"");
	sb_end(&med, 0);
	sb_flush(&med);
	section(KTF_TRIGGERS, 0, 0, triggers, strlen(triggers));
	section(KTF_UNAME, 0, 0, "Linux synthetic\n", 16);
	fclose(trace);
	fclose(expect);
	return 0;
}

static int longstr_trace(void)
{
	struct ktf_header h = { KTF_MAGIC, KTF_VERSION, 0 };
	struct ktrace_meta_trace mt = {
		.magic = KTRACE_MAGIC, .version = KTRACE_FORMAT_VERSION,
		.byte_order = KTRACE_LITTLE_ENDIAN, .nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = 1, .nr_records = 7,
	};
	struct ktrace_meta_clock mc = TEST_CLOCK;
	struct sb med = { .ch = KTRACE_CHANNEL_MEDIUM, .cpu = 0, .size = SB_MEDIUM };
	struct sb high = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 0, .size = SB_HIGH };
	static unsigned char big[65535];
	static char trig[5100];
	unsigned int i;

	low.buf = malloc(SB_LOW);
	med.buf = malloc(SB_MEDIUM);
	high.buf = malloc(SB_HIGH);
	meta_max = ~0U;
	fwrite(&h, sizeof(h), 1, trace);
	sb_begin(&low, 0, 1, 1000);
	meta(KTRACE_META_TRACE, &mt, sizeof(mt));
	meta(KTRACE_META_CLOCK, &mc, sizeof(mc));
	meta_event(KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 7, 9, 3, 0,
		   "bar", "long");
	meta_field("a", 0, 0, KTRACE_DISPLAY_STRING, 0, 0);
	meta_field("b", 0, 0, KTRACE_DISPLAY_STRING, 0, 0);
	meta_field("n", 0, 1, KTRACE_DISPLAY_DEC, 0, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, 5, 0, 0, 1, 0, "bar", "long");
	meta_field("x", 0, 8, KTRACE_DISPLAY_DEC, 0, 0);
	sb_end(&low, 0);
	sb_flush(&low);
	/* Bytes 1 to 255, none a NUL, none printable as it is. */
	for (i = 0; i < sizeof(big); i++)
		big[i] = i % 2 ? 0x01 : 0xff;
	sb_begin(&med, 0, 456, 1010);
	sb_expanded(&med, 7, 9, 1010, big, sizeof(big));
	line(1010, 0, "my_task-456", "bar:long (see t-cli.sh)");
	sb_end(&med, 0);
	sb_flush(&med);
	sb_begin(&high, 0, 123, 1020);
	sb_compact(&high, 5, 1020, 7);
	line(1020, 0, "7z-123", "bar:long x=7");
	sb_end(&high, 0);
	sb_flush(&high);
	section(KTF_TASKS, 0, 0, "123 7z\n456 my task\n", 19);
	i = snprintf(trig, sizeof(trig), "oom action=stop hits=1 fired=0 note=");
	memset(trig + i, 'x', 5000);
	trig[i + 5000] = '\n';
	section(KTF_TRIGGERS, 0, 0, trig, i + 5001);
	fclose(trace);
	fclose(expect);
	return 0;
}

/*
 * Version 2 (mktrace TRACE EXPECTED blockkeys): the block events of struct
 * ktrace_blk_desc, described once and named by key; keys lost, named
 * before their description, named by two identities; saturated fields;
 * flag tables.  Two CPUs of the high channel, times interleaved.
 */
#define BLK_MAJOR	12
#define VM_MAJOR	13
#define TEST_MAJOR	14
#define RQ_INSERT	10
#define RQ_ISSUE	11
#define RQ_REQUEUE	12
#define RQ_COMPLETE	13
#define SCHED_WAKEUP	14
#define SCHED_SWITCH	16
#define FORK_MAJOR	9
#define SYS_EXIT	15

static const char *const blk_ops[] = {
	[KTRACE_BLK_OP_READ] = "read", [KTRACE_BLK_OP_WRITE] = "write",
	[KTRACE_BLK_OP_FLUSH] = "flush", [KTRACE_BLK_OP_DISCARD] = "discard",
	[KTRACE_BLK_OP_SECURE_ERASE] = "secure_erase",
	[KTRACE_BLK_OP_WRITE_ZEROES] = "write_zeroes",
	[KTRACE_BLK_OP_ZONE_APPEND] = "zone_append", [KTRACE_BLK_OP_ZONE_MGMT] = "zone_mgmt",
	[KTRACE_BLK_OP_DRV_IN] = "drv_in", [KTRACE_BLK_OP_DRV_OUT] = "drv_out",
	[KTRACE_BLK_OP_OTHER] = "other",
};

static const struct ktrace_meta_enum blk_flags[] = {
	META_ENUM(KTRACE_BLK_SYNC, "sync"), META_ENUM(KTRACE_BLK_META, "meta"),
	META_ENUM(KTRACE_BLK_PRIO, "prio"), META_ENUM(KTRACE_BLK_FUA, "fua"),
	META_ENUM(KTRACE_BLK_PREFLUSH, "preflush"), META_ENUM(KTRACE_BLK_RAHEAD, "rahead"),
	META_ENUM(KTRACE_BLK_BACKGROUND, "background"), META_ENUM(KTRACE_BLK_NOWAIT, "nowait"),
};

/* The kernel's GFP names, composite masks first, and "none" for 0. */
static const struct ktrace_meta_enum gfp_flags[] = {
	META_ENUM(0xcc0, "GFP_KERNEL"), META_ENUM(0x800, "GFP_NOWAIT"), META_ENUM(0x40, "__GFP_IO"),
	META_ENUM(0x80, "__GFP_FS"), META_ENUM(0x100, "__GFP_ZERO"),
	META_ENUM(0x400, "__GFP_DIRECT_RECLAIM"), META_ENUM(0x800, "__GFP_KSWAPD_RECLAIM"),
	META_ENUM(0, "none"),
};

static void meta_blk_desc(unsigned int major, unsigned int minor, const char *group,
			  const char *name)
{
	struct ktrace_blk_desc d;	/* for sizeof */
	unsigned int i;

	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, major,
		   minor, 5, 0, group, name);
	meta_field("dev", offsetof(struct ktrace_blk_desc, dev), sizeof(d.dev),
		   KTRACE_DISPLAY_DEV, KTRACE_FIELD_IDENT, 0);
	meta_field("sector", offsetof(struct ktrace_blk_desc, sector), sizeof(d.sector),
		   KTRACE_DISPLAY_DEC, KTRACE_FIELD_IDENT, 0);
	meta_field("nr_sector", offsetof(struct ktrace_blk_desc, nr_sector), sizeof(d.nr_sector),
		   KTRACE_DISPLAY_DEC, KTRACE_FIELD_IDENT | KTRACE_FIELD_SATURATES, 0);
	meta_field("op", offsetof(struct ktrace_blk_desc, op), sizeof(d.op),
		   KTRACE_DISPLAY_ENUM, KTRACE_FIELD_IDENT, 11);
	for (i = 0; i < ARRAY_SIZE(blk_ops); i++) {
		struct ktrace_meta_enum e = { .value_lo = i };

		if (!blk_ops[i])
			continue;
		memcpy(e.name, blk_ops[i], strlen(blk_ops[i]));
		meta(KTRACE_META_ENUM, &e, sizeof(e));
	}
	meta_field("flags", offsetof(struct ktrace_blk_desc, flags), sizeof(d.flags),
		   KTRACE_DISPLAY_FLAGS, KTRACE_FIELD_IDENT, ARRAY_SIZE(blk_flags));
	for (i = 0; i < ARRAY_SIZE(blk_flags); i++)
		meta(KTRACE_META_ENUM, &blk_flags[i], sizeof(blk_flags[i]));
}

/* A request event; with @end, the request ends with it (rq_complete). */
static void meta_rq(unsigned int id, const char *name, bool end)
{
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, id, 0, 0, 1, 0, "block", name);
	meta_field("rq", 0, 32, KTRACE_DISPLAY_KEY, end ? KTRACE_FIELD_KEY_END : 0, 0);
}

/* The key of a struct ktrace_blk_desc: dev, sector, nr_sector, op, in field order. */
/* block:NAME's fields as report prints them. */
static void blk_text(char *buf, size_t size, const struct ktrace_blk_desc *d,
		     const char *nr, const char *flags)
{
	snprintf(buf, size, "dev=%u:%u sector=%llu nr_sector=%s op=%s flags=%s", d->dev >> 20,
		 d->dev & 0xfffff, (unsigned long long)d->sector, nr, blk_ops[d->op], flags);
}

static void blk_desc(struct sb *s, unsigned int minor, const char *name, uint64_t clock,
		     const struct ktrace_blk_desc *d, const char *nr, const char *flags)
{
	char text[256], fields[200];

	sb_expanded(s, BLK_MAJOR, minor, clock, d, sizeof(*d));
	blk_text(fields, sizeof(fields), d, nr, flags);
	snprintf(text, sizeof(text), "block:%s %s", name, fields);
	line(clock, s->cpu, "<idle>-0", text);
}

/* A compact request event; @fields what rq prints as (NULL: unknown). */
static void blk_rq(struct sb *s, unsigned int id, const char *name, uint64_t clock,
		   uint32_t key, const char *fields)
{
	char text[256];

	sb_compact(s, id, clock, key);
	if (fields)
		snprintf(text, sizeof(text), "block:%s %s", name, fields);
	else
		snprintf(text, sizeof(text), "block:%s rq=unknown:0x%08x", name, key);
	line(clock, s->cpu, "<idle>-0", text);
}

struct key_sector {
	uint32_t key;
	uint64_t sector;
};

static int key_sector_cmp(const void *a, const void *b)
{
	const struct key_sector *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->sector > y->sector) - (x->sector < y->sector);
}

/*
 * Two identities of one key: sectors @a and @b of @d's dev, nr_sector and
 * op, found by the birthday bound among 2^18 sectors (some 8 pairs are
 * expected; the search is the same every time).
 */
static void colliding_sectors(struct ktrace_blk_desc d, __u64 *a, __u64 *b)
{
	size_t i, n = 1 << 18;
	struct key_sector *ks = calloc(n, sizeof(*ks));

	for (i = 0; ks && i < n; i++) {
		d.sector = 1000000 + i;
		ks[i].key = ktrace_blk_key(&d);
		ks[i].sector = d.sector;
	}
	if (ks)
		qsort(ks, n, sizeof(*ks), key_sector_cmp);
	for (i = 1; ks && i < n; i++) {
		if (ks[i].key == ks[i - 1].key) {
			*a = ks[i - 1].sector;
			*b = ks[i].sector;
			free(ks);
			return;
		}
	}
	fprintf(stderr, "mktrace: no two sectors of one key\n");
	exit(1);
}

/* The metadata of blockkeys_trace(). */
static void blockkeys_meta(void)
{
	struct ktrace_meta_trace mt = {
		.magic = KTRACE_MAGIC, .version = KTRACE_FORMAT_VERSION,
		.byte_order = KTRACE_LITTLE_ENDIAN, .nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = 2,
	};
	struct ktrace_meta_clock mc = TEST_CLOCK;
	struct ktrace_blk_status st;	/* for sizeof */
	unsigned int i;

	sb_begin(&low, 0, 0, 1000);
	meta(KTRACE_META_TRACE, &mt, sizeof(mt));
	meta(KTRACE_META_CLOCK, &mc, sizeof(mc));
	meta_blk_desc(BLK_MAJOR, 1, "block", "bio_queue");
	meta_blk_desc(BLK_MAJOR, 2, "block", "bio_split");
	meta_blk_desc(BLK_MAJOR, 3, "block", "rq_describe");
	meta_rq(RQ_INSERT, "rq_insert", false);
	meta_rq(RQ_ISSUE, "rq_issue", false);
	meta_rq(RQ_REQUEUE, "rq_requeue", false);
	meta_rq(RQ_COMPLETE, "rq_complete", true);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, BLK_MAJOR, 4,
		   3, 0, "block", "rq_status");
	meta_field("rq", offsetof(struct ktrace_blk_status, rq), sizeof(st.rq),
		   KTRACE_DISPLAY_KEY, KTRACE_FIELD_KEY_END, 0);
	meta_field("bytes", offsetof(struct ktrace_blk_status, bytes), sizeof(st.bytes),
		   KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("error", offsetof(struct ktrace_blk_status, error), sizeof(st.error),
		   KTRACE_DISPLAY_DEC, KTRACE_FIELD_SIGNED, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, SCHED_WAKEUP, 0, 0, 2, 0, "sched",
		   "sched_wakeup");
	meta_field("pid", 0, 22, KTRACE_DISPLAY_PID, 0, 0);
	meta_field("cpu", 22, 10, KTRACE_DISPLAY_DEC, KTRACE_FIELD_SATURATES, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, SYS_EXIT, 0, 0, 2, 0, "syscalls",
		   "sys_exit");
	meta_field("nr", 0, 10, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("ret", 10, 22, KTRACE_DISPLAY_DEC,
		   KTRACE_FIELD_SIGNED | KTRACE_FIELD_SATURATES, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, VM_MAJOR, 1,
		   2, 0, "vm", "direct_reclaim_begin");
	meta_field("order", 0, 4, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("gfp_flags", 4, 4, KTRACE_DISPLAY_FLAGS, 0, ARRAY_SIZE(gfp_flags));
	for (i = 0; i < ARRAY_SIZE(gfp_flags); i++)
		meta(KTRACE_META_ENUM, &gfp_flags[i], sizeof(gfp_flags[i]));
	/* A fork naming its child with the comm to the end of the payload. */
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, FORK_MAJOR, 1,
		   4, 0, "sched", "fork");
	meta_field("parent_pid", 0, 4, KTRACE_DISPLAY_PID, 0, 0);
	meta_field("child_pid", 4, 4, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("child_tgid", 8, 4, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("comm", 12, 0, KTRACE_DISPLAY_STRING, 0, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, SCHED_SWITCH, 0, 0, 1,
		   KTRACE_EVENT_PID_IS_CURRENT, "sched", "switch");
	meta_field("next_pid", 0, 22, KTRACE_DISPLAY_PID, 0, 0);
	/* The same identity in another group: another identity. */
	meta_blk_desc(TEST_MAJOR, 1, "test", "desc");
	/* A trigger record, for report -r's two passes. */
	meta_event(KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 1, 1, 2, 0,
		   "ktrace", "trigger");
	meta_field("trigger", 0, 16, KTRACE_DISPLAY_STRING, 0, 0);
	meta_field("reason", 16, 0, KTRACE_DISPLAY_STRING, 0, 0);
	sb_end(&low, 0);
	sb_flush(&low);
}

/* The block requests of blockkeys_trace(), on CPU 0 and 1. */
static void blockkeys_requests(struct sb *c0, struct sb *c1)
{
	struct ktrace_blk_desc w = {
		.sector = 2048, .dev = 8 << 20, .nr_sector = 8, .op = KTRACE_BLK_OP_WRITE,
		.flags = KTRACE_BLK_SYNC,
	};
	struct ktrace_blk_desc lost = {
		.sector = 999, .dev = 8 << 20 | 16, .nr_sector = 16, .op = KTRACE_BLK_OP_READ,
	};
	struct ktrace_blk_desc two = {
		.sector = 6144, .dev = 8 << 20, .nr_sector = 8, .op = KTRACE_BLK_OP_WRITE,
	};
	struct ktrace_blk_desc big = {
		.sector = 4096, .dev = 8 << 20, .nr_sector = 65535, .op = KTRACE_BLK_OP_READ,
		.flags = KTRACE_BLK_META | KTRACE_BLK_PRIO,
	};
	struct ktrace_blk_desc ca = {
		.sector = 0, .dev = 8 << 20 | 32, .nr_sector = 8, .op = KTRACE_BLK_OP_READ,
		.flags = KTRACE_BLK_RAHEAD,
	};
	struct ktrace_blk_desc cb = ca;
	struct ktrace_blk_desc late = {
		.sector = 77, .dev = 259 << 20 | 1, .nr_sector = 1, .op = KTRACE_BLK_OP_FLUSH,
		.flags = KTRACE_BLK_PREFLUSH | KTRACE_BLK_FUA,
	};
	struct ktrace_blk_desc other = {
		.sector = 5, .dev = 8 << 20 | 48, .nr_sector = 8, .op = KTRACE_BLK_OP_WRITE,
	};
	struct ktrace_blk_status st = { .rq = ktrace_blk_key(&w), .bytes = 4096, .error = -5 };
	char wtext[200], btext[200], atext[200], ltext[200], otext[420], text[400];
	char ttext[200];

	/* Described on CPU 0, issued on CPU 1, ended by a status: forgotten. */
	blk_desc(c0, 1, "bio_queue", 1100, &w, "8", "sync");
	blk_text(wtext, sizeof(wtext), &w, "8", "sync");
	blk_rq(c1, RQ_ISSUE, "rq_issue", 1110, ktrace_blk_key(&w), wtext);
	sb_expanded(c0, BLK_MAJOR, 4, 1120, &st, sizeof(st));
	snprintf(text, sizeof(text), "block:rq_status %s bytes=4096 error=-5", wtext);
	line(1120, 0, "<idle>-0", text);
	blk_rq(c1, RQ_COMPLETE, "rq_complete", 1130, ktrace_blk_key(&w), NULL);
	/* The same identity described again: a new request, until its end. */
	w.flags |= KTRACE_BLK_FUA;
	blk_desc(c0, 1, "bio_queue", 1132, &w, "8", "sync|fua");
	blk_text(wtext, sizeof(wtext), &w, "8", "sync|fua");
	blk_rq(c1, RQ_COMPLETE, "rq_complete", 1134, ktrace_blk_key(&w), wtext);
	blk_rq(c1, RQ_COMPLETE, "rq_complete", 1136, ktrace_blk_key(&w), NULL);
	/* Its description lost. */
	blk_rq(c0, RQ_ISSUE, "rq_issue", 1140, ktrace_blk_key(&lost), NULL);
	/*
	 * Two requests of one identity in flight share a description: the
	 * first end forgets it.
	 */
	blk_desc(c1, 1, "bio_queue", 1142, &two, "8", "0");
	blk_desc(c1, 1, "bio_queue", 1143, &two, "8", "0");
	blk_text(ttext, sizeof(ttext), &two, "8", "0");
	blk_rq(c0, RQ_COMPLETE, "rq_complete", 1144, ktrace_blk_key(&two), ttext);
	blk_rq(c0, RQ_COMPLETE, "rq_complete", 1145, ktrace_blk_key(&two), NULL);
	blk_rq(c0, RQ_COMPLETE, "rq_complete", 1146, ktrace_blk_key(&two), NULL);
	/* Two descriptions differing in flags: the key names the one it hashes. */
	blk_desc(c0, 3, "rq_describe", 1150, &big, ">=65535", "meta|prio");
	big.flags = 0;
	blk_desc(c1, 1, "bio_queue", 1160, &big, ">=65535", "0");
	blk_text(btext, sizeof(btext), &big, ">=65535", "0");
	blk_rq(c0, RQ_INSERT, "rq_insert", 1170, ktrace_blk_key(&big), btext);
	/*
	 * Two identities of one key: known after the first, then unknown for
	 * good, an end and a new description included.
	 */
	colliding_sectors(ca, &ca.sector, &cb.sector);
	blk_desc(c1, 1, "bio_queue", 1180, &ca, "8", "rahead");
	blk_text(atext, sizeof(atext), &ca, "8", "rahead");
	blk_rq(c0, RQ_ISSUE, "rq_issue", 1190, ktrace_blk_key(&ca), atext);
	blk_desc(c1, 2, "bio_split", 1200, &cb, "8", "rahead");
	blk_rq(c0, RQ_COMPLETE, "rq_complete", 1210, ktrace_blk_key(&ca), NULL);
	blk_desc(c1, 1, "bio_queue", 1220, &ca, "8", "rahead");
	blk_rq(c0, RQ_REQUEUE, "rq_requeue", 1230, ktrace_blk_key(&ca), NULL);
	/* Named on CPU 1 before CPU 0 describes it: unknown, then known. */
	blk_rq(c1, RQ_ISSUE, "rq_issue", 1240, ktrace_blk_key(&late), NULL);
	blk_desc(c0, 1, "bio_queue", 1250, &late, "1", "fua|preflush");
	blk_text(ltext, sizeof(ltext), &late, "1", "fua|preflush");
	blk_rq(c1, RQ_COMPLETE, "rq_complete", 1260, ktrace_blk_key(&late), ltext);
	/* The same values in another group: two identities of one key. */
	blk_desc(c0, 1, "bio_queue", 1270, &other, "8", "0");
	sb_expanded(c1, TEST_MAJOR, 1, 1275, &other, sizeof(other));
	blk_text(text, sizeof(text), &other, "8", "0");
	snprintf(otext, sizeof(otext), "test:desc %s", text);
	line(1275, 1, "<idle>-0", otext);
	blk_rq(c0, RQ_ISSUE, "rq_issue", 1280, ktrace_blk_key(&other), NULL);
}

/* Saturated fields, flags and a comm to the end of the payload (blockkeys_trace()). */
static void blockkeys_fields(struct sb *c0, struct sb *c1)
{
	unsigned char ex[20];
	uint32_t u, gfp;

	/* Saturated: a CPU of 10 bits, a return value of 22 signed bits. */
	sb_compact(c1, SCHED_WAKEUP, 1300, 1023U << 22 | 123);
	line(1300, 1, "<idle>-0", "sched:sched_wakeup pid=123 cpu=>=1023");
	sb_compact(c1, SCHED_WAKEUP, 1310, 1022U << 22 | 124);
	line(1310, 1, "<idle>-0", "sched:sched_wakeup pid=124 cpu=1022");
	u = (uint32_t)(-2097152 * 1024) | 3;
	sb_compact(c0, SYS_EXIT, 1320, u);
	line(1320, 0, "<idle>-0", "syscalls:sys_exit nr=3 ret=<=-2097152");
	sb_compact(c0, SYS_EXIT, 1330, 2097151U << 10 | 4);
	line(1330, 0, "<idle>-0", "syscalls:sys_exit nr=4 ret=>=2097151");
	u = (uint32_t)(-2097151 * 1024) | 5;
	sb_compact(c0, SYS_EXIT, 1340, u);
	line(1340, 0, "<idle>-0", "syscalls:sys_exit nr=5 ret=-2097151");

	/* Flags: a composite mask first, then single bits, then the rest. */
	memset(ex, 0, sizeof(ex));
	gfp = 0xcc0 | 0x100 | 0x10000000;
	memcpy(ex, &(uint32_t){ 2 }, 4);
	memcpy(ex + 4, &gfp, 4);
	sb_expanded(c1, VM_MAJOR, 1, 1350, ex, 8);
	line(1350, 1, "<idle>-0",
	     "vm:direct_reclaim_begin order=2 gfp_flags=GFP_KERNEL|__GFP_ZERO|0x10000000");
	gfp = 0x400 | 0x40;
	memcpy(ex + 4, &gfp, 4);
	sb_expanded(c1, VM_MAJOR, 1, 1360, ex, 8);
	line(1360, 1, "<idle>-0",
	     "vm:direct_reclaim_begin order=2 gfp_flags=__GFP_IO|__GFP_DIRECT_RECLAIM");
	gfp = 0;
	memcpy(ex + 4, &gfp, 4);
	sb_expanded(c1, VM_MAJOR, 1, 1370, ex, 8);
	line(1370, 1, "<idle>-0", "vm:direct_reclaim_begin order=2 gfp_flags=none");
	gfp = 0xc00;
	memcpy(ex + 4, &gfp, 4);
	sb_expanded(c1, VM_MAJOR, 1, 1380, ex, 8);
	line(1380, 1, "<idle>-0",
	     "vm:direct_reclaim_begin order=2 gfp_flags=GFP_NOWAIT|__GFP_DIRECT_RECLAIM");
	/* The child named by its fork's comm, "worker" and its padding. */
	memset(ex, 0, sizeof(ex));
	memcpy(ex, (uint32_t[]){ 1, 77, 77 }, 12);
	memcpy(ex + 12, "worker", 6);
	sb_expanded(c1, FORK_MAJOR, 1, 1390, ex, 18);
	line(1390, 1, "<idle>-0",
	     "sched:fork parent_pid=1 child_pid=77 child_tgid=77 comm=\"worker\"");
	sb_compact(c1, SCHED_SWITCH, 1395, 77);
	line(1395, 1, "worker-77",
	     "sched:switch prev_comm=<idle> prev_pid=0 ==> next_comm=worker next_pid=77");
}

static int blockkeys_trace(void)
{
	struct ktf_header h = { KTF_MAGIC, KTF_VERSION, 0 };
	struct sb c0 = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 0, .size = SB_HIGH };
	struct sb c1 = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 1, .size = SB_HIGH };
	struct sb med = { .ch = KTRACE_CHANNEL_MEDIUM, .cpu = 0, .size = SB_MEDIUM };
	unsigned char trig[24];

	low.buf = malloc(SB_LOW);
	c0.buf = malloc(SB_HIGH);
	c1.buf = malloc(SB_HIGH);
	med.buf = malloc(SB_MEDIUM);
	meta_max = ~0U;
	fwrite(&h, sizeof(h), 1, trace);
	blockkeys_meta();

	sb_begin(&med, 0, 0, 1255);
	memset(trig, 0, sizeof(trig));
	memcpy(trig, "user", 4);
	memcpy(trig + 16, "late", 4);
	sb_expanded(&med, 1, 1, 1255, trig, sizeof(trig));
	line(1255, 0, "<idle>-0", "ktrace:trigger trigger=\"user\" reason=\"late\"");
	sb_end(&med, 0);
	sb_flush(&med);

	sb_begin(&c0, 0, 0, 1100);
	sb_begin(&c1, 0, 0, 1100);
	blockkeys_requests(&c0, &c1);
	if (getenv("MKTRACE_SPLIT")) {
		/*
		 * CPU 0 in three subbuffers (t-slice.sh): the descriptions
		 * in 0; in 1 (50 dropped while it was the newest) one more
		 * description, then a record that describes nothing; the
		 * rest in 2.  Not in EXPECTED.
		 */
		struct ktrace_blk_desc d = {
			.sector = 64, .dev = 8 << 20, .nr_sector = 8, .op = KTRACE_BLK_OP_WRITE,
		};

		sb_end(&c0, 0);
		sb_begin(&c0, 1, 0, 1286);
		blk_desc(&c0, 1, "bio_queue", 1286, &d, "8", "0");
		sb_compact(&c0, SYS_EXIT, 1290, 5);
		sb_end(&c0, 0);
		((struct ktrace_subbuf_header *)(c0.out + c0.out_len - c0.used))->dropped = 50;
		sb_begin(&c0, 2, 0, 1295);
		((struct ktrace_subbuf_header *)c0.buf)->dropped = 50;
	}
	blockkeys_fields(&c0, &c1);
	sb_end(&c0, 0);
	sb_end(&c1, 0);
	sb_flush(&c0);
	sb_flush(&c1);
	section(KTF_UNAME, 0, 0, "Linux synthetic\n", 16);
	fclose(trace);
	fclose(expect);
	return 0;
}

/*
 * A trace of the next version (mktrace TRACE EXPECTED futurever), which
 * this tool must refuse; with futuremeta, only its trace record says so.
 */
static int future_trace(bool headers)
{
	struct ktf_header h = { KTF_MAGIC, KTF_VERSION, 0 };
	struct ktrace_meta_trace mt = {
		.magic = KTRACE_MAGIC, .version = KTRACE_FORMAT_VERSION + 1,
		.byte_order = KTRACE_LITTLE_ENDIAN, .nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = 1, .nr_records = 1,
	};
	struct ktrace_meta_clock mc = TEST_CLOCK;
	struct sb c0 = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 0, .size = SB_HIGH };

	if (headers)
		fmt_version = KTRACE_FORMAT_VERSION + 1;
	low.buf = malloc(SB_LOW);
	c0.buf = malloc(SB_HIGH);
	meta_max = ~0U;
	fwrite(&h, sizeof(h), 1, trace);
	sb_begin(&low, 0, 0, 1000);
	meta(KTRACE_META_TRACE, &mt, sizeof(mt));
	meta(KTRACE_META_CLOCK, &mc, sizeof(mc));
	sb_end(&low, 0);
	sb_flush(&low);
	sb_begin(&c0, 0, 0, 1100);
	sb_compact(&c0, 3, 1100, 1);
	sb_end(&c0, 0);
	sb_flush(&c0);
	fclose(trace);
	fclose(expect);
	return 0;
}

/* Roll @s over to a new subbuffer unless @len more bytes fit in it. */
static void sb_room(struct sb *s, uint64_t *seq, uint64_t clock, size_t len)
{
	if (s->used + len + 2 * sizeof(struct ktrace_timestamp) < s->size)
		return;
	sb_end(s, 0);
	sb_begin(s, ++*seq, 0, clock);
}

/* The inverse of odd @c modulo 2^64. */
static uint64_t inverse64(uint64_t c)
{
	uint64_t x = c;
	int i;

	for (i = 0; i < 6; i++)
		x *= 2 - c * x;
	return x;
}

/* A value of a one-field identity whose key is @key (the hash undone). */
static uint64_t ident_of_key(uint32_t key)
{
	uint64_t h = (uint64_t)key << 32;

	h *= inverse64(0xbf58476d1ce4e5b9ULL);
	h ^= h >> 29 ^ h >> 58;
	h *= inverse64(0x9e3779b97f4a7c15ULL);
	return h ^ KTRACE_KEY_SEED;
}

/*
 * Many keys (mktrace TRACE EXPECTED manykeys N ended|collide): N requests
 * on one CPU, each described by test:desc (one 8-byte identity field),
 * then ended by test:end, whose KEY_END field names it ("ended"); or only
 * described, with keys chosen so that a fixed multiplicative slot hash
 * (key * 0x9e3779b1) puts them all in a few slots ("collide").  With
 * "ended", the last request is described again and ended by test:end2,
 * whose second KEY field, after the KEY_END one, names nothing.  The one
 * line EXPECTED holds is the last line report must print.
 */
static int manykeys_trace(unsigned long n, bool ended)
{
	struct ktf_header h = { KTF_MAGIC, KTF_VERSION, 0 };
	struct ktrace_meta_trace mt = {
		.magic = KTRACE_MAGIC, .version = KTRACE_FORMAT_VERSION,
		.byte_order = KTRACE_LITTLE_ENDIAN, .nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = 1,
	};
	struct ktrace_meta_clock mc = TEST_CLOCK;
	struct sb c0 = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 0, .size = SB_HIGH };
	uint64_t seq = 0, clock = 1100, v = 0;
	/* 0x9e3779b1 * inv == 1 modulo 2^32 */
	uint32_t inv = (uint32_t)inverse64(0x9e3779b1U), key = 0;
	char text[128];
	unsigned long i;

	low.buf = malloc(SB_LOW);
	c0.buf = malloc(SB_HIGH);
	meta_max = ~0U;
	fwrite(&h, sizeof(h), 1, trace);
	sb_begin(&low, 0, 0, 1000);
	meta(KTRACE_META_TRACE, &mt, sizeof(mt));
	meta(KTRACE_META_CLOCK, &mc, sizeof(mc));
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 20, 1, 1, 0,
		   "test", "desc");
	meta_field("id", 0, 8, KTRACE_DISPLAY_HEX, KTRACE_FIELD_IDENT, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, 5, 0, 0, 1, 0, "test", "end");
	meta_field("rq", 0, 32, KTRACE_DISPLAY_KEY, KTRACE_FIELD_KEY_END, 0);
	/* An end naming its key twice: the second field after the first ended it. */
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 20, 2, 2, 0,
		   "test", "end2");
	meta_field("rq", 0, 4, KTRACE_DISPLAY_KEY, KTRACE_FIELD_KEY_END, 0);
	meta_field("again", 4, 4, KTRACE_DISPLAY_KEY, 0, 0);
	sb_end(&low, 0);
	sb_flush(&low);
	sb_begin(&c0, 0, 0, clock);
	for (i = 0; i < n; i++, clock++) {
		if (ended) {
			v = i;
			key = ktrace_key_final(ktrace_key_add(KTRACE_KEY_SEED, v));
		} else {
			/* Slot hashes i << 18 | i >> 14: a few home slots, all keys distinct. */
			key = ((uint32_t)i << 18 | (uint32_t)(i >> 14)) * inv;
			v = ident_of_key(key);
		}
		sb_room(&c0, &seq, clock, 64);
		sb_expanded(&c0, 20, 1, clock, &v, sizeof(v));
		if (ended)
			sb_compact(&c0, 5, clock, key);
	}
	if (ended) {
		uint32_t two[2] = { key, key };

		/* Described again, then ended by test:end2: known, then unknown. */
		sb_room(&c0, &seq, clock, 64);
		sb_expanded(&c0, 20, 1, clock, &v, sizeof(v));
		sb_expanded(&c0, 20, 2, clock, two, sizeof(two));
		snprintf(text, sizeof(text), "test:end2 id=0x%llx again=unknown:0x%08x",
			 (unsigned long long)v, key);
	} else {
		clock--;
		snprintf(text, sizeof(text), "test:desc id=0x%llx", (unsigned long long)v);
	}
	line(clock, 0, "<idle>-0", text);
	sb_end(&c0, 0);
	sb_flush(&c0);
	fclose(trace);
	fclose(expect);
	return 0;
}

/*
 * Metadata the uapi does not allow (mktrace TRACE EXPECTED badmeta):
 * compact fields of 0 bits and past bit 31, an expanded number of 3
 * bytes, each making its event unknown; an enum table announcing 3 values
 * of which 1 is written, whose value 0 has no name; 100 tables announcing
 * 65535 values each, of which 1 is written, and 19890 of which none is
 * (allocations bounded by what the stream holds, not by what a record
 * announces); and a second
 * subbuffer of the high channel in the next format version.
 */
#define WIDE	100

static int badmeta_trace(void)
{
	struct ktf_header h = { KTF_MAGIC, KTF_VERSION, 0 };
	struct ktrace_meta_trace mt = {
		.magic = KTRACE_MAGIC, .version = KTRACE_FORMAT_VERSION,
		.byte_order = KTRACE_LITTLE_ENDIAN, .nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = 1,
	};
	struct ktrace_meta_clock mc = TEST_CLOCK;
	struct ktrace_meta_enum one = META_ENUM(1, "one");
	struct sb c0 = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 0, .size = SB_HIGH };
	unsigned char ones[WIDE];
	char wide[WIDE * 12] = "test:wide";
	size_t len = strlen(wide);
	uint64_t seq = 0;
	uint32_t x = 5;
	unsigned int i;

	low.buf = malloc(SB_LOW);
	c0.buf = malloc(SB_HIGH);
	meta_max = ~0U;
	fwrite(&h, sizeof(h), 1, trace);
	sb_begin(&low, 0, 0, 1000);
	meta(KTRACE_META_TRACE, &mt, sizeof(mt));
	meta(KTRACE_META_CLOCK, &mc, sizeof(mc));
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, 6, 0, 0, 2, 0, "test", "zero");
	meta_field("z", 0, 0, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("e", 0, 4, KTRACE_DISPLAY_ENUM, 0, 1);
	meta(KTRACE_META_ENUM, &one, sizeof(one));
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, 7, 0, 0, 1, 0, "test", "past");
	meta_field("w", 8, 30, KTRACE_DISPLAY_DEC, 0, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 21, 1, 1, 0,
		   "test", "three");
	meta_field("a", 0, 3, KTRACE_DISPLAY_DEC, 0, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, 8, 0, 0, 1, 0, "test", "cut");
	meta_field("e", 0, 8, KTRACE_DISPLAY_ENUM, 0, 3);
	meta(KTRACE_META_ENUM, &one, sizeof(one));
	/* 100 tables announcing 65535 values each: one read each. */
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 21, 2,
		   WIDE, 0, "test", "wide");
	for (i = 0; i < WIDE; i++) {
		char name[KTRACE_NAME_LEN + 1];

		snprintf(name, sizeof(name), "f%u", i);
		meta_field(name, i, 1, KTRACE_DISPLAY_ENUM, 0, 65535);
		meta(KTRACE_META_ENUM, &one, sizeof(one));
		len += snprintf(wide + len, sizeof(wide) - len, " %s=one", name);
	}
	/* 19890 more fields in 78 events, each announcing 65535 values, none written. */
	for (i = 0; i < 19890; i++) {
		sb_room(&low, &seq, 1000, 128);
		if (i % 255 == 0)
			meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, 9, 0, 0, 255, 0,
				   "test", "many");
		meta_field("f", 0, 8, KTRACE_DISPLAY_FLAGS, 0, 65535);
	}
	sb_end(&low, 0);
	sb_flush(&low);
	sb_begin(&c0, 0, 0, 1100);
	memset(ones, 1, sizeof(ones));
	sb_expanded(&c0, 21, 2, 1100, ones, sizeof(ones));
	line(1100, 0, "<idle>-0", wide);
	sb_compact(&c0, 6, 1100, 0);
	line(1100, 0, "<idle>-0", "unknown:high id=6 payload=0x0");
	sb_compact(&c0, 7, 1101, 0x100);
	line(1101, 0, "<idle>-0", "unknown:high id=7 payload=0x100");
	sb_expanded(&c0, 21, 1, 1102, &x, sizeof(x));
	line(1102, 0, "<idle>-0", "unknown:high major=21 minor=1 length=4");
	sb_compact(&c0, 8, 1103, 0);
	line(1103, 0, "<idle>-0", "test:cut e=0");
	sb_compact(&c0, 8, 1104, 1);
	line(1104, 0, "<idle>-0", "test:cut e=one");
	sb_end(&c0, 0);
	fmt_version = KTRACE_FORMAT_VERSION + 1;
	sb_begin(&c0, 1, 0, 1105);
	sb_compact(&c0, 8, 1105, 1);
	sb_end(&c0, 0);
	sb_flush(&c0);
	fclose(trace);
	fclose(expect);
	return 0;
}

/*
 * ---- ktrace latency (tests/t-latency.sh) ----
 *
 * mktrace TRACE EXPECTED latency [HOST]: the pairs of ktrace latency, on a
 * clock of 1 GHz (one unit a nanosecond, clock 1000 at 5 s), from HOST
 * ("synthetic" if not given).  CPU 0: 100 block requests of 1 ms queued
 * and issued by dd (321, dev 8:0), one of 120 ms queued by bigio (555,
 * dev 8:16 sector 123456) and issued by a kworker (90), one never
 * completed; system calls of sleeper (600), one of 2 ms across a 27-bit
 * rollover, one of reader (601) that never returns, one ended by its
 * task's exit, an execve() of 500 us by a thread (602) of sleeper; a
 * wakeup of 50 us, a wakeup of the running task (nothing), one never
 * run.  CPU 1: IRQs 24 (named by the statedump) and 25, two
 * timers, the tick (4 ms) late once by 300 us after an irqs-off period,
 * and another every 12 ms.
 * EXPECTED is left empty: t-latency.sh knows the answers.
 */
#define LAT_ISSUE	10
#define LAT_COMPLETE	11
#define LAT_ENTRY	12
#define LAT_EXIT	13
#define LAT_WAKEUP	14
#define LAT_SWITCH	15
#define LAT_HENTRY	16
#define LAT_HEXIT	17
#define LAT_PEXIT	18
#define LAT_SOFTIRQ	19	/* raise, entry, exit: MKTRACE_SOFTIRQ */
#define LAT_EXEC_MAJOR	9
#define LAT_SB		131072
#define LAT_TICK	0xffffffff81003000ULL
#define LAT_OTHER	0xffffffff81004000ULL
#define LAT_DWORK	0xffffffff81005000ULL	/* not periodic */
#define LAT_POLL	0xffffffff81006000ULL	/* periodic, stopped once */
#define LAT_IRQSOFF	0xffffffff81002000ULL

/* A clock value at @off ns after 5 s. */
#define LAT_AT(off)	(1000 + (uint64_t)(off))

static void lat_bio(struct sb *s, uint64_t clock, uint32_t dev, uint64_t sector,
		    uint16_t nr, uint8_t op)
{
	struct ktrace_blk_desc d = { .sector = sector, .dev = dev, .nr_sector = nr, .op = op };

	sb_expanded(s, BLK_MAJOR, 1, clock, &d, sizeof(d));
}

/* A request queued at @q by the task running, issued at @i, completed at @c (0: never). */
static void lat_rq(struct sb *s, uint64_t q, uint64_t i, uint64_t c, uint32_t dev,
		   uint64_t sector, uint16_t nr, uint8_t op, int issuer)
{
	struct ktrace_blk_desc d = { .sector = sector, .dev = dev, .nr_sector = nr, .op = op };

	lat_bio(s, q, dev, sector, nr, op);
	if (issuer)
		sb_compact(s, LAT_SWITCH, i - 1, issuer);
	sb_compact(s, LAT_ISSUE, i, ktrace_blk_key(&d));
	if (c)
		sb_compact(s, LAT_COMPLETE, c, ktrace_blk_key(&d));
}

static void lat_timer(struct sb *s, uint64_t clock, uint64_t fn, uint32_t kind)
{
	unsigned char ex[16] = { 0 };

	memcpy(ex, &fn, 8);
	memcpy(ex + 12, &kind, 4);
	sb_expanded(s, 3, 1, clock, ex, 16);
}

/* The metadata of latency_trace(). */
static void latency_meta(void)
{
	struct ktrace_meta_trace mt = {
		.magic = KTRACE_MAGIC, .version = KTRACE_FORMAT_VERSION,
		.byte_order = KTRACE_LITTLE_ENDIAN, .nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = 2,
	};
	struct ktrace_meta_clock mc = {
		.freq_hz = 1000000000ULL, .ref_clock = 1000, .ref_mono_ns = 5000000000ULL,
		.ref_real_ns = 1700000000000000000ULL, .name = "tsc" };
	static const char *const softirq[] = { "softirq_raise", "softirq_entry", "softirq_exit" };
	unsigned int i;

	sb_begin(&low, 0, 0, 1000);
	/* x86_64: latency syscall names the numbers from its table. */
	memcpy(mt.machine, "x86_64", 6);
	meta(KTRACE_META_TRACE, &mt, sizeof(mt));
	meta(KTRACE_META_CLOCK, &mc, sizeof(mc));
	meta_blk_desc(BLK_MAJOR, 1, "block", "bio_queue");
	meta_rq(LAT_ISSUE, "rq_issue", false);
	meta_rq(LAT_COMPLETE, "rq_complete", true);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, LAT_ENTRY, 0, 0, 2, 0, "syscalls",
		   "entry");
	meta_field("nr", 0, 10, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("arg0", 10, 22, KTRACE_DISPLAY_HEX, 0, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, LAT_EXIT, 0, 0, 2, 0, "syscalls",
		   "exit");
	meta_field("nr", 0, 10, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("ret", 10, 22, KTRACE_DISPLAY_DEC, KTRACE_FIELD_SIGNED, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, LAT_WAKEUP, 0, 0, 2, 0, "sched",
		   "wakeup");
	meta_field("pid", 0, 22, KTRACE_DISPLAY_PID, 0, 0);
	meta_field("cpu", 22, 10, KTRACE_DISPLAY_DEC, KTRACE_FIELD_SATURATES, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, LAT_SWITCH, 0, 0, 1,
		   KTRACE_EVENT_PID_IS_CURRENT, "sched", "switch");
	meta_field("next_pid", 0, 22, KTRACE_DISPLAY_PID, 0, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, LAT_PEXIT, 0, 0, 1, 0, "sched",
		   "exit");
	meta_field("pid", 0, 22, KTRACE_DISPLAY_PID, 0, 0);
	/* On the medium channel, as the kernel writes it. */
	meta_event(KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, LAT_EXEC_MAJOR,
		   2, 3, KTRACE_EVENT_PID_IS_CURRENT, "sched", "exec");
	meta_field("pid", 0, 4, KTRACE_DISPLAY_PID, 0, 0);
	meta_field("old_pid", 4, 4, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("comm", 8, 16, KTRACE_DISPLAY_STRING, 0, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, LAT_HENTRY, 0, 0, 1, 0, "irq",
		   "hardirq_entry");
	meta_field("irq", 0, 30, KTRACE_DISPLAY_DEC, 0, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, LAT_HEXIT, 0, 0, 1, 0, "irq",
		   "hardirq_exit");
	meta_field("irq", 0, 30, KTRACE_DISPLAY_DEC, 0, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 3, 1, 3, 0,
		   "irq", "timer_expire");
	meta_field("function", 0, 8, KTRACE_DISPLAY_SYMBOL, KTRACE_FIELD_KADDR, 0);
	meta_field("late_ns", 8, 4, KTRACE_DISPLAY_DEC, KTRACE_FIELD_SIGNED, 0);
	meta_field("kind", 12, 4, KTRACE_DISPLAY_DEC, 0, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 3, 2, 2, 0,
		   "irq", "irqsoff");
	meta_field("caller", 0, 8, KTRACE_DISPLAY_SYMBOL, KTRACE_FIELD_KADDR, 0);
	meta_field("duration_ns", 8, 4, KTRACE_DISPLAY_DEC, 0, 0);
	meta_event(KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 4, 3, 3, 0,
		   "statedump", "irq");
	meta_field("irq", 0, 4, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("handler", 8, 8, KTRACE_DISPLAY_SYMBOL, KTRACE_FIELD_KADDR, 0);
	meta_field("name", 16, 0, KTRACE_DISPLAY_STRING, 0, 0);
	for (i = 0; getenv("MKTRACE_SOFTIRQ") && i < ARRAY_SIZE(softirq); i++) {
		meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, LAT_SOFTIRQ + i, 0, 0, 1, 0,
			   "irq", softirq[i]);
		meta_field("vec", 0, 5, KTRACE_DISPLAY_DEC, 0, 0);
	}
	if (getenv("MKTRACE_SDTASKS")) {
		meta_event(KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 4,
			   4, 6, 0, "statedump", "task");
		meta_field("pid", 0, 4, KTRACE_DISPLAY_PID, 0, 0);
		meta_field("tgid", 4, 4, KTRACE_DISPLAY_DEC, 0, 0);
		meta_field("ppid", 8, 4, KTRACE_DISPLAY_DEC, 0, 0);
		meta_field("state", 12, 1, KTRACE_DISPLAY_DEC, 0, 0);
		meta_field("kthread", 13, 1, KTRACE_DISPLAY_DEC, 0, 0);
		meta_field("comm", 16, 16, KTRACE_DISPLAY_STRING, 0, 0);
		meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED,
			   LAT_EXEC_MAJOR, 1, 4, 0, "sched", "fork");
		meta_field("parent_pid", 0, 4, KTRACE_DISPLAY_PID, 0, 0);
		meta_field("child_pid", 4, 4, KTRACE_DISPLAY_DEC, 0, 0);
		meta_field("child_tgid", 8, 4, KTRACE_DISPLAY_DEC, 0, 0);
		meta_field("comm", 12, 0, KTRACE_DISPLAY_STRING, 0, 0);
	}
	sb_end(&low, 0);
	sb_flush(&low);
}

/*
 * MKTRACE_SDTASKS: a sched:fork (see latency_cpu0()) and statedump:task
 * records at 600 ns of dd (321, R),
 * sleeper (600, S), quitter (603 of 600, Z), a kworker (90, I, a kernel thread)
 * and bigio (555, T).
 */
static void lat_sd_tasks(struct sb *med)
{
	static const struct { uint32_t pid, state, kthread; const char *comm; } tk[] = {
		{ 321, 0, 0, "dd" }, { 600, 1, 0, "sleeper" }, { 603, 6, 0, "quitter" },
		{ 90, 8, 1, "kworker/0:1" }, { 555, 3, 0, "bigio" },
	};
	unsigned char ex[32];
	unsigned int i;

	for (i = 0; getenv("MKTRACE_SDTASKS") && i < ARRAY_SIZE(tk); i++) {
		memset(ex, 0, sizeof(ex));
		memcpy(ex, (uint32_t[]){ tk[i].pid, tk[i].pid == 603 ? 600 : tk[i].pid, 1 }, 12);
		ex[12] = tk[i].state;
		ex[13] = tk[i].kthread;
		memcpy(ex + 16, tk[i].comm, strlen(tk[i].comm));
		sb_expanded(med, 4, 4, LAT_AT(600 + i), ex, 32);
	}
}

/*
 * The IRQ the statedump names "late" at 600.08 ms: MKTRACE_LATEIRQ (99 if
 * unset).  With MKTRACE_LATEIRQ, CPU 1 runs its handler at 12 ms (before
 * the name) and at 650 ms (after it).
 */
static uint32_t lat_late_irq(void)
{
	const char *n = getenv("MKTRACE_LATEIRQ");

	return n ? strtoul(n, NULL, 10) : 99;
}

/*
 * MKTRACE_SYSCALLS="NR ...": a call of 1 us of each of those numbers by
 * worker (700) from 650 ms on, its first argument 6, its return 1
 * (t-ctf.sh: lttng-modules' names and arguments).
 */
static void lat_more_syscalls(struct sb *c0)
{
	const char *p = getenv("MKTRACE_SYSCALLS");
	uint64_t t = 650000000;
	char *end;
	unsigned long nr;

	while (p && *p) {
		nr = strtoul(p, &end, 10);
		if (end == p)
			break;
		p = end;
		sb_compact(c0, LAT_ENTRY, LAT_AT(t), nr | 6U << 10);
		sb_compact(c0, LAT_EXIT, LAT_AT(t + 1000), nr | 1U << 10);
		t += 10000;
	}
}

/* CPU 0 of latency_trace(): block requests, system calls, wakeups. */
static void latency_cpu0(struct sb *c0, struct sb *med)
{
	uint64_t t, b = 4ULL << KTRACE_CLOCK_BITS;
	unsigned char ex[24];
	unsigned int i;

	/* Block: 100 requests of 1 ms, one of 120 ms, one never completed. */
	sb_compact(c0, LAT_SWITCH, LAT_AT(1000000), 321);
	for (i = 0; i < 100; i++) {
		t = 1010000 + i * 2000000ULL;
		lat_rq(c0, LAT_AT(t), LAT_AT(t + 1000), LAT_AT(t + 1001000), 8 << 20,
		       2048 + 8 * i, 8, KTRACE_BLK_OP_READ, 0);
	}
	sb_compact(c0, LAT_SWITCH, LAT_AT(201000000), 555);
	lat_rq(c0, LAT_AT(201010000), LAT_AT(201100000), LAT_AT(321100000), 8 << 20 | 16,
	       123456, 256, KTRACE_BLK_OP_WRITE, 90);
	sb_compact(c0, LAT_SWITCH, LAT_AT(330000000), 321);
	lat_rq(c0, LAT_AT(330010000), LAT_AT(330020000), 0, 8 << 20, 999999, 8,
	       KTRACE_BLK_OP_READ, 0);
	/* System calls: three of 10 us, one of 2 ms across a rollover. */
	sb_compact(c0, LAT_SWITCH, LAT_AT(400000000), 600);
	for (i = 0; i < 3; i++) {
		t = 400100000 + i * 100000ULL;
		sb_compact(c0, LAT_ENTRY, LAT_AT(t), 0);
		sb_compact(c0, LAT_EXIT, LAT_AT(t + 10000), 0);
	}
	sb_compact(c0, LAT_ENTRY, b - 500000, 35);
	sb_compact(c0, LAT_EXIT, b + 1500000, 35);
	/* One that never returns, one whose task exits. */
	sb_compact(c0, LAT_SWITCH, LAT_AT(540000000), 601);
	sb_compact(c0, LAT_ENTRY, LAT_AT(540010000), 7);
	sb_compact(c0, LAT_SWITCH, LAT_AT(545000000), 603);
	sb_compact(c0, LAT_ENTRY, LAT_AT(545010000), 60);
	/* MKTRACE_SDTASKS: 603, a thread of 600, makes a thread, 604. */
	if (getenv("MKTRACE_SDTASKS"))
		sb_expanded(c0, LAT_EXEC_MAJOR, 1, LAT_AT(545015000),
			    (uint32_t[]){ 603, 604, 600, 0x656e6f6e }, 16);
	sb_compact(c0, LAT_PEXIT, LAT_AT(545020000), 603);
	/* A thread's execve() of 500 us, returning under the leader's pid. */
	sb_compact(c0, LAT_SWITCH, LAT_AT(546000000), 602);
	sb_compact(c0, LAT_ENTRY, LAT_AT(546010000), 59);
	memset(ex, 0, sizeof(ex));
	memcpy(ex, (uint32_t[]){ 600, 602 }, 8);
	memcpy(ex + 8, "sleeper", 7);
	/*
	 * The high channel's records go on under the old pid (602) until
	 * the next switch: the exit is the leader's all the same.
	 */
	sb_begin(med, 1, 602, LAT_AT(546400000));
	sb_expanded(med, LAT_EXEC_MAJOR, 2, LAT_AT(546400000), ex, 24);
	sb_compact(c0, LAT_EXIT, LAT_AT(546510000), 59);
	/* Wakeups: 50 us; of the running task; never run. */
	sb_compact(c0, LAT_SWITCH, LAT_AT(600000000), 321);
	sb_compact(c0, LAT_WAKEUP, LAT_AT(600010000), 1U << 22 | 700);
	sb_compact(c0, LAT_SWITCH, LAT_AT(600060000), 700);
	/*
	 * A medium-channel record on CPU 0 while 700 runs there, in a
	 * subbuffer begun while 602 ran: the running task is the high
	 * channel's, not its stream's pid.
	 */
	memset(ex, 0, sizeof(ex));
	memcpy(ex, &(uint32_t){ lat_late_irq() }, 4);
	memcpy(ex + 16, "late", 4);
	sb_expanded(med, 4, 3, LAT_AT(600080000), ex, 23);
	sb_end(med, 0);
	sb_flush(med);
	sb_compact(c0, LAT_WAKEUP, LAT_AT(600100000), 1U << 22 | 701);
	sb_compact(c0, LAT_WAKEUP, LAT_AT(600110000), 0U << 22 | 700);
	sb_compact(c0, LAT_SWITCH, LAT_AT(600200000), 321);
	sb_compact(c0, LAT_SWITCH, LAT_AT(600300000), 700);
	lat_more_syscalls(c0);
	/* The last event of the trace. */
	sb_compact(c0, LAT_SWITCH, LAT_AT(700000000), 0);
}

/* CPU 1 of latency_trace(): hard interrupts, timers, irqs off. */
static void latency_cpu1(struct sb *c1)
{
	static const uint64_t dwork[] = { 61000000, 62000000, 101000000, 102500000, 241000000 };
	unsigned char ex[24];
	unsigned int i, d = 0;
	uint64_t t;

	sb_compact(c1, LAT_HENTRY, LAT_AT(10000000), 24);
	/* $MKTRACE_SOFTIRQ (t-ftrace.sh): a vector ftrace names, one it does not. */
	if (getenv("MKTRACE_SOFTIRQ")) {
		sb_compact(c1, LAT_SOFTIRQ, LAT_AT(10010000), 3);
		sb_compact(c1, LAT_SOFTIRQ, LAT_AT(10020000), 12);
	}
	sb_compact(c1, LAT_HEXIT, LAT_AT(10030000), 24);
	sb_compact(c1, LAT_HENTRY, LAT_AT(11000000), 25);
	sb_compact(c1, LAT_HEXIT, LAT_AT(11005000), 25);
	/* MKTRACE_SOFTIRQ: a raise of the timer softirq (1), its run. */
	if (getenv("MKTRACE_SOFTIRQ")) {
		sb_compact(c1, LAT_SOFTIRQ, LAT_AT(11010000), 1);
		sb_compact(c1, LAT_SOFTIRQ + 1, LAT_AT(11020000), 1);
		sb_compact(c1, LAT_SOFTIRQ + 2, LAT_AT(11030000), 1);
	}
	/* MKTRACE_LATEIRQ: its IRQ before the statedump names it. */
	if (getenv("MKTRACE_LATEIRQ")) {
		sb_compact(c1, LAT_HENTRY, LAT_AT(12000000), lat_late_irq());
		sb_compact(c1, LAT_HEXIT, LAT_AT(12001000), lat_late_irq());
	}
	/* The tick every 4 ms, late by 300 us at 44.3 ms; another every 12 ms. */
	for (i = 0; i <= 10; i++) {
		t = 20000000 + i * 4000000ULL;
		if (i == 6) {
			memset(ex, 0, sizeof(ex));
			memcpy(ex, &(uint64_t){ LAT_IRQSOFF }, 8);
			memcpy(ex + 8, &(uint32_t){ 250000 }, 4);
			sb_expanded(c1, 3, 2, LAT_AT(44250000), ex, 12);
			t += 300000;
		}
		lat_timer(c1, LAT_AT(t), LAT_TICK, 1);
		if (i % 3 == 0)
			lat_timer(c1, LAT_AT(20500000 + i * 4000000ULL), LAT_OTHER, 0);
	}
	/*
	 * delayed_work_timer_fn, the function of timers of many periods:
	 * intervals of 1, 39, 1.5 and 138.5 ms, not periodic (1 of 4 within
	 * 1/8 of the median, 1.5 ms).  A poll every 5 ms, held back 45 ms
	 * once: periodic, that interval late by 45 ms.
	 */
	/* In time order: a stream's time does not go back. */
	for (i = 0; i < 8; i++) {
		t = 61200000 + i * 5000000ULL + (i >= 5) * 45000000ULL;
		for (; d < ARRAY_SIZE(dwork) && dwork[d] < t; d++)
			lat_timer(c1, LAT_AT(dwork[d]), LAT_DWORK, 0);
		lat_timer(c1, LAT_AT(t), LAT_POLL, 0);
	}
	for (; d < ARRAY_SIZE(dwork); d++)
		lat_timer(c1, LAT_AT(dwork[d]), LAT_DWORK, 0);
	if (getenv("MKTRACE_LATEIRQ")) {
		sb_compact(c1, LAT_HENTRY, LAT_AT(650000000), lat_late_irq());
		sb_compact(c1, LAT_HEXIT, LAT_AT(650002000), lat_late_irq());
	}
}

static int latency_trace(const char *host)
{
	struct ktf_header h = { KTF_MAGIC, KTF_VERSION, 0 };
	struct sb c0 = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 0, .size = LAT_SB };
	struct sb c1 = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 1, .size = LAT_SB };
	struct sb med = { .ch = KTRACE_CHANNEL_MEDIUM, .cpu = 0, .size = SB_MEDIUM };
	static const char syms[] = "ffffffff81002000 slow_path+0x20/0x100\n"
				   "ffffffff81003000 tick_sched_timer+0x0/0x80\n"
				   "ffffffff81004000 other_fn+0x0/0x40\n"
				   "ffffffff81005000 delayed_work_timer_fn+0x0/0x40\n"
				   "ffffffff81006000 poll_fn+0x0/0x40\n";
	static const char tasks[] = "90 kworker/0:1\n321 dd\n555 bigio\n600 sleeper\n"
				    "601 reader\n602 thread\n603 quitter\n700 worker\n"
				    "701 idler\n";
	unsigned char irq[80];
	const char *name;
	char uname[128];

	low.buf = malloc(SB_LOW);
	c0.buf = malloc(LAT_SB);
	c1.buf = malloc(LAT_SB);
	med.buf = malloc(SB_MEDIUM);
	meta_max = ~0U;
	fwrite(&h, sizeof(h), 1, trace);
	latency_meta();

	/* The statedump names IRQ 24: MKTRACE_IRQNAME if set ("": no statedump). */
	sb_begin(&med, 0, 0, LAT_AT(500));
	memset(irq, 0, sizeof(irq));
	irq[0] = 24;
	name = getenv("MKTRACE_IRQNAME") ? getenv("MKTRACE_IRQNAME") : "eth0-rx";
	snprintf((char *)irq + 16, sizeof(irq) - 16, "%s", name);
	if (*name)
		sb_expanded(&med, 4, 3, LAT_AT(500), irq, 16 + strlen((char *)irq + 16));
	lat_sd_tasks(&med);
	sb_end(&med, 0);
	sb_flush(&med);

	sb_begin(&c0, 0, 0, LAT_AT(0));
	latency_cpu0(&c0, &med);
	sb_end(&c0, 0);
	sb_flush(&c0);

	sb_begin(&c1, 0, 0, LAT_AT(0));
	latency_cpu1(&c1);
	sb_end(&c1, 0);
	sb_flush(&c1);
	snprintf(uname, sizeof(uname), "Linux %s 6.12.0 #1 SMP x86_64\n",
		 host ? host : "synthetic");
	section(KTF_UNAME, 0, 0, uname, strlen(uname));
	section(KTF_TASKS, 0, 0, tasks, strlen(tasks));
	section(KTF_SYMBOLS, 0, 0, syms, strlen(syms));
	fclose(trace);
	fclose(expect);
	return 0;
}

/*
 * ktrace profile (t-profile.sh): mktrace TRACE EXPECTED profile.  A clock
 * of 1 ns per unit, 5 s at clock 1000, on x86_64; times below are ns
 * after 5 s.  EXPECTED: report's lines of the switches and system calls
 * that t-profile.sh checks; t-profile.sh knows the profile's figures.
 *
 * CPU 0, its subbuffer begun while pid 77 ran: 77 -> 100 at 0 (before CPU
 * 1's first record: outside the profile); 100 -> 300 at 2000 (100 sleeps,
 * S); 300 calls clock_nanosleep 2500-4000 and read 4100-4300 (-11); 100
 * woken at 3000; 300 -> 100 at 5000 (300 preempted, R+); 100 reads
 * 6000-6500; 100 -> 300 at 7000 (100 blocked, D); 300 reads 7200-7300
 * (-4); 300 -> 0 at 9000 (S); 100 woken at 10000, runs at 10500, calls
 * exit at 11000, exits at 11100, switched away dead (X) at 11200, woken
 * in vain at 12000; 0 -> 300 at 19000, which calls nanosleep at 19500
 * (the last record of CPU 0: the profile's end).
 *
 * CPU 1: -> 200 at 1000 (the profile's start); 201 new at 1500; 200 ->
 * 201 at 4000 (R+); 201 -> 200 at 4500 (S); 200 -> 201 at 6000 (S; no
 * wakeup of 201 in the trace); 201 -> 0 at 14000 (R+); then a lost
 * subbuffer (seq 1), and from seq 2: 200 woken at 15000, 0 -> 200 at
 * 16000, 200 -> 0 at 18000 (S), 200 woken at 25000 (after the end).
 */
#define PF_SWITCH	10
#define PF_WAKEUP	11
#define PF_WAKEUP_NEW	12
#define PF_ENTRY	13
#define PF_EXIT		14
#define PF_PEXIT	15
#define PF_R		0
#define PF_S		1
#define PF_D		2
#define PF_X		5
#define PF_RP		9

static void pf_meta(void)
{
	static const struct ktrace_meta_enum st[] = {
		META_ENUM(PF_R, "R"), META_ENUM(PF_S, "S"), META_ENUM(PF_D, "D"),
		META_ENUM(PF_X, "X"), META_ENUM(PF_RP, "R+"),
	};
	struct ktrace_meta_trace mt = {
		.magic = KTRACE_MAGIC, .version = KTRACE_FORMAT_VERSION,
		.byte_order = KTRACE_LITTLE_ENDIAN, .nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = 2,
	};
	struct ktrace_meta_clock mc = {
		.freq_hz = 1000000000ULL, .ref_clock = 1000, .ref_mono_ns = 5000000000ULL,
		.ref_real_ns = 1700000000000000000ULL, .name = "tsc" };
	unsigned int i;

	sb_begin(&low, 0, 0, 1000);
	memcpy(mt.machine, "x86_64", 6);
	meta(KTRACE_META_TRACE, &mt, sizeof(mt));
	meta(KTRACE_META_CLOCK, &mc, sizeof(mc));
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, PF_SWITCH, 0, 0, 2,
		   KTRACE_EVENT_PID_IS_CURRENT, "sched", "switch");
	meta_field("next_pid", 0, 22, KTRACE_DISPLAY_PID, 0, 0);
	meta_field("prev_state", 22, 4, KTRACE_DISPLAY_ENUM, 0, ARRAY_SIZE(st));
	for (i = 0; i < ARRAY_SIZE(st); i++)
		meta(KTRACE_META_ENUM, &st[i], sizeof(st[i]));
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, PF_WAKEUP, 0, 0, 2, 0, "sched",
		   "wakeup");
	meta_field("pid", 0, 22, KTRACE_DISPLAY_PID, 0, 0);
	meta_field("cpu", 22, 10, KTRACE_DISPLAY_DEC, KTRACE_FIELD_SATURATES, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, PF_WAKEUP_NEW, 0, 0, 2, 0, "sched",
		   "wakeup_new");
	meta_field("pid", 0, 22, KTRACE_DISPLAY_PID, 0, 0);
	meta_field("cpu", 22, 10, KTRACE_DISPLAY_DEC, KTRACE_FIELD_SATURATES, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, PF_ENTRY, 0, 0, 2, 0, "syscalls",
		   "entry");
	/* Signed and saturating, as the kernel's (-1: no system call). */
	meta_field("nr", 0, 10, KTRACE_DISPLAY_DEC,
		   KTRACE_FIELD_SIGNED | KTRACE_FIELD_SATURATES, 0);
	meta_field("arg0", 10, 22, KTRACE_DISPLAY_HEX, 0, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, PF_EXIT, 0, 0, 2, 0, "syscalls",
		   "exit");
	meta_field("nr", 0, 10, KTRACE_DISPLAY_DEC,
		   KTRACE_FIELD_SIGNED | KTRACE_FIELD_SATURATES, 0);
	meta_field("ret", 10, 22, KTRACE_DISPLAY_DEC,
		   KTRACE_FIELD_SIGNED | KTRACE_FIELD_SATURATES, 0);
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, PF_PEXIT, 0, 0, 1, 0, "sched",
		   "exit");
	meta_field("pid", 0, 22, KTRACE_DISPLAY_PID, 0, 0);
	sb_end(&low, 0);
	sb_flush(&low);
}

static void pf_switch(struct sb *s, uint64_t at, uint32_t state, uint32_t next)
{
	sb_compact(s, PF_SWITCH, LAT_AT(at), next | state << 22);
}

static void pf_call(struct sb *s, uint64_t in, uint64_t out, uint32_t nr, int32_t ret)
{
	sb_compact(s, PF_ENTRY, LAT_AT(in), nr | 0x2a << 10);
	if (out)
		sb_compact(s, PF_EXIT, LAT_AT(out), nr | (uint32_t)ret << 10);
}

static void pf_cpu0(struct sb *c)
{
	sb_begin(c, 0, 77, LAT_AT(0));
	pf_switch(c, 0, PF_R, 100);
	pf_switch(c, 2000, PF_S, 300);
	pf_call(c, 2500, 0, 230, 0);
	sb_compact(c, PF_WAKEUP, LAT_AT(3000), 100);
	sb_compact(c, PF_EXIT, LAT_AT(4000), 230);
	pf_call(c, 4100, 4300, 0, -11);
	pf_switch(c, 5000, PF_RP, 100);
	pf_call(c, 6000, 6500, 0, 100);
	pf_switch(c, 7000, PF_D, 300);
	pf_call(c, 7200, 7300, 0, -4);
	if (getenv("MKTRACE_PROFILE") && !strcmp(getenv("MKTRACE_PROFILE"), "nr")) {
		/* System call -1 (ENOSYS), and one of 511 or more. */
		pf_call(c, 7400, 7500, 0x3ff, -38);
		pf_call(c, 7600, 7800, 0x1ff, 0);
	}
	pf_switch(c, 9000, PF_S, 0);
	sb_compact(c, PF_WAKEUP, LAT_AT(10000), 100);
	pf_switch(c, 10500, PF_R, 100);
	pf_call(c, 11000, 0, 60, 0);
	sb_compact(c, PF_PEXIT, LAT_AT(11100), 100);
	pf_switch(c, 11200, PF_X, 0);
	sb_compact(c, PF_WAKEUP, LAT_AT(12000), 100);
	pf_switch(c, 19000, PF_R, 300);
	pf_call(c, 19500, 0, 35, 0);
	sb_end(c, 0);
}

static void pf_cpu1(struct sb *c)
{
	sb_begin(c, 0, 0, LAT_AT(1000));
	pf_switch(c, 1000, PF_R, 200);
	sb_compact(c, PF_WAKEUP_NEW, LAT_AT(1500), 1U << 22 | 201);
	pf_switch(c, 4000, PF_RP, 201);
	pf_switch(c, 4500, PF_S, 200);
	pf_switch(c, 6000, PF_S, 201);
	pf_switch(c, 14000, PF_RP, 0);
	sb_end(c, 0);
	/*
	 * Subbuffer 1 lost (overwritten); with $MKTRACE_PROFILE=dropped, no
	 * gap but 3 events dropped before the next subbuffer (counted in
	 * this one's header, closed when the next began); with "whole", no
	 * loss at all.
	 */
	if (getenv("MKTRACE_PROFILE") && !strcmp(getenv("MKTRACE_PROFILE"), "dropped"))
		((struct ktrace_subbuf_header *)(c->out + c->out_len - c->used))->dropped = 3;
	sb_begin(c, getenv("MKTRACE_PROFILE") ? 1 : 2, 0, LAT_AT(15000));
	sb_compact(c, PF_WAKEUP, LAT_AT(15000), 1U << 22 | 200);
	pf_switch(c, 16000, PF_R, 200);
	pf_switch(c, 18000, PF_S, 0);
	sb_compact(c, PF_WAKEUP, LAT_AT(25000), 1U << 22 | 200);
	sb_end(c, 1);
}

static int profile_trace(void)
{
	struct ktf_header h = { KTF_MAGIC, KTF_VERSION, 0 };
	struct sb c0 = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 0, .size = SB_HIGH };
	struct sb c1 = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 1, .size = SB_HIGH };
	static const char tasks[] = "77 starter\n100 sleeper\n200 worker\n201 child\n"
				    "300 worker\n";
	static const char uname[] = "Linux synthetic 6.12.0 #1 SMP x86_64\n";

	low.buf = malloc(SB_LOW);
	c0.buf = malloc(SB_HIGH);
	c1.buf = malloc(SB_HIGH);
	meta_max = ~0U;
	fwrite(&h, sizeof(h), 1, trace);
	pf_meta();
	pf_cpu0(&c0);
	sb_flush(&c0);
	pf_cpu1(&c1);
	sb_flush(&c1);
	section(KTF_UNAME, 0, 0, uname, strlen(uname));
	section(KTF_TASKS, 0, 0, tasks, strlen(tasks));
	fclose(trace);
	fclose(expect);
	return 0;
}

/*
 * mktrace TRACE EXPECTED nodata: the metadata of latency_trace() and no
 * event of it, as a trace recorded without them, in the layout of the
 * current tools (the end flag, the events section, the end): sched:switch,
 * sched:wakeup and block:rq_issue were on (none happened), the others
 * off.  One statedump:irq record on the medium channel.  With
 * $MKTRACE_OLD, in the layout of earlier tools (no flag, no events
 * section, no end).
 */
static int nodata_trace(void)
{
	struct ktf_header h = { KTF_MAGIC, KTF_VERSION, KTF_FLAG_END };
	struct sb med = { .ch = KTRACE_CHANNEL_MEDIUM, .cpu = 0, .size = SB_MEDIUM };
	bool old = getenv("MKTRACE_OLD");
	static const char events[] = "ktrace:mark\nsched:switch\nsched:wakeup\nblock:rq_issue\n";
	unsigned char ex[24] = { 24 };

	low.buf = malloc(SB_LOW);
	med.buf = malloc(SB_MEDIUM);
	meta_max = ~0U;
	if (old)
		h.flags = 0;
	fwrite(&h, sizeof(h), 1, trace);
	if (!old)
		section(KTF_EVENTS, 0, 0, events, strlen(events));
	latency_meta();
	sb_begin(&med, 0, 0, LAT_AT(500));
	memcpy(ex + 16, "eth0-rx", 7);
	sb_expanded(&med, 4, 3, LAT_AT(500), ex, 23);
	sb_end(&med, 0);
	sb_flush(&med);
	if (!old)
		section(KTF_END, 0, 0, NULL, 0);
	fclose(trace);
	fclose(expect);
	return 0;
}

/*
 * Traces of a cluster group (t-cluster.sh): mktrace TRACE EXPECTED
 * cluster HOST ID OFFSET_NS DRIFT_PPB MODE.  One machine of a
 * group, id ID (1 or 2), whose CLOCK_REALTIME reads OFFSET_NS plus
 * DRIFT_PPB ns per second of true time g (10 s from g = 0) ahead of the
 * truth: its clock runs at 1 + DRIFT_PPB / 10^9 (1 GHz nominal, 5 s of
 * CLOCK_MONOTONIC at clock 1000 = g 0) and its reference is 1.7e18 +
 * OFFSET_NS.  Its ktrace:cluster records: rbs, the beacons of machine 3
 * every 100 ms, received 20 to 80 us after they were sent (a
 * deterministic pseudo-random delay per beacon and receiver); twoway,
 * machine 1 sends at every 100 ms, machine 2 at every 100 ms + 50 ms, the
 * other receives 20 to 80 us later; both, the two; tail, twoway with a
 * third of the messages 5 to 30 ms late, one way in the first half of
 * the trace, the other in the second; skew, twoway from 4 to 6 s only,
 * 20 us one way and 80 us the other, swapped at 5 s; short, twoway, 3
 * messages each way from 5 s; rbs-short, rbs, 3 beacons from 5 s;
 * biased, twoway and beacons that machine 2 receives 300 us later than
 * machine 1 (with a jitter of a few ns); exact, beacons each received 50
 * us after it was sent; stepped, twoway, machine 2's clock stepped 1 ms
 * ahead at 5 s; none, no record.  Every machine has a test:sync
 * record n=1 at g = 5.0005 s exactly, for the test to compare; skew,
 * short and rbs-short also n=2 at 0.05 s and n=3 at 9.95 s.
 * EXPECTED stays empty.
 */
#define CL_PERIOD	100000000ULL
#define CL_BEACONS	100

struct cl_ev {
	uint64_t g;
	bool sync;
	uint32_t id;
	uint64_t seq;
	uint8_t dir;
};

static uint64_t cl_delay(unsigned int k, unsigned int id)
{
	uint32_t h = (k + 1) * 2654435761U ^ id * 40503U;

	h ^= h >> 13;
	h *= 0x5bd1e995U;
	h ^= h >> 15;
	return 20000 + h % 60000;
}

static int cl_ev_cmp(const void *a, const void *b)
{
	const struct cl_ev *x = a, *y = b;

	return x->g < y->g ? -1 : x->g > y->g;
}

static void cluster_meta(const char *host, long long offset)
{
	static const struct ktrace_meta_enum dirs[] = {
		META_ENUM(0, "recv"), META_ENUM(1, "send"),
	};
	static const struct ktrace_meta_enum types[] = {
		META_ENUM(1, "trigger"), META_ENUM(2, "beacon"),
	};
	struct ktrace_meta_trace mt = {
		.magic = KTRACE_MAGIC, .version = KTRACE_FORMAT_VERSION,
		.byte_order = KTRACE_LITTLE_ENDIAN, .nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = 1,
	};
	struct ktrace_meta_clock mc = {
		.freq_hz = 1000000000ULL, .ref_clock = 1000, .ref_mono_ns = 5000000000ULL,
		.ref_real_ns = 1700000000000000000ULL + offset, .name = "tsc" };

	sb_begin(&low, 0, 0, 1000);
	memcpy(mt.machine, "x86_64", 6);
	snprintf(mt.nodename, sizeof(mt.nodename), "%s", host);
	meta(KTRACE_META_TRACE, &mt, sizeof(mt));
	meta(KTRACE_META_CLOCK, &mc, sizeof(mc));
	meta_event(KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 1, 9, 5, 0,
		   "ktrace", "cluster");
	meta_field("seq", 0, 8, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("id", 8, 4, KTRACE_DISPLAY_HEX, 0, 0);
	meta_field("dir", 12, 1, KTRACE_DISPLAY_ENUM, 0, 2);
	meta(KTRACE_META_ENUM, &dirs[0], sizeof(dirs[0]));
	meta(KTRACE_META_ENUM, &dirs[1], sizeof(dirs[1]));
	meta_field("type", 13, 1, KTRACE_DISPLAY_ENUM, 0, 2);
	meta(KTRACE_META_ENUM, &types[0], sizeof(types[0]));
	meta(KTRACE_META_ENUM, &types[1], sizeof(types[1]));
	meta_field("origin", 14, 16, KTRACE_DISPLAY_STRING, 0, 0);
	meta_event(KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 9, 1, 1, 0,
		   "test", "sync");
	meta_field("n", 0, 4, KTRACE_DISPLAY_DEC, 0, 0);
	sb_end(&low, 0);
	sb_flush(&low);
}

/* Whether @mode is one of the space-separated @modes. */
static bool cl_mode(const char *mode, const char *modes)
{
	size_t n = strlen(mode);
	const char *p;

	for (p = strstr(modes, mode); p; p = strstr(p + 1, mode))
		if ((p == modes || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

/* The delay of beacon k to machine id, in ns. */
static uint64_t cl_beacon_delay(unsigned int k, unsigned int id, const char *mode)
{
	if (cl_mode(mode, "exact"))
		return 50000;
	/* biased: machine 2 always 300 us later, a jitter of a few ns. */
	if (cl_mode(mode, "biased"))
		return 30000 + k % 7 + (id == 2 ? 300000 : 0);
	return cl_delay(k, id);
}

/* The delay of machine peer's message k to machine id, in ns. */
static uint64_t cl_msg_delay(unsigned int k, unsigned int id, const char *mode)
{
	bool id_is_b = id == 2;

	/*
	 * skew: 20 us to 2 and 80 us to 1 in the first half of the messages,
	 * the other way round in the second: their middles tilt.
	 */
	if (cl_mode(mode, "skew"))
		return (k < 50) == id_is_b ? 20000 : 80000;
	/*
	 * tail: as a loaded machine delays them, a third of the messages 5 to
	 * 30 ms late, those to 2 in the first half of the trace, those to 1 in
	 * the second.
	 */
	if (cl_mode(mode, "tail") && k % 3 == 0 && (k < CL_BEACONS / 2) == id_is_b)
		return cl_delay(k, id) + 5000000 + cl_delay(k, 7) * 400;
	return cl_delay(k, id);
}

/* The events of machine id, by true time. */
static unsigned int cluster_events(struct cl_ev *ev, unsigned int id, const char *mode)
{
	bool rbs = cl_mode(mode, "rbs both biased exact rbs-short");
	bool two = cl_mode(mode, "twoway both tail skew short biased stepped");
	unsigned int k, n = 0, peer = 3 - id;

	for (k = 0; k < CL_BEACONS; k++) {
		uint64_t g = k * CL_PERIOD + 1000000;
		bool in = true;

		/* skew: messages from 4 to 6 s only; short modes: 3 of them. */
		if (cl_mode(mode, "skew"))
			in = k >= 40 && k < 60;
		if (cl_mode(mode, "short rbs-short"))
			in = k >= 50 && k < 53;
		if (!in)
			continue;
		if (rbs)
			ev[n++] = (struct cl_ev){ g + cl_beacon_delay(k, id, mode), false, 3,
						  1000 + k, 0 };
		if (two) {
			/* Machine m sends seq 1000 m + k at g + 50 ms (m - 1). */
			ev[n++] = (struct cl_ev){ g + 50000000ULL * (id - 1), false, id,
						  1000 * id + k, 1 };
			ev[n++] = (struct cl_ev){ g + 50000000ULL * (peer - 1) +
						  cl_msg_delay(k, id, mode), false, peer,
						  1000 * peer + k, 0 };
		}
	}
	ev[n++] = (struct cl_ev){ 5000500000ULL, true, 0, 1, 0 };
	/* Far from the messages: test:sync n=2 at g 0.05 s, n=3 at 9.95 s. */
	if (cl_mode(mode, "skew short rbs-short")) {
		ev[n++] = (struct cl_ev){ 50000000ULL, true, 0, 2, 0 };
		ev[n++] = (struct cl_ev){ 9950000000ULL, true, 0, 3, 0 };
	}
	qsort(ev, n, sizeof(*ev), cl_ev_cmp);
	return n;
}

static int cluster_trace(const char *host, unsigned int id, long long offset,
			 long long drift_ppb, const char *mode)
{
	struct ktf_header h = { KTF_MAGIC, KTF_VERSION, 0 };
	struct sb med = { .ch = KTRACE_CHANNEL_MEDIUM, .cpu = 0, .size = SB_MEDIUM };
	struct cl_ev ev[3 * CL_BEACONS + 3];
	unsigned int i, n;
	char uname[128];

	low.buf = malloc(SB_LOW);
	med.buf = malloc(SB_MEDIUM);
	meta_max = ~0U;
	fwrite(&h, sizeof(h), 1, trace);
	cluster_meta(host, offset);
	n = cluster_events(ev, id, mode);
	sb_begin(&med, 0, 0, 1000);
	for (i = 0; i < n; i++) {
		/* This machine's clock: 1 + drift ns per ns of true time. */
		uint64_t clock = 1000 + ev[i].g + (int64_t)((__int128)ev[i].g * drift_ppb /
							    1000000000);

		/* stepped: machine 2's clock 1 ms ahead from 5 s. */
		if (cl_mode(mode, "stepped") && id == 2 && ev[i].g >= 5000000000ULL)
			clock += 1000000;
		unsigned char rec[30] = { 0 };
		uint32_t sync = ev[i].seq;

		if (ev[i].sync) {
			sb_expanded(&med, 9, 1, clock, &sync, sizeof(sync));
			continue;
		}
		memcpy(rec, &ev[i].seq, 8);
		memcpy(rec + 8, &ev[i].id, 4);
		rec[12] = ev[i].dir;
		rec[13] = 2;
		snprintf((char *)rec + 14, 16, "m%u", ev[i].id);
		sb_expanded(&med, 1, 9, clock, rec, sizeof(rec));
	}
	sb_end(&med, 0);
	sb_flush(&med);
	snprintf(uname, sizeof(uname), "Linux %s 6.12.0 #1 SMP x86_64\n", host);
	section(KTF_UNAME, 0, 0, uname, strlen(uname));
	fclose(trace);
	fclose(expect);
	return 0;
}

/*
 * ktrace io and ktrace reclaim (t-analyze.sh): mktrace TRACE EXPECTED
 * io|reclaim.  A clock of 1 ns per unit, CLOCK_MONOTONIC 5 s at clock
 * 1000 (so that times are exact), CLOCK_REALTIME 1700000000.123456789
 * then; EXPECTED stays empty: t-analyze.sh knows the answers.
 *
 * io: "my writer" (pid 100, CPU 0) queues a 4 KiB write every 10 ms from
 * 5 s, 30 of them (block:bio_queue); "flooder" (pid 200, CPU 1) inserts
 * 100 writes of 128 KiB every 0.5 ms from 5.105 s, described by
 * block:rq_describe only; "kworker/2:1" (pid 300, CPU 2) issues and
 * completes them all, reads 32 KiB itself (rq_describe, no insert) and
 * issues a request without description.  A trigger record at 5.13 s
 * (none with $MKTRACE_NOTRIGGER).
 *
 * reclaim: "memhog" (pid 1000, CPU 0): 11 direct reclaim passes, 10 ms
 * apart, priorities 12 to 2, each of two shrink_inactive records; "my job"
 * (pid 2000, CPU 1): 25 passes, 4 ms apart, priorities 12 to 4, one record
 * each; "kswapd0" (pid 50, CPU 2): a pass until its sleep, then one left
 * open; "cgtask" (pid 4000, CPU 3) reclaims outside direct reclaim, its
 * priority back to 12 at 5.04 s: two passes, the second left open;
 * memhog then triggers the OOM kill of "chrome" (pid 3000).
 */
#define AN_NS(ms, us)	(1000 + (ms) * 1000000ULL + (us) * 1000ULL)
#define AN_INSERT	10
#define AN_ISSUE	11
#define AN_COMPLETE	13
#define AN_BEGIN	20
#define AN_END		21
#define AN_WAKE		22
#define AN_SLEEP	23

struct an_ev {
	uint64_t clock;
	unsigned int id, seq;		/* seq: the order of records at one time */
	uint32_t key;
};

/* In an_ev.id: a block:rq_describe of an_io()'s read, not a compact event. */
#define AN_DESCRIBE	0xffff

static int an_ev_cmp(const void *a, const void *b)
{
	const struct an_ev *x = a, *y = b;

	if (x->clock != y->clock)
		return x->clock > y->clock ? 1 : -1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static void an_begin(struct sb *s, unsigned int ch, unsigned int cpu, int pid, uint64_t clock)
{
	*s = (struct sb){ .ch = ch, .cpu = cpu, .size = 1 << 20 };
	s->buf = malloc(s->size);
	sb_begin(s, 0, pid, clock);
}

static void an_end(struct sb *s)
{
	sb_end(s, 0);
	sb_flush(s);
	free(s->buf);
}

static void an_shrink(struct sb *s, uint64_t clock, unsigned int lru, unsigned int priority,
		      const uint16_t *counts)
{
	unsigned char e[26] = { 0 };

	e[2] = priority;
	e[3] = lru;
	memcpy(e + 4, counts, 22);
	sb_expanded(s, VM_MAJOR, 5, clock, e, sizeof(e));
}

static void an_io(struct sb *c0, struct sb *c1, struct sb *c2)
{
	struct ktrace_blk_desc d = { .dev = 8 << 20, .nr_sector = 8, .op = KTRACE_BLK_OP_WRITE };
	struct an_ev *evs = calloc(400, sizeof(*evs));
	unsigned int i, n = 0;
	uint64_t t;

	for (i = 0; i < 30; i++) {
		t = AN_NS(i * 10, 0);
		d.sector = 1000 + i * 8;
		sb_expanded(c0, BLK_MAJOR, 1, t, &d, sizeof(d));
		sb_compact(c0, AN_INSERT, t + 5000, ktrace_blk_key(&d));
		evs[n++] = (struct an_ev){ .clock = t + 20000, .id = AN_ISSUE,
					   .key = ktrace_blk_key(&d) };
		/* 1 ms each, but the 16th: 8 ms. */
		evs[n++] = (struct an_ev){ .clock = t + 20000 + (i == 15 ? 8000000 : 1000000),
					   .id = AN_COMPLETE, .key = ktrace_blk_key(&d) };
	}
	d.nr_sector = 256;
	for (i = 0; i < 100; i++) {
		t = AN_NS(105, i * 500);
		d.sector = 1000000 + i * 256;
		sb_expanded(c1, BLK_MAJOR, 3, t, &d, sizeof(d));
		sb_compact(c1, AN_INSERT, t + 5000, ktrace_blk_key(&d));
		evs[n++] = (struct an_ev){ .clock = t + 10000, .id = AN_ISSUE,
					   .key = ktrace_blk_key(&d) };
		/* 20 ms and 10 us more for each: the last one 20.990 ms. */
		evs[n++] = (struct an_ev){ .clock = t + 10000 + 20000000 + i * 10000,
					   .id = AN_COMPLETE, .key = ktrace_blk_key(&d) };
	}
	/*
	 * A read described only at its issue, and an issue of a request
	 * never described; in CPU 2's time order with the rest (a stream's
	 * times never go back: CTF readers refuse it).
	 */
	d = (struct ktrace_blk_desc){ .sector = 5000000, .dev = 8 << 20, .nr_sector = 64,
				      .op = KTRACE_BLK_OP_READ };
	t = AN_NS(250, 0);
	evs[n++] = (struct an_ev){ .clock = t, .id = AN_DESCRIBE };
	evs[n++] = (struct an_ev){ .clock = t, .id = AN_ISSUE, .seq = 1,
				   .key = ktrace_blk_key(&d) };
	evs[n++] = (struct an_ev){ .clock = t + 3000000, .id = AN_COMPLETE,
				   .key = ktrace_blk_key(&d) };
	evs[n++] = (struct an_ev){ .clock = AN_NS(260, 0), .id = AN_ISSUE, .key = 0x12345678 };
	qsort(evs, n, sizeof(*evs), an_ev_cmp);
	for (i = 0; i < n; i++) {
		if (evs[i].id == AN_DESCRIBE)
			sb_expanded(c2, BLK_MAJOR, 3, evs[i].clock, &d, sizeof(d));
		else
			sb_compact(c2, evs[i].id, evs[i].clock, evs[i].key);
	}
	/*
	 * $MKTRACE_IO=requeue: a 128 KiB write of the flooder, issued by a
	 * kworker, requeued, described again (the kernel's table of described
	 * keys lost it), inserted and issued again: one request of the
	 * flooder's.  =merge: a bio of my_writer inserted, a second one
	 * back-merged into its request, which a kworker issues described
	 * anew (16 sectors): one request of my_writer's.
	 */
	if (getenv("MKTRACE_IO") && !strcmp(getenv("MKTRACE_IO"), "requeue")) {
		d = (struct ktrace_blk_desc){ .sector = 8000000, .dev = 8 << 20, .nr_sector = 256,
					      .op = KTRACE_BLK_OP_WRITE };
		sb_expanded(c1, BLK_MAJOR, 3, AN_NS(280, 0), &d, sizeof(d));
		sb_compact(c1, AN_INSERT, AN_NS(280, 1), ktrace_blk_key(&d));
		sb_compact(c2, AN_ISSUE, AN_NS(281, 0), ktrace_blk_key(&d));
		sb_expanded(c2, BLK_MAJOR, 3, AN_NS(282, 0), &d, sizeof(d));
		sb_compact(c2, AN_INSERT, AN_NS(282, 1), ktrace_blk_key(&d));
		sb_compact(c2, AN_ISSUE, AN_NS(283, 0), ktrace_blk_key(&d));
		sb_compact(c2, AN_COMPLETE, AN_NS(284, 0), ktrace_blk_key(&d));
	}
	/* =sat: a 64 MiB write, its nr_sector at the field's bound (65535). */
	if (getenv("MKTRACE_IO") && !strcmp(getenv("MKTRACE_IO"), "sat")) {
		d = (struct ktrace_blk_desc){ .sector = 9000000, .dev = 8 << 20, .nr_sector = 65535,
					      .op = KTRACE_BLK_OP_WRITE };
		sb_expanded(c2, BLK_MAJOR, 3, AN_NS(270, 0), &d, sizeof(d));
		sb_compact(c2, AN_ISSUE, AN_NS(270, 0), ktrace_blk_key(&d));
		sb_compact(c2, AN_COMPLETE, AN_NS(271, 0), ktrace_blk_key(&d));
	}
	if (getenv("MKTRACE_IO") && !strcmp(getenv("MKTRACE_IO"), "merge")) {
		d = (struct ktrace_blk_desc){ .sector = 9500000, .dev = 8 << 20, .nr_sector = 8,
					      .op = KTRACE_BLK_OP_WRITE };
		sb_expanded(c0, BLK_MAJOR, 1, AN_NS(295, 0), &d, sizeof(d));
		sb_compact(c0, AN_INSERT, AN_NS(295, 1), ktrace_blk_key(&d));
		d.sector += 8;
		sb_expanded(c0, BLK_MAJOR, 1, AN_NS(295, 2), &d, sizeof(d));
		d = (struct ktrace_blk_desc){ .sector = 9500000, .dev = 8 << 20, .nr_sector = 16,
					      .op = KTRACE_BLK_OP_WRITE };
		sb_expanded(c2, BLK_MAJOR, 3, AN_NS(296, 0), &d, sizeof(d));
		sb_compact(c2, AN_ISSUE, AN_NS(296, 0), ktrace_blk_key(&d));
		sb_compact(c2, AN_COMPLETE, AN_NS(297, 0), ktrace_blk_key(&d));
	}
	free(evs);
}

static void an_reclaim(struct sb *c0, struct sb *c1, struct sb *c2, struct sb *c3)
{
	uint16_t anon[11] = { 0, 10, 0, 1, 0, 0, 2, 3, 0, 1, 0 };
	uint16_t file[11] = { 50, 5, 2, 0, 0, 0, 2, 3, 0, 0, 0 };
	uint16_t job[11] = { 64, 32, 0, 0, 0, 1, 0, 0, 0, 0, 0 };
	uint16_t k1[11] = { 200, 100, 0, 5, 0, 0, 0, 0, 0, 0, 0 };
	uint16_t k2[11] = { 300, 150, 0, 5, 0, 0, 0, 0, 0, 0, 0 };
	uint16_t k3[11] = { 10, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	unsigned char oom[48] = { 0 };
	uint32_t v[] = { 1048576, 524288, 1024, 0, 2048, 1000 };
	int16_t adj = -17;
	unsigned int k;
	uint64_t t;

	/* memhog: scanned 150 + k, reclaimed 15, dirty k + 2, ... per pass. */
	for (k = 0; k <= 10; k++) {
		t = AN_NS(k * 10, 0);
		sb_compact(c0, AN_BEGIN, t, 2 | 0xcc0 << 4);
		if (!k)
			sb_compact(c0, AN_WAKE, t + 500000, 0);
		anon[0] = 100 + k;
		anon[2] = k;
		an_shrink(c0, t + 1000000, 0, 12 - k, anon);
		an_shrink(c0, t + 2000000, 1, 12 - k, file);
		sb_compact(c0, AN_END, t + 3000000, 15);
	}
	memcpy(oom, (uint32_t[]){ 3000 }, 4);
	memcpy(oom + 4, "chrome", 6);
	memcpy(oom + 20, v, sizeof(v));
	memcpy(oom + 44, &adj, 2);
	sb_expanded(c0, VM_MAJOR, 6, AN_NS(120, 0), oom, sizeof(oom));
	for (k = 0; k < 25; k++) {
		t = AN_NS(1 + k * 4, 0);
		sb_compact(c1, AN_BEGIN, t, 0xcc0 << 4);
		an_shrink(c1, t + 1000000, 1, 12 - k / 3, job);
		sb_compact(c1, AN_END, t + 2000000, 32);
	}
	an_shrink(c2, AN_NS(2, 0), 1, 12, k1);
	an_shrink(c2, AN_NS(4, 0), 1, 11, k2);
	sb_compact(c2, AN_SLEEP, AN_NS(6, 0), 0);
	an_shrink(c2, AN_NS(50, 0), 1, 10, k3);
	/* Outside direct reclaim, not kswapd: priority 12 again, a new pass. */
	an_shrink(c3, AN_NS(30, 0), 1, 12, k3);
	an_shrink(c3, AN_NS(31, 0), 0, 11, k3);
	an_shrink(c3, AN_NS(40, 0), 1, 12, k3);
	an_shrink(c3, AN_NS(41, 0), 0, 10, k3);
	/*
	 * $MKTRACE_RECLAIM=bgdirect: cgtask then enters direct reclaim,
	 * which ends its background pass; =nobegin: the trace began inside
	 * cgtask's direct reclaim, whose end alone shows it direct.
	 */
	if (getenv("MKTRACE_RECLAIM") && !strcmp(getenv("MKTRACE_RECLAIM"), "bgdirect")) {
		sb_compact(c3, AN_BEGIN, AN_NS(60, 0), 0xcc0 << 4);
		an_shrink(c3, AN_NS(61, 0), 1, 12, k3);
		sb_compact(c3, AN_END, AN_NS(62, 0), 10);
	}
	if (getenv("MKTRACE_RECLAIM") && !strcmp(getenv("MKTRACE_RECLAIM"), "nobegin"))
		sb_compact(c3, AN_END, AN_NS(45, 0), 10);
}

/*
 * $MKTRACE_IO=dd: a second "my writer" (pid 4000, CPU 3) queues 5 writes
 * of 4 KiB from 5.3 s, 10 ms apart, each issued 20 us later and completed
 * 1 ms after its issue, on CPU 3.
 */
static void an_dd(struct sb *c3)
{
	struct ktrace_blk_desc d = { .dev = 8 << 20, .nr_sector = 8, .op = KTRACE_BLK_OP_WRITE };
	unsigned int i;
	uint64_t t;

	for (i = 0; i < 5; i++) {
		t = AN_NS(300 + i * 10, 0);
		d.sector = 2000000 + i * 8;
		sb_expanded(c3, BLK_MAJOR, 1, t, &d, sizeof(d));
		sb_compact(c3, AN_INSERT, t + 5000, ktrace_blk_key(&d));
		sb_compact(c3, AN_ISSUE, t + 20000, ktrace_blk_key(&d));
		sb_compact(c3, AN_COMPLETE, t + 1020000, ktrace_blk_key(&d));
	}
}

static int analyze_trace(bool io)
{
	static const char *const reasons[] = {
		"dirty", "writeback", "congested", "immediate", "activated", "referenced",
		"unmap_fail", "locked", "lazyfree_fail",
	};
	static const char *const tasks[] = {
		"100 my writer\n200 flooder\n300 kworker/2:1\n",
		"50 kswapd0\n1000 memhog\n2000 my job\n3000 chrome\n4000 cgtask\n",
	};
	struct ktf_header h = { KTF_MAGIC, KTF_VERSION, 0 };
	struct ktrace_meta_trace mt = {
		.magic = KTRACE_MAGIC, .version = KTRACE_FORMAT_VERSION,
		.byte_order = KTRACE_LITTLE_ENDIAN, .nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = 4,
	};
	struct ktrace_meta_clock mc = {
		.freq_hz = 1000000000ULL, .ref_clock = 1000, .ref_mono_ns = 5000000000ULL,
		.ref_real_ns = 1700000000123456789ULL, .name = "tsc",
	};
	struct ktrace_meta_enum lru[] = { META_ENUM(0, "anon"), META_ENUM(1, "file") };
	struct sb c0, c1, c2, c3, med;
	const char *host = getenv("MKTRACE_HOST");
	bool dd = io && getenv("MKTRACE_IO") && !strcmp(getenv("MKTRACE_IO"), "dd");
	const char *names = dd ? "100 my writer\n200 flooder\n300 kworker/2:1\n4000 my writer\n" :
				 tasks[!io];
	unsigned char trig[24] = "user";
	unsigned int i;

	if (host)
		snprintf(mt.nodename, sizeof(mt.nodename), "%s", host);
	low.buf = malloc(SB_LOW);
	meta_max = ~0U;
	fwrite(&h, sizeof(h), 1, trace);
	sb_begin(&low, 0, 0, 1000);
	meta(KTRACE_META_TRACE, &mt, sizeof(mt));
	meta(KTRACE_META_CLOCK, &mc, sizeof(mc));
	if (io) {
		meta_blk_desc(BLK_MAJOR, 1, "block", "bio_queue");
		meta_blk_desc(BLK_MAJOR, 3, "block", "rq_describe");
		meta_rq(AN_INSERT, "rq_insert", false);
		meta_rq(AN_ISSUE, "rq_issue", false);
		meta_rq(AN_COMPLETE, "rq_complete", true);
	} else {
		meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, AN_BEGIN, 0, 0, 2, 0, "vm",
			   "direct_reclaim_begin");
		meta_field("order", 0, 4, KTRACE_DISPLAY_DEC, 0, 0);
		meta_field("gfp_flags", 4, 28, KTRACE_DISPLAY_HEX, 0, 0);
		meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, AN_END, 0, 0, 1, 0, "vm",
			   "direct_reclaim_end");
		meta_field("nr_reclaimed", 0, 32, KTRACE_DISPLAY_DEC, 0, 0);
		meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, AN_WAKE, 0, 0, 1, 0, "vm",
			   "kswapd_wake");
		meta_field("nid", 0, 10, KTRACE_DISPLAY_DEC, 0, 0);
		meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, AN_SLEEP, 0, 0, 1, 0, "vm",
			   "kswapd_sleep");
		meta_field("nid", 0, 10, KTRACE_DISPLAY_DEC, 0, 0);
		meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, VM_MAJOR,
			   5, 14, 0, "vm", "shrink_inactive");
		meta_field("nid", 0, 2, KTRACE_DISPLAY_DEC, 0, 0);
		meta_field("priority", 2, 1, KTRACE_DISPLAY_DEC, 0, 0);
		meta_field("lru", 3, 1, KTRACE_DISPLAY_ENUM, 0, 2);
		for (i = 0; i < 2; i++)
			meta(KTRACE_META_ENUM, &lru[i], sizeof(lru[i]));
		meta_field("scanned", 4, 2, KTRACE_DISPLAY_DEC, KTRACE_FIELD_SATURATES, 0);
		meta_field("reclaimed", 6, 2, KTRACE_DISPLAY_DEC, KTRACE_FIELD_SATURATES, 0);
		for (i = 0; i < ARRAY_SIZE(reasons); i++)
			meta_field(reasons[i], 8 + 2 * i, 2, KTRACE_DISPLAY_DEC,
				   KTRACE_FIELD_SATURATES, 0);
		meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, VM_MAJOR,
			   6, 9, 0, "vm", "oom_kill");
		meta_field("pid", 0, 4, KTRACE_DISPLAY_DEC, 0, 0);
		meta_field("comm", 4, 16, KTRACE_DISPLAY_STRING, 0, 0);
		meta_field("total_vm_kb", 20, 4, KTRACE_DISPLAY_DEC, 0, 0);
		meta_field("anon_rss_kb", 24, 4, KTRACE_DISPLAY_DEC, 0, 0);
		meta_field("file_rss_kb", 28, 4, KTRACE_DISPLAY_DEC, 0, 0);
		meta_field("shmem_rss_kb", 32, 4, KTRACE_DISPLAY_DEC, 0, 0);
		meta_field("pgtables_kb", 36, 4, KTRACE_DISPLAY_DEC, 0, 0);
		meta_field("uid", 40, 4, KTRACE_DISPLAY_DEC, 0, 0);
		meta_field("oom_score_adj", 44, 2, KTRACE_DISPLAY_DEC, KTRACE_FIELD_SIGNED, 0);
	}
	meta_event(KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 1, 1, 2, 0,
		   "ktrace", "trigger");
	meta_field("trigger", 0, 16, KTRACE_DISPLAY_STRING, 0, 0);
	meta_field("reason", 16, 0, KTRACE_DISPLAY_STRING, 0, 0);
	sb_end(&low, 0);
	sb_flush(&low);

	an_begin(&med, KTRACE_CHANNEL_MEDIUM, 0, 0, 1000);
	memcpy(trig + 16, "slow", 4);
	/* $MKTRACE_NOTRIGGER: none, for io -r. */
	if (!getenv("MKTRACE_NOTRIGGER"))
		sb_expanded(&med, 1, 1, AN_NS(130, 0), trig, sizeof(trig));
	an_end(&med);
	an_begin(&c0, KTRACE_CHANNEL_HIGH, 0, io ? 100 : 1000, 1000);
	an_begin(&c1, KTRACE_CHANNEL_HIGH, 1, io ? 200 : 2000, 1000);
	an_begin(&c2, KTRACE_CHANNEL_HIGH, 2, io ? 300 : 50, 1000);
	an_begin(&c3, KTRACE_CHANNEL_HIGH, 3, 4000, 1000);
	if (io)
		an_io(&c0, &c1, &c2);
	else
		an_reclaim(&c0, &c1, &c2, &c3);
	if (dd)
		an_dd(&c3);
	an_end(&c0);
	an_end(&c1);
	an_end(&c2);
	an_end(&c3);
	section(KTF_TASKS, 0, 0, names, strlen(names));
	fclose(trace);
	fclose(expect);
	return 0;
}

/*
 * ktrace convert --ctf (t-ctf.sh): mktrace TRACE EXPECTED ctf, the field
 * kinds the other traces leave out: names that are TSDL keywords, a
 * signed hexadecimal field, an enum field without names, one with a name
 * its width cannot hold, a saturating unsigned field, a field beyond the
 * end of a short record ("?"), then within a longer one, and an event
 * without fields.
 */
static int ctf_trace(void)
{
	struct ktf_header h = { KTF_MAGIC, KTF_VERSION, 0 };
	struct ktrace_meta_trace t = {
		.magic = KTRACE_MAGIC, .version = KTRACE_FORMAT_VERSION,
		.byte_order = KTRACE_LITTLE_ENDIAN, .nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = 1, .nr_records = 13,
	};
	struct ktrace_meta_clock c = TEST_CLOCK;
	struct ktrace_meta_enum zero = META_ENUM(0, "zero"), wide = META_ENUM(300, "wide");
	struct sb med = { .ch = KTRACE_CHANNEL_MEDIUM, .cpu = 0, .size = SB_MEDIUM };
	struct sb high = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 0, .size = SB_HIGH };
	unsigned char ex[16] = { 7, 0, 0, 0, 0x2a };

	low.buf = malloc(SB_LOW);
	med.buf = malloc(SB_MEDIUM);
	high.buf = malloc(SB_HIGH);
	meta_max = ~0U;
	fwrite(&h, sizeof(h), 1, trace);
	sb_begin(&low, 0, 1, 1000);
	meta(KTRACE_META_TRACE, &t, sizeof(t));
	meta(KTRACE_META_CLOCK, &c, sizeof(c));
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, 5, 0, 0, 3, 0, "edge", "compact");
	meta_field("align", 0, 4, KTRACE_DISPLAY_HEX, KTRACE_FIELD_SIGNED, 0);
	meta_field("enum", 4, 4, KTRACE_DISPLAY_ENUM, 0, 0);
	meta_field("string", 8, 8, KTRACE_DISPLAY_DEC, KTRACE_FIELD_SATURATES, 0);
	meta_event(KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 7, 9, 4, 0,
		   "edge", "expanded");
	meta_field("x", 0, 4, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("y", 4, 4, KTRACE_DISPLAY_HEX, 0, 0);
	meta_field("event", 8, 8, KTRACE_DISPLAY_DEC, KTRACE_FIELD_SIGNED, 0);
	meta_field("e", 0, 1, KTRACE_DISPLAY_ENUM, 0, 2);
	meta(KTRACE_META_ENUM, &zero, sizeof(zero));
	meta(KTRACE_META_ENUM, &wide, sizeof(wide));
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, 6, 0, 0, 0, 0, "edge", "none");
	sb_end(&low, 0);
	sb_flush(&low);
	sb_begin(&high, 0, 0, 1000);
	sb_compact(&high, 5, 1010, 0xff3f);
	line(1010, 0, "<idle>-0", "edge:compact align=0xffffffffffffffff enum=3 string=>=255");
	sb_compact(&high, 5, 1020, 0x0501);
	line(1020, 0, "<idle>-0", "edge:compact align=0x1 enum=0 string=5");
	sb_compact(&high, 6, 1030, 0);
	line(1030, 0, "<idle>-0", "edge:none");
	sb_end(&high, 0);
	sb_flush(&high);
	sb_begin(&med, 0, 0, 1000);
	sb_expanded(&med, 7, 9, 1015, ex, 8);
	line(1015, 0, "<idle>-0", "edge:expanded x=7 y=0x2a event=? e=7");
	memset(ex, 0, sizeof(ex));
	memset(ex + 8, 0xff, 8);
	ex[8] = 0xfd;
	sb_expanded(&med, 7, 9, 1025, ex, 16);
	line(1025, 0, "<idle>-0", "edge:expanded x=0 y=0x0 event=-3 e=zero");
	sb_end(&med, 0);
	sb_flush(&med);
	fclose(trace);
	fclose(expect);
	return 0;
}

/*
 * mktrace TRACE EXPECTED hostile (t-ctf.sh): names a converter must
 * escape (quotes, backslashes, '-', empty, "Bool" which is a TSDL keyword
 * once prefixed) and a signed enum; $MKTRACE_PID the running task;
 * $MKTRACE_BACK=CLOCK a second subbuffer starting back at CLOCK, as only
 * a damaged file has one.
 */
static int hostile_trace(void)
{
	struct ktf_header h = { KTF_MAGIC, KTF_VERSION, 0 };
	struct ktrace_meta_trace t = {
		.magic = KTRACE_MAGIC, .version = KTRACE_FORMAT_VERSION,
		.byte_order = KTRACE_LITTLE_ENDIAN, .nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = 1, .nr_records = 9,
	};
	struct ktrace_meta_clock c = TEST_CLOCK;
	const char *back = getenv("MKTRACE_BACK"), *pid = getenv("MKTRACE_PID");
	struct ktrace_meta_enum neg1 = { .value_lo = ~0U, .value_hi = ~0U, .name = "minus1" };
	struct ktrace_meta_enum big1 = META_ENUM(5, "");
	struct sb high = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 0, .size = SB_HIGH };

	low.buf = malloc(SB_LOW);
	high.buf = malloc(SB_HIGH);
	meta_max = ~0U;
	fwrite(&h, sizeof(h), 1, trace);
	sb_begin(&low, 0, 1, 1000);
	meta(KTRACE_META_TRACE, &t, sizeof(t));
	meta(KTRACE_META_CLOCK, &c, sizeof(c));
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, 5, 0, 0, 5, 0, "g\\\"x", "n\\a\"m");
	meta_field("a-b", 0, 4, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("a_b", 4, 4, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("Bool", 8, 4, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("a-b", 12, 4, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("se", 24, 8, KTRACE_DISPLAY_ENUM, KTRACE_FIELD_SIGNED, 2);
	meta(KTRACE_META_ENUM, &neg1, sizeof(neg1));
	meta(KTRACE_META_ENUM, &big1, sizeof(big1));
	sb_end(&low, 0);
	sb_flush(&low);
	sb_begin(&high, 0, pid ? atoi(pid) : 0, 1000);
	sb_compact(&high, 5, 2000, 0xff030201);
	sb_compact(&high, 5, 1500, 0x7f030201);
	sb_compact(&high, 5, 2500, 0x80030201);
	sb_end(&high, 0);
	sb_flush(&high);
	if (back) {
		sb_begin(&high, 1, 0, strtoull(back, NULL, 0));
		sb_compact(&high, 5, strtoull(back, NULL, 0) + 10, 0x01030201);
		sb_end(&high, 0);
		sb_flush(&high);
	}
	fclose(trace);
	fclose(expect);
	return 0;
}

/*
 * mktrace TRACE EXPECTED attrib (t-attrib.sh): the running task across
 * channels.  A switch on the high-rate channel changes the task the
 * medium-rate channel's events after it belong to; a subbuffer header
 * names the task running when it began, and is believed if nothing said
 * otherwise since: so a channel that lost its switches (CPU 1's high
 * channel lost subbuffer 1) picks the task up again from its next
 * subbuffer or from the other channel's.  Also syscalls:exit with the
 * kernel's signed 10-bit nr: -1 exact, the bounds saturated.
 */
static void attrib_comm_shown(struct sb *s, uint64_t clock, unsigned int cpu,
			      const char *task, uint32_t pid, const char *comm,
			      const char *shown)
{
	unsigned char ex[20] = { 0 };
	char text[64];

	memcpy(ex, &pid, 4);
	memcpy(ex + 4, comm, strlen(comm));
	sb_expanded(s, 7, 1, clock, ex, 4 + strlen(comm));
	snprintf(text, sizeof(text), "sched:comm pid=%u comm=\"%s\"", pid, shown);
	line(clock, cpu, task, text);
}

static void attrib_comm(struct sb *s, uint64_t clock, unsigned int cpu, const char *task,
			uint32_t pid, const char *comm)
{
	attrib_comm_shown(s, clock, cpu, task, pid, comm, comm);
}

static void attrib_switch(struct sb *s, uint64_t clock, unsigned int cpu, const char *task,
			  uint32_t pid)
{
	char text[64];

	sb_compact(s, 4, clock, pid);
	snprintf(text, sizeof(text), "sched:switch next_pid=%u", pid);
	line(clock, cpu, task, text);
}

static void attrib_exit(struct sb *s, uint64_t clock, unsigned int cpu, const char *task,
			int nr, int ret, const char *text)
{
	sb_compact(s, 5, clock, ((uint32_t)nr & 0x3ff) | (uint32_t)ret << 10);
	line(clock, cpu, task, text);
}

static int attrib_trace(void)
{
	struct ktf_header h = { KTF_MAGIC, KTF_VERSION, 0 };
	struct ktrace_meta_trace t = {
		.magic = KTRACE_MAGIC, .version = KTRACE_FORMAT_VERSION,
		.byte_order = KTRACE_LITTLE_ENDIAN, .nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = 2, .nr_records = 9,
	};
	struct ktrace_meta_clock c = TEST_CLOCK;
	struct sb h0 = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 0, .size = SB_HIGH };
	struct sb m0 = { .ch = KTRACE_CHANNEL_MEDIUM, .cpu = 0, .size = SB_MEDIUM };
	struct sb h1 = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 1, .size = SB_HIGH };
	struct sb m1 = { .ch = KTRACE_CHANNEL_MEDIUM, .cpu = 1, .size = SB_MEDIUM };
	static const char tasks[] = "10 ten\n20 twenty\n30 thirty\n40 forty\n41 fortyone\n"
				    "43 fortythree\n44 fortyfour\n";

	low.buf = malloc(SB_LOW);
	h0.buf = malloc(SB_HIGH);
	m0.buf = malloc(SB_MEDIUM);
	h1.buf = malloc(SB_HIGH);
	m1.buf = malloc(SB_MEDIUM);
	meta_max = ~0U;
	fwrite(&h, sizeof(h), 1, trace);
	sb_begin(&low, 0, 1, 1000);
	meta(KTRACE_META_TRACE, &t, sizeof(t));
	meta(KTRACE_META_CLOCK, &c, sizeof(c));
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, 4, 0, 0, 1,
		   KTRACE_EVENT_PID_IS_CURRENT, "sched", "switch");
	meta_field("next_pid", 0, 22, KTRACE_DISPLAY_PID, 0, 0);
	/* As the kernel's probe: a signed, saturating 10-bit nr. */
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, 5, 0, 0, 2, 0, "syscalls", "exit");
	meta_field("nr", 0, 10, KTRACE_DISPLAY_DEC,
		   KTRACE_FIELD_SIGNED | KTRACE_FIELD_SATURATES, 0);
	meta_field("ret", 10, 22, KTRACE_DISPLAY_DEC,
		   KTRACE_FIELD_SIGNED | KTRACE_FIELD_SATURATES, 0);
	/* Not pid-is-current: its pid is the task renamed. */
	meta_event(KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 7, 1, 2, 0,
		   "sched", "comm");
	meta_field("pid", 0, 4, KTRACE_DISPLAY_PID, 0, 0);
	meta_field("comm", 4, 0, KTRACE_DISPLAY_STRING, 0, 0);
	sb_end(&low, 0);
	sb_flush(&low);

	/* CPU 0: 10 runs, then 20, then 30; the medium channel follows. */
	sb_begin(&h0, 0, 10, 1000);
	sb_begin(&m0, 0, 10, 1050);
	attrib_exit(&h0, 1010, 0, "ten-10", 0, 5, "syscalls:exit nr=0 ret=5");
	attrib_comm(&m0, 1050, 0, "ten-10", 10, "ten");
	attrib_switch(&h0, 1100, 0, "twenty-20", 20);
	attrib_comm(&m0, 1150, 0, "twenty-20", 20, "twenty");
	attrib_exit(&h0, 1200, 0, "twenty-20", -1, 0, "syscalls:exit nr=-1 ret=0");
	attrib_exit(&h0, 1210, 0, "twenty-20", 511, -2, "syscalls:exit nr=>=511 ret=-2");
	attrib_exit(&h0, 1220, 0, "twenty-20", -512, 0, "syscalls:exit nr=<=-512 ret=0");
	attrib_exit(&h0, 1230, 0, "twenty-20", 462, 0, "syscalls:exit nr=462 ret=0");
	sb_end(&m0, 0);
	/* A medium subbuffer begun while 20 ran: still 20, then 30. */
	sb_begin(&m0, 1, 20, 1300);
	attrib_comm(&m0, 1300, 0, "twenty-20", 20, "twenty");
	attrib_switch(&h0, 1400, 0, "thirty-30", 30);
	attrib_comm(&m0, 1450, 0, "thirty-30", 30, "thirty");
	sb_end(&h0, 0);
	sb_begin(&h0, 1, 30, 1500);
	attrib_exit(&h0, 1550, 0, "thirty-30", 1, 0, "syscalls:exit nr=1 ret=0");
	sb_end(&h0, 0);
	sb_end(&m0, 0);
	sb_flush(&h0);
	sb_flush(&m0);

	/*
	 * CPU 1: 40, then 41; the high channel's subbuffer 1 (switches to
	 * 42, 43) is lost; its subbuffer 2 begins with 43 running; then a
	 * medium subbuffer begins with 44 running, and the high channel's
	 * next event, with no switch left to tell, is 44's.
	 */
	sb_begin(&h1, 0, 40, 2000);
	sb_begin(&m1, 0, 40, 2050);
	attrib_exit(&h1, 2010, 1, "forty-40", 3, 0, "syscalls:exit nr=3 ret=0");
	attrib_comm(&m1, 2050, 1, "forty-40", 40, "forty");
	attrib_switch(&h1, 2100, 1, "fortyone-41", 41);
	attrib_comm(&m1, 2200, 1, "fortyone-41", 41, "fortyone");
	sb_end(&h1, 0);
	sb_begin(&h1, 2, 43, 2500);
	attrib_exit(&h1, 2500, 1, "fortythree-43", 4, 0, "syscalls:exit nr=4 ret=0");
	sb_end(&m1, 0);
	sb_begin(&m1, 1, 44, 2600);
	attrib_comm(&m1, 2600, 1, "fortyfour-44", 44, "fortyfour");
	attrib_exit(&h1, 2700, 1, "fortyfour-44", 5, 0, "syscalls:exit nr=5 ret=0");
	/* A name written to /proc/44/comm, newline included: one word. */
	attrib_comm_shown(&m1, 2800, 1, "tab?nl?-44", 44, "tab\tnl\n", "tab\\tnl\\n");
	sb_end(&h1, 0);
	sb_end(&m1, 0);
	sb_flush(&h1);
	sb_flush(&m1);
	section(KTF_TASKS, 0, 0, tasks, strlen(tasks));
	fclose(trace);
	fclose(expect);
	return 0;
}

/* The metadata of the default trace, as the kernel writes it at a start. */
static void default_meta(const struct ktrace_meta_clock *mc)
{
	struct ktrace_meta_trace mt = {
		.magic = KTRACE_MAGIC, .version = KTRACE_FORMAT_VERSION,
		.byte_order = KTRACE_LITTLE_ENDIAN, .nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = 2, .nr_records = META_RECORDS,
	};
	struct ktrace_meta_enum en = META_ENUM(2, "two");
	const char *host = getenv("MKTRACE_HOST");

	mt.version = fmt_version;
	sb_begin(&low, 0, 1, 1000);
	memcpy(mt.release, "6.99.0-synthetic", 16);
	memcpy(mt.machine, "x86_64", 6);
	/* $MKTRACE_HOST: the machine's nodename (merged traces, t-merge.sh). */
	if (host)
		snprintf(mt.nodename, sizeof(mt.nodename), "%s", host);
	meta(KTRACE_META_TRACE, &mt, sizeof(mt));
	meta(KTRACE_META_CLOCK, mc, sizeof(*mc));
	/* foo:bits, compact on high: a 12-bit hex, a signed 4-bit, an enum. */
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, 3, 0, 0, 3, 0, "foo", "bits");
	meta_field("h", 0, 12, KTRACE_DISPLAY_HEX, 0, 0);
	meta_field("s", 12, 4, KTRACE_DISPLAY_DEC, KTRACE_FIELD_SIGNED, 0);
	meta_field("e", 16, 16, KTRACE_DISPLAY_ENUM, 0, 1);
	meta(KTRACE_META_ENUM, &en, sizeof(en));
	/* foo:switch, compact on high, pid is current: the next task. */
	meta_event(KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, 4, 0, 0, 1,
		   KTRACE_EVENT_PID_IS_CURRENT, "foo", "switch");
	meta_field("next", 0, 32, KTRACE_DISPLAY_PID, 0, 0);
	/* bar:io, expanded on medium: dev, signed int, u64, string. */
	meta_event(KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 7, 2, 4, 0,
		   "bar", "io");
	meta_field("dev", 0, 4, KTRACE_DISPLAY_DEV, 0, 0);
	meta_field("ret", 4, 4, KTRACE_DISPLAY_DEC, KTRACE_FIELD_SIGNED, 0);
	meta_field("sector", 8, 8, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("name", 16, 0, KTRACE_DISPLAY_STRING, 0, 0);
	/* bar:big: the last 4 bytes of a 65535-byte payload. */
	meta_event(KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 7, 3, 1, 0,
		   "bar", "big");
	meta_field("tail", 65531, 4, KTRACE_DISPLAY_DEC, 0, 0);
	/* bar:name, expanded on medium: names a pid, as fork or exec do. */
	meta_event(KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 7, 4, 2, 0,
		   "bar", "name");
	meta_field("pid", 0, 4, KTRACE_DISPLAY_DEC, 0, 0);
	meta_field("comm", 4, 16, KTRACE_DISPLAY_STRING, 0, 0);
	/* ktrace:trigger, the record of a trigger that fired (report -r). */
	meta_event(KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 1, 1, 2, 0,
		   "ktrace", "trigger");
	meta_field("trigger", 0, 16, KTRACE_DISPLAY_STRING, 0, 0);
	meta_field("reason", 16, 0, KTRACE_DISPLAY_STRING, 0, 0);
	sb_end(&low, 0);
	sb_flush(&low);
}

/* The default trace's high channel. */
static void default_high(void)
{
	struct sb high = { .ch = KTRACE_CHANNEL_HIGH, .cpu = 1, .size = SB_HIGH };
	char text[256];
	uint64_t clock;
	unsigned int i;

	high.buf = malloc(SB_HIGH);
	/*
	 * High channel, CPU 1: foo:bits across four 27-bit rollovers, a
	 * switch to pid 42, then subbuffers 2 and 3 lost (overwritten).
	 */
	clock = 1000;
	sb_begin(&high, 0, 7, clock);
	for (i = 0; i < 8; i++) {
		clock += (1ULL << 26) + 5 * 3;
		sb_compact(&high, 3, clock, 0x0002f123 + i);
		snprintf(text, sizeof(text), "foo:bits h=0x%x s=-1 e=two", 0x123 + i);
		line(clock, 1, "init-7", text);
	}
	clock += 5;
	sb_compact(&high, 4, clock, 42);
	line(clock, 1, "learned-42", "foo:switch next=42");
	sb_end(&high, 0);
	clock += 5;
	sb_begin(&high, 1, 42, clock);
	sb_compact(&high, 3, clock, 0x00010005);
	line(clock, 1, "learned-42", "foo:bits h=0x5 s=0 e=1");
	/* No metadata for id 9: unknown, still decoded. */
	clock += 10;
	sb_compact(&high, 9, clock, 0x2a);
	line(clock, 1, "learned-42", "unknown:high id=9 payload=0x2a");
	sb_end(&high, 0);
	clock += 10;
	sb_begin(&high, 4, 99, clock);
	sb_compact(&high, 3, clock, 0);
	line(clock, 1, "saved-99", "foo:bits h=0x0 s=0 e=0");
	sb_end(&high, 300);
	sb_flush(&high);
}

/* The default trace's medium channel, its trigger record if @with_trigger. */
static void default_medium(bool with_trigger)
{
	struct sb med = { .ch = KTRACE_CHANNEL_MEDIUM, .cpu = 0, .size = SB_MEDIUM };
	static unsigned char big[65535];
	unsigned char ex[32];
	const char *name;
	unsigned int i;
	int32_t neg = -5;

	med.buf = malloc(SB_MEDIUM);
	/* Medium channel, CPU 0: bar:io, bar:big at maximum length, unknown. */
	sb_begin(&med, 0, 0, 1005);
	memset(ex, 0, sizeof(ex));
	i = 8 << 20 | 3;
	memcpy(ex, &i, 4);
	memcpy(ex + 4, &neg, 4);
	memcpy(ex + 8, &(uint64_t){ 123456789012ULL }, 8);
	/* Quote, newline, control byte, a byte not UTF-8, backslash, UTF-8. */
	memcpy(ex + 16, "a\"b\n\x01\xff\\\xc3\xa9", 9);
	sb_expanded(&med, 7, 2, 1005, ex, 28);
	line(1005, 0, "<idle>-0",
	     "bar:io dev=8:3 ret=-5 sector=123456789012 name=\"a\\\"b\\n\\x01\\xff\\\\\\xc3\\xa9\"");
	memset(big, 'x', sizeof(big));
	memcpy(big + 65531, &(uint32_t){ 4000000000U }, 4);
	sb_expanded(&med, 7, 3, 1010, big, sizeof(big));
	line(1010, 0, "<idle>-0", "bar:big tail=4000000000");
	sb_expanded(&med, 9, 1, 1015, "abcd", 4);
	line(1015, 0, "<idle>-0", "unknown:medium major=9 minor=1 length=4");
	/* Names pid 42 before its events on the high channel (tasks: worker). */
	memset(ex, 0, sizeof(ex));
	ex[0] = 42;
	/* $MKTRACE_NAME (t-slice.sh): another name, not in EXPECTED. */
	name = getenv("MKTRACE_NAME") ? getenv("MKTRACE_NAME") : "learned";
	memcpy(ex + 4, name, strnlen(name, 16));
	sb_expanded(&med, 7, 4, 1020, ex, 20);
	line(1020, 0, "<idle>-0", "bar:name pid=42 comm=\"learned\"");
	if (with_trigger) {
		memset(ex, 0, sizeof(ex));
		memcpy(ex, "user", 4);
		memcpy(ex + 16, "slow", 4);
		sb_expanded(&med, 1, 1, 1025, ex, 24);
		line(1025, 0, "<idle>-0", "ktrace:trigger trigger=\"user\" reason=\"slow\"");
	}
	sb_end(&med, 0);
	sb_flush(&med);
}

int main(int argc, char **argv)
{
	struct ktf_header h = { KTF_MAGIC, KTF_VERSION, 0 };
	/* CLOCK_REALTIME 1700000000.123456789 at CLOCK_MONOTONIC 5 s. */
	struct ktrace_meta_clock mc = {
		.freq_hz = 2500000000ULL, .shift = 7, .ref_clock = 1000,
		.ref_mono_ns = 5000000000ULL, .ref_real_ns = 1700000000123456789ULL, .name = "tsc",
	};
	bool with_trigger = true;

	/* $MKTRACE_DIR: "dir DIR" for the other traces (t-crash.sh: symbols). */
	stream_dir = getenv("MKTRACE_DIR");
	if (stream_dir)
		mkdir(stream_dir, 0755);
	if (argc >= 4 && (!strcmp(argv[3], "symbols") || !strcmp(argv[3], "badsymbols") ||
			  !strcmp(argv[3], "undecoded") || !strcmp(argv[3], "timers") ||
			  !strcmp(argv[3], "longstr") || !strcmp(argv[3], "blockkeys") ||
			  !strcmp(argv[3], "futurever") || !strcmp(argv[3], "futuremeta"))) {
		trace = fopen(argv[1], "w");
		expect = fopen(argv[2], "w");
		if (!trace || !expect) {
			perror("mktrace");
			return 1;
		}
		if (!strcmp(argv[3], "undecoded"))
			return undecoded_trace();
		if (!strcmp(argv[3], "timers"))
			return symbols_trace(false, argv + 4, argc - 4);
		if (!strcmp(argv[3], "longstr"))
			return longstr_trace();
		if (!strcmp(argv[3], "blockkeys"))
			return blockkeys_trace();
		if (!strcmp(argv[3], "futurever"))
			return future_trace(true);
		if (!strcmp(argv[3], "futuremeta"))
			return future_trace(false);
		return symbols_trace(!strcmp(argv[3], "badsymbols"), NULL, 0);
	} else if ((argc == 4 || argc == 5) && !strcmp(argv[3], "latency")) {
		trace = fopen(argv[1], "w");
		expect = fopen(argv[2], "w");
		if (!trace || !expect) {
			perror("mktrace");
			return 1;
		}
		return latency_trace(argc == 5 ? argv[4] : NULL);
	} else if (argc == 4 && (!strcmp(argv[3], "io") || !strcmp(argv[3], "reclaim"))) {
		trace = fopen(argv[1], "w");
		expect = fopen(argv[2], "w");
		if (!trace || !expect) {
			perror("mktrace");
			return 1;
		}
		return analyze_trace(!strcmp(argv[3], "io"));
	} else if (argc == 4 && !strcmp(argv[3], "profile")) {
		trace = fopen(argv[1], "w");
		expect = fopen(argv[2], "w");
		if (!trace || !expect) {
			perror("mktrace");
			return 1;
		}
		return profile_trace();
	} else if (argc == 4 && !strcmp(argv[3], "ctf")) {
		trace = fopen(argv[1], "w");
		expect = fopen(argv[2], "w");
		if (!trace || !expect) {
			perror("mktrace");
			return 1;
		}
		return ctf_trace();
	} else if (argc == 4 && !strcmp(argv[3], "attrib")) {
		trace = fopen(argv[1], "w");
		expect = fopen(argv[2], "w");
		if (!trace || !expect) {
			perror("mktrace");
			return 1;
		}
		return attrib_trace();
	} else if (argc == 9 && !strcmp(argv[3], "cluster")) {
		trace = fopen(argv[1], "w");
		expect = fopen(argv[2], "w");
		if (!trace || !expect) {
			perror("mktrace");
			return 1;
		}
		return cluster_trace(argv[4], strtoul(argv[5], NULL, 0),
				     strtoll(argv[6], NULL, 0), strtoll(argv[7], NULL, 0), argv[8]);
	} else if (argc == 4 && !strcmp(argv[3], "nodata")) {
		trace = fopen(argv[1], "w");
		expect = fopen(argv[2], "w");
		if (!trace || !expect)
			return 1;
		return nodata_trace();
	} else if (argc == 4 && !strcmp(argv[3], "hostile")) {
		trace = fopen(argv[1], "w");
		expect = fopen(argv[2], "w");
		return hostile_trace();
	} else if (argc == 4 && !strcmp(argv[3], "badmeta")) {
		trace = fopen(argv[1], "w");
		expect = fopen(argv[2], "w");
		if (!trace || !expect) {
			perror("mktrace");
			return 1;
		}
		return badmeta_trace();
	} else if (argc == 6 && !strcmp(argv[3], "manykeys")) {
		trace = fopen(argv[1], "w");
		expect = fopen(argv[2], "w");
		if (!trace || !expect) {
			perror("mktrace");
			return 1;
		}
		return manykeys_trace(strtoul(argv[4], NULL, 0), !strcmp(argv[5], "ended"));
	} else if (argc == 6 && !strcmp(argv[3], "clock")) {
		mc.ref_mono_ns = strtoull(argv[4], NULL, 0);
		mc.ref_real_ns = strtoull(argv[5], NULL, 0);
	} else if (argc == 4 && !strcmp(argv[3], "v1")) {
		/* The same trace in format version 1, which it fits. */
		fmt_version = 1;
	} else if (argc == 4 && !strcmp(argv[3], "notrigger")) {
		with_trigger = false;
	} else if (argc == 4 && !strcmp(argv[3], "norealtime")) {
		/* A clock record without its CLOCK_REALTIME reference. */
		mc.ref_real_ns = 0;
	} else if (argc == 4 && !strcmp(argv[3], "incomplete")) {
		/* ktrace:trigger's three metadata records are missing. */
		meta_max = META_RECORDS - 3;
	} else if (argc == 5 && !strcmp(argv[3], "dir")) {
		stream_dir = argv[4];
		mkdir(stream_dir, 0755);
	} else if (argc != 3) {
		fprintf(stderr,
			"usage: mktrace TRACE EXPECTED [notrigger|incomplete|norealtime|symbols|longstr|\n"
			"                              badsymbols|undecoded|timers ADDR...|dir DIR|\n"
			"                              clock MONO REAL|v1|blockkeys|futurever|\n"
			"                              futuremeta|manykeys N ended|collide|badmeta|\n"
			"                              latency [HOST]|io|reclaim|ctf|attrib]\n");
		return 2;
	}
	trace = fopen(argv[1], "w");
	expect = fopen(argv[2], "w");
	if (!trace || !expect) {
		perror("mktrace");
		return 1;
	}
	low.buf = malloc(SB_LOW);
	fwrite(&h, sizeof(h), 1, trace);
	default_meta(&mc);
	default_high();
	default_medium(with_trigger);

	section(KTF_TASKS, 0, 0, "7 init\n42 worker\n99 live\n", 25);
	/* The kernel's saved comms: after the trace's names, before the tasks. */
	section(KTF_COMMS, 0, 0, "42 stale\n99 saved\n", 18);
	section(KTF_UNAME, 0, 0, "Linux synthetic\n", 16);
	fclose(trace);
	fclose(expect);
	return 0;
}
