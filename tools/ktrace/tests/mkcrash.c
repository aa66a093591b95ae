// SPDX-License-Identifier: GPL-2.0
/*
 * mkcrash: write a synthetic ELF64 vmcore holding ktrace's crash table
 * and buffers, as a crashed kernel leaves them, for the host tests of
 * ktrace extract --vmcore (t-crash.sh).
 *
 *   mkcrash VMCORE EXPECTED pages|region|regionfrozen|regionsum|noinfo|
 *                           noanchor|badcsum|garbled|truncated|cut|stale
 *
 * Two CPUs, three channels.  Each buffer is written as the kernel's
 * writer does (buffer.c): subbuffer headers, a timestamp record at each
 * start, commit counts over all uses of a slot, event counts per use
 * parity, slots reused in overwrite mode (rpos and overwritten moved).
 * low cpu0: the metadata, one closed subbuffer; low cpu1: never written.
 * medium cpu0: MARKS marks "mark N" (ktrace:mark) over more subbuffers
 * than it has, the last one open; medium cpu1: 5 marks "cpu1 mark N",
 * earlier; high cpu0: TICKS foo:tick events, wrapping too; high cpu1: 10.
 *
 * pages: the table in ordinary memory (physical addresses, each buffer's
 * pages through its page list, in reverse order), frozen, found through
 * VMCOREINFO's KTRACE_CRASH=.  region: the persistent region (offsets,
 * contiguous data), not frozen (kdump before the panic notifiers);
 * regionfrozen: frozen, with the crash path's checksum of each slot;
 * regionsum: as regionfrozen, a byte of a closed subbuffer of high cpu0
 * changed after the freeze (dropped as "checksum").
 * noinfo: as pages, without KTRACE_CRASH= (the anchor is scanned for), a
 * decoy anchor whose table is garbage before the real one; noanchor: the
 * decoy alone (no table to be found).  badcsum: a
 * descriptor changed after the checksum.  garbled: as pages, a record
 * length of a closed subbuffer of medium cpu0 garbled.  truncated: as
 * pages, the file cut where high cpu1's pages start (the second PT_LOAD).
 * cut: as pages, the writer of medium cpu0's last mark stopped between
 * reserving and committing it.  stale: as pages, a reader had consumed
 * the two oldest subbuffers of high cpu0 before the crash.
 *
 * EXPECTED gets "marks=N last=TEXT ticks=N cpu1ticks=N" (report's) and,
 * per buffer, "buf CH cpuN kept=K events=E lost=L" as the checker counts
 * them (the subbuffers it keeps, their events, the events of the ones
 * it drops), or "buf CH cpuN nothing recovered" (truncated).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bits.h>
#include <linux/elf.h>		/* the uapi one: struct elf64_* */

#include "../trace.h"
#include "../../../kernel/trace/ktrace/recover.h"

#define NR_CPU		2
#define NR_BUFS		(KTRACE_NR_CHANNELS * NR_CPU)
#define PAGE		4096ULL
#define SEG_A		0x100000ULL	/* physical start of the first PT_LOAD */
#define SEG_A_SIZE	BIT_ULL(20)
#define SEG_B		0x8000000ULL
#define SEG_B_SIZE	(256ULL << 10)
#define MARKS		2000
#define TICKS		2500
#define SB_START	(sizeof(struct ktrace_subbuf_header) + sizeof(struct ktrace_timestamp))
#define MAX_SEQ		64

/* One buffer as the kernel's writer leaves it. */
struct gbuf {
	unsigned int ch, cpu, sb_shift, nr_shift;
	unsigned char *ring;
	uint64_t offset, rpos, events, overwritten, clock;
	uint64_t *commit, *sb_events;
	uint64_t seq_events[MAX_SEQ];	/* events of each subbuffer */
	uint64_t pages[64];		/* pages: physical, in ring order */
	uint64_t data;			/* region: offset of the data */
	uint64_t commit_at, events_at;	/* where the counts are */
	uint64_t sums_at;		/* region: where the slots' checksums are */
};

static const char *const ch_names[] = { "high", "medium", "low" };
static unsigned char *seg_a, *seg_b;
static struct gbuf bufs[NR_BUFS];

static unsigned char *phys(uint64_t pa)
{
	if (pa >= SEG_A && pa < SEG_A + SEG_A_SIZE)
		return seg_a + (pa - SEG_A);
	if (pa >= SEG_B && pa < SEG_B + SEG_B_SIZE)
		return seg_b + (pa - SEG_B);
	fprintf(stderr, "mkcrash: 0x%llx outside memory\n", (unsigned long long)pa);
	exit(1);
}

static struct gbuf *gb_of(unsigned int ch, unsigned int cpu)
{
	return &bufs[ch * NR_CPU + cpu];
}

static void gb_init(unsigned int ch, unsigned int cpu, unsigned int sb_shift,
		    unsigned int nr_shift)
{
	struct gbuf *g = gb_of(ch, cpu);

	g->ch = ch;
	g->cpu = cpu;
	g->sb_shift = sb_shift;
	g->nr_shift = nr_shift;
	g->ring = calloc(1, 1ULL << (sb_shift + nr_shift));
	g->commit = calloc(1ULL << nr_shift, 8);
	g->sb_events = calloc(2ULL << nr_shift, 8);
	g->clock = 1000;
}

static void gb_end(struct gbuf *g)
{
	uint64_t sb = 1ULL << g->sb_shift, pos = g->offset & (sb - 1);
	uint64_t ring = sb << g->nr_shift;
	uint64_t slot = (g->offset >> g->sb_shift) & ((1ULL << g->nr_shift) - 1);
	struct ktrace_subbuf_header *h =
		(void *)(g->ring + ((g->offset & (ring - 1)) & ~(sb - 1)));

	if (!pos)
		return;
	h->data_size = pos - sizeof(*h);
	h->dropped = 0;
	h->overwritten = g->overwritten;
	g->commit[slot] += sb - pos;
	g->offset += sb - pos;
}

static void gb_begin(struct gbuf *g)
{
	uint64_t n = g->offset >> g->sb_shift, nr = 1ULL << g->nr_shift;
	uint64_t slot = n & (nr - 1), ring = (1ULL << g->sb_shift) << g->nr_shift;
	struct ktrace_subbuf_header *h = (void *)(g->ring + (g->offset & (ring - 1)));
	struct ktrace_timestamp ts = {
		.header = KTRACE_HEADER(KTRACE_ID_TIMESTAMP, g->clock),
		.clock_lo = (uint32_t)g->clock, .clock_hi = g->clock >> 32,
	};
	uint64_t *old;

	if (n >= nr) {
		/* The slot's previous use is overwritten unread. */
		old = &g->sb_events[slot << 1 | (((n - nr) >> g->nr_shift) & 1)];
		g->overwritten += *old;
		*old = 0;
		g->rpos = n - nr + 1;
	}
	memset(h, 0, 1ULL << g->sb_shift);
	h->magic = KTRACE_MAGIC;
	h->version = KTRACE_FORMAT_VERSION;
	h->channel = g->ch;
	h->flags = KTRACE_SUBBUF_OVERWRITE;
	h->cpu = g->cpu;
	h->seq = n;
	h->pid = 100 + g->cpu;
	memcpy(h + 1, &ts, sizeof(ts));
	g->commit[slot] += SB_START;
	g->offset += SB_START;
}

/* One event record of @len bytes (a multiple of 4), its clock 5 later. */
static void gb_write(struct gbuf *g, const void *rec, size_t len)
{
	uint64_t sb = 1ULL << g->sb_shift, pos = g->offset & (sb - 1);
	uint64_t ring = sb << g->nr_shift, n, slot;

	g->clock += 5;
	if (!pos || pos + len >= sb) {
		gb_end(g);
		gb_begin(g);
	}
	n = g->offset >> g->sb_shift;
	slot = n & ((1ULL << g->nr_shift) - 1);
	memcpy(g->ring + (g->offset & (ring - 1)), rec, len);
	/* The record's header carries the clock. */
	*(uint32_t *)(g->ring + (g->offset & (ring - 1))) =
		KTRACE_HEADER(*(uint32_t *)rec >> KTRACE_CLOCK_BITS, g->clock);
	g->offset += len;
	g->commit[slot] += len;
	g->sb_events[slot << 1 | ((n >> g->nr_shift) & 1)]++;
	g->events++;
	if (n < MAX_SEQ)
		g->seq_events[n]++;
}

static void gb_expanded(struct gbuf *g, unsigned int major, unsigned int minor,
			const void *data, size_t len)
{
	unsigned char rec[512] = { 0 };
	struct ktrace_expanded e = {
		.header = KTRACE_HEADER(KTRACE_ID_EXPANDED, 0),
		.major = major, .minor = minor, .length = len,
	};

	memcpy(rec, &e, sizeof(e));
	memcpy(rec + sizeof(e), data, len);
	gb_write(g, rec, KTRACE_EXPANDED_SIZE(len));
}

static void meta_event(struct gbuf *g, unsigned int ch, unsigned int kind, unsigned int id,
		       unsigned int major, unsigned int minor, unsigned int nr_fields,
		       const char *group, const char *name)
{
	struct ktrace_meta_event e = {
		.channel = ch, .kind = kind, .id = id, .major = major,
		.minor = minor, .nr_fields = nr_fields,
	};

	memcpy(e.group, group, strlen(group));
	memcpy(e.name, name, strlen(name));
	gb_expanded(g, KTRACE_META_MAJOR, KTRACE_META_EVENT, &e, sizeof(e));
}

static void meta_field(struct gbuf *g, const char *name, unsigned int offset,
		       unsigned int size, unsigned int display)
{
	struct ktrace_meta_field f = { .offset = offset, .size = size, .display = display };

	memcpy(f.name, name, strlen(name));
	gb_expanded(g, KTRACE_META_MAJOR, KTRACE_META_FIELD, &f, sizeof(f));
}

/* The metadata on low cpu0: foo:tick (high, compact 3), ktrace:mark (medium). */
static void write_meta(void)
{
	struct gbuf *g = gb_of(KTRACE_CHANNEL_LOW, 0);
	struct ktrace_meta_trace mt = {
		.magic = KTRACE_MAGIC, .version = KTRACE_FORMAT_VERSION,
		.byte_order = KTRACE_LITTLE_ENDIAN, .nr_channels = KTRACE_NR_CHANNELS,
		.nr_cpus = NR_CPU, .nr_records = 6,
	};
	struct ktrace_meta_clock mc = {
		.freq_hz = 2500000000ULL, .shift = 7, .ref_clock = 1000,
		.ref_mono_ns = 5000000000ULL, .name = "tsc",
	};

	memcpy(mt.release, "6.99.0-crash", 12);
	memcpy(mt.machine, "x86_64", 6);
	memcpy(mt.nodename, "crashed", 7);
	gb_expanded(g, KTRACE_META_MAJOR, KTRACE_META_TRACE, &mt, sizeof(mt));
	gb_expanded(g, KTRACE_META_MAJOR, KTRACE_META_CLOCK, &mc, sizeof(mc));
	meta_event(g, KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, 3, 0, 0, 1, "foo", "tick");
	meta_field(g, "n", 0, 32, KTRACE_DISPLAY_DEC);
	meta_event(g, KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, KTRACE_ID_EXPANDED, 1, 2, 2,
		   "ktrace", "mark");
	meta_field(g, "pid", 0, 4, KTRACE_DISPLAY_PID);
	meta_field(g, "text", 4, 0, KTRACE_DISPLAY_STRING);
	gb_end(g);
}

static void write_events(void)
{
	struct ktrace_compact c = { .header = KTRACE_HEADER(3, 0) };
	unsigned char m[64];
	unsigned int i;
	int len;

	for (i = 1; i <= 5; i++) {
		memcpy(m, &(uint32_t){ 200 }, 4);
		len = snprintf((char *)m + 4, sizeof(m) - 4, "cpu1 mark %u", i);
		gb_expanded(gb_of(KTRACE_CHANNEL_MEDIUM, 1), 1, 2, m, 4 + len);
	}
	gb_of(KTRACE_CHANNEL_MEDIUM, 0)->clock = 2000;
	for (i = 1; i <= MARKS; i++) {
		memcpy(m, &(uint32_t){ 300 }, 4);
		len = snprintf((char *)m + 4, sizeof(m) - 4, "mark %u", i);
		gb_expanded(gb_of(KTRACE_CHANNEL_MEDIUM, 0), 1, 2, m, 4 + len);
	}
	for (i = 0; i < TICKS; i++) {
		c.payload = i;
		gb_write(gb_of(KTRACE_CHANNEL_HIGH, 0), &c, sizeof(c));
	}
	for (i = 0; i < 10; i++) {
		c.payload = i;
		gb_write(gb_of(KTRACE_CHANNEL_HIGH, 1), &c, sizeof(c));
	}
}

/* Each ring's bytes to its pages (physical, reverse order), or the region. */
static void place(bool region, uint64_t base)
{
	uint64_t next_a = region ? base + 0x4000 : SEG_A + 0x10000;
	uint64_t next_b = SEG_B + 0x1000, at = base + 0x1000;
	unsigned int i, p;

	for (i = 0; i < NR_BUFS; i++) {
		struct gbuf *g = &bufs[i];
		uint64_t ring = 1ULL << (g->sb_shift + g->nr_shift), nr = 1ULL << g->nr_shift;
		unsigned int nr_pages = ring / PAGE;

		g->commit_at = at;
		memcpy(phys(at), g->commit, nr * 8);
		at += nr * 8;
		g->events_at = at;
		memcpy(phys(at), g->sb_events, 2 * nr * 8);
		at += 2 * nr * 8;
		if (region) {
			g->sums_at = at;
			at += nr * 8;
			g->data = next_a - base;
			memcpy(phys(next_a), g->ring, ring);
			next_a += ring;
			continue;
		}
		for (p = nr_pages; p-- > 0;) {
			bool in_b = g->ch == KTRACE_CHANNEL_HIGH && g->cpu == 1;

			g->pages[p] = in_b ? next_b : next_a;
			*(in_b ? &next_b : &next_a) += PAGE;
			memcpy(phys(g->pages[p]), g->ring + p * PAGE, PAGE);
		}
		/* The page list, after the counts. */
		g->data = at;
		memcpy(phys(at), g->pages, nr_pages * 8);
		at += nr_pages * 8;
	}
}

/* The table at physical @table; offsets from it if @region. */
static void write_table(uint64_t table, bool region, bool frozen, bool badcsum)
{
	struct ktrace_crash_header h = {
		.magic = KTRACE_CRASH_MAGIC, .version = KTRACE_CRASH_VERSION,
		.header_size = sizeof(h), .buf_size = sizeof(struct ktrace_crash_buf),
		.byte_order = KTRACE_LITTLE_ENDIAN, .word_size = 8,
		.flags = (region ? KTRACE_CRASH_REGION : 0) | (frozen ? KTRACE_CRASH_FROZEN : 0),
		.nr_bufs = NR_BUFS, .nr_cpus = NR_CPU, .page_size = PAGE,
		.nr_channels = KTRACE_NR_CHANNELS, .size = region ? 0x80000 : 1024,
		.boot_id = 0x1234abcd, .text_addr = 0xffffffff83000000ULL,
		.freeze_clock = frozen ? 20000 : 0,
	};
	struct ktrace_crash_buf b[NR_BUFS] = { 0 };
	uint64_t rel = region ? table : 0;
	unsigned int i;

	memcpy(h.freeze_reason, frozen ? "panic" : "", frozen ? 5 : 0);
	memcpy(h.release, "6.99.0-crash", 12);
	memcpy(h.build, "#1 SMP crash", 12);
	for (i = 0; i < NR_BUFS; i++) {
		const struct gbuf *g = &bufs[i];

		b[i].channel = g->ch;
		b[i].flags = KTRACE_SUBBUF_OVERWRITE;
		b[i].sb_shift = g->sb_shift;
		b[i].nr_shift = g->nr_shift;
		b[i].cpu = g->cpu;
		b[i].data = g->data;
		b[i].commit = g->commit_at - rel;
		b[i].sb_events = g->events_at - rel;
		/* The crash path of the persistent region sums each slot. */
		if (region && frozen) {
			uint64_t sums[64];

			b[i].sums = g->sums_at - rel;
			ktrace_recover_sums(&b[i], phys(table + b[i].data), g->commit, sums);
			memcpy(phys(g->sums_at), sums, (1ULL << g->nr_shift) * 8);
		}
		if (frozen) {
			b[i].offset = g->offset;
			b[i].rpos = g->rpos;
			b[i].events = g->events;
			b[i].overwritten = g->overwritten;
		}
	}
	h.csum = ktrace_crash_csum(&h, b);
	if (badcsum)
		b[3].rpos ^= 1;
	memcpy(phys(table), &h, sizeof(h));
	memcpy(phys(table + sizeof(h)), b, sizeof(b));
}

static void write_anchor(uint64_t at, uint64_t table, uint64_t size)
{
	struct ktrace_crash_anchor a = {
		.magic = KTRACE_CRASH_ANCHOR_MAGIC, .magic2 = ~KTRACE_CRASH_ANCHOR_MAGIC,
		.table = table, .size = size,
	};

	memcpy(phys(at), &a, sizeof(a));
}

/* The ELF64 core file: a VMCOREINFO note, two PT_LOADs; 0 or 1. */
static int write_elf(const char *path, const char *info)
{
	size_t nlen = (strlen(info) + 3) & ~3UL, off_a = 0x1000, off_b = off_a + SEG_A_SIZE;
	struct elf64_hdr e = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB,
			     EV_CURRENT },
		.e_type = ET_CORE, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
		.e_phoff = sizeof(e), .e_ehsize = sizeof(e),
		.e_phentsize = sizeof(struct elf64_phdr), .e_phnum = 3,
	};
	struct elf64_note n = { .n_namesz = 11, .n_descsz = strlen(info), .n_type = 0 };
	struct elf64_phdr ph[3] = {
		{ .p_type = PT_NOTE, .p_offset = sizeof(e) + sizeof(ph),
		  .p_filesz = sizeof(n) + 12 + nlen },
		{ .p_type = PT_LOAD, .p_offset = off_a, .p_paddr = SEG_A,
		  .p_vaddr = 0xffff888000000000ULL + SEG_A, .p_filesz = SEG_A_SIZE,
		  .p_memsz = SEG_A_SIZE },
		{ .p_type = PT_LOAD, .p_offset = off_b, .p_paddr = SEG_B,
		  .p_vaddr = 0xffff888000000000ULL + SEG_B, .p_filesz = SEG_B_SIZE,
		  .p_memsz = SEG_B_SIZE },
	};
	char name[12] = "VMCOREINFO", *desc = calloc(1, nlen + 1);
	FILE *f = fopen(path, "w");

	if (!f || !desc)
		return 1;
	memcpy(desc, info, strlen(info));
	fwrite(&e, sizeof(e), 1, f);
	fwrite(ph, sizeof(ph), 1, f);
	fwrite(&n, sizeof(n), 1, f);
	fwrite(name, 12, 1, f);
	fwrite(desc, nlen, 1, f);
	fseek(f, off_a, SEEK_SET);
	fwrite(seg_a, SEG_A_SIZE, 1, f);
	fwrite(seg_b, SEG_B_SIZE, 1, f);
	free(desc);
	return fclose(f) ? 1 : 0;
}

/* What is done to the vmcore (the KIND argument). */
struct kind {
	bool region, frozen, noinfo, noanchor, badcsum, garbled, truncated, cut, stale, sum;
	unsigned int bad_ch;		/* garbled, sum: the subbuffer dropped, */
	uint64_t bad_seq;		/* of CPU 0 of this channel */
};

/* The subbuffers the checker keeps of @g, their events, the events dropped. */
static void expect_buf(FILE *x, const struct gbuf *g, const struct kind *k)
{
	bool m0 = g->ch == KTRACE_CHANNEL_MEDIUM && !g->cpu, bad = g->ch == k->bad_ch && !g->cpu;
	uint64_t kept = 0, events = 0, lost = 0, s, last;

	if (k->truncated && g->ch == KTRACE_CHANNEL_HIGH && g->cpu == 1) {
		fprintf(x, "buf high cpu1 nothing recovered\n");
		return;
	}
	last = g->offset ? (g->offset - 1) >> g->sb_shift : 0;
	for (s = g->rpos; g->offset && s <= last; s++) {
		if (bad && s == k->bad_seq) {
			lost += g->seq_events[s];
			continue;
		}
		kept++;
		events += g->seq_events[s];
	}
	/* cut: the last mark reserved, never committed. */
	if (m0 && k->cut)
		events--, lost++;
	fprintf(x, "buf %s cpu%u kept=%llu events=%llu lost=%llu%s\n", ch_names[g->ch],
		g->cpu, (unsigned long long)kept, (unsigned long long)events,
		(unsigned long long)lost, m0 && k->cut ? " cut=1" : "");
}

/* A record length in subbuffer @seq of medium cpu0 garbled (its 2nd record). */
static void garble(uint64_t seq)
{
	struct gbuf *g = gb_of(KTRACE_CHANNEL_MEDIUM, 0);
	uint64_t sb = 1ULL << g->sb_shift, ring = sb << g->nr_shift;
	unsigned char *p = g->ring + ((seq << g->sb_shift) & (ring - 1)) + SB_START;

	p += KTRACE_EXPANDED_SIZE(((struct ktrace_expanded *)p)->length);
	((struct ktrace_expanded *)p)->length = 0xfff0;
}

/* EXPECTED: the marks and ticks report prints, then the buffers' counts. */
static void expect(FILE *x, const struct kind *k)
{
	const struct gbuf *m0 = gb_of(KTRACE_CHANNEL_MEDIUM, 0);
	const struct gbuf *h0 = gb_of(KTRACE_CHANNEL_HIGH, 0);
	uint64_t marks = 5 - k->cut, ticks = k->truncated ? 0 : 10, s;
	unsigned int i;

	for (s = m0->rpos; s < MAX_SEQ; s++)
		if (k->bad_ch != KTRACE_CHANNEL_MEDIUM || s != k->bad_seq)
			marks += m0->seq_events[s];
	for (s = h0->rpos; s < MAX_SEQ; s++)
		if (k->bad_ch != KTRACE_CHANNEL_HIGH || s != k->bad_seq)
			ticks += h0->seq_events[s];
	fprintf(x, "marks=%llu last=mark %u ticks=%llu cpu1ticks=%u\n",
		(unsigned long long)marks, MARKS - k->cut, (unsigned long long)ticks,
		k->truncated ? 0 : 10);
	for (i = 0; i < NR_BUFS; i++)
		expect_buf(x, &bufs[i], k);
}

static int parse_kind(const char *s, struct kind *k)
{
	memset(k, 0, sizeof(*k));
	k->bad_seq = ~0ULL;
	k->bad_ch = ~0U;
	k->sum = !strcmp(s, "regionsum");
	k->region = !strcmp(s, "region") || !strcmp(s, "regionfrozen") || k->sum;
	k->frozen = !k->region || strcmp(s, "region");
	k->noanchor = !strcmp(s, "noanchor");
	k->noinfo = !strcmp(s, "noinfo") || k->noanchor;
	k->badcsum = !strcmp(s, "badcsum");
	k->garbled = !strcmp(s, "garbled");
	k->truncated = !strcmp(s, "truncated");
	k->cut = !strcmp(s, "cut");
	k->stale = !strcmp(s, "stale");
	return k->region || k->noinfo || k->badcsum || k->garbled || k->truncated || k->cut ||
	       k->stale || !strcmp(s, "pages") ? 0 : -1;
}

/* What the kinds change in the buffers before they are laid out. */
static void alter(struct kind *k)
{
	struct gbuf *m0 = gb_of(KTRACE_CHANNEL_MEDIUM, 0), *h0 = gb_of(KTRACE_CHANNEL_HIGH, 0);

	if (k->garbled) {
		k->bad_ch = KTRACE_CHANNEL_MEDIUM;
		k->bad_seq = m0->rpos + 1;
		garble(k->bad_seq);
	}
	/* sum: a byte of a subbuffer of high cpu0 changes after the freeze. */
	if (k->sum) {
		k->bad_ch = KTRACE_CHANNEL_HIGH;
		k->bad_seq = h0->rpos + 1;
	}
	/* The writer of the last mark stopped between reserving and committing. */
	if (k->cut)
		m0->commit[(m0->offset >> m0->sb_shift) & ((1ULL << m0->nr_shift) - 1)] -=
			KTRACE_EXPANDED_SIZE(4 + strlen("mark 2000"));
	/* A reader had taken the two oldest subbuffers of high cpu0. */
	if (k->stale)
		h0->rpos += 2;
}

int main(int argc, char **argv)
{
	struct kind k;
	uint64_t table;
	char info[256];
	FILE *x;

	if (argc != 4 || parse_kind(argv[3], &k)) {
		fprintf(stderr,
			"usage: mkcrash VMCORE EXPECTED pages|region|regionfrozen|regionsum|noinfo|\n"
			"                   noanchor|badcsum|garbled|truncated|cut|stale\n");
		return 2;
	}
	table = k.region ? SEG_A + 0x10000 : SEG_A + 0x2000;
	seg_a = calloc(1, SEG_A_SIZE);
	seg_b = calloc(1, SEG_B_SIZE);
	gb_init(KTRACE_CHANNEL_HIGH, 0, 12, 2);
	gb_init(KTRACE_CHANNEL_HIGH, 1, 12, 2);
	gb_init(KTRACE_CHANNEL_MEDIUM, 0, 13, 2);
	gb_init(KTRACE_CHANNEL_MEDIUM, 1, 13, 2);
	gb_init(KTRACE_CHANNEL_LOW, 0, 12, 2);
	gb_init(KTRACE_CHANNEL_LOW, 1, 12, 2);
	write_meta();
	write_events();
	alter(&k);
	place(k.region, k.region ? table : SEG_A + 0x2000);
	write_table(table, k.region, k.frozen, k.badcsum);
	if (k.sum) {
		const struct gbuf *h0 = gb_of(KTRACE_CHANNEL_HIGH, 0);

		*phys(table + h0->data + ((k.bad_seq & 3) << h0->sb_shift) + 100) ^= 0x40;
	}
	/* A decoy first: the magic words, a table that is none. */
	if (k.noinfo)
		write_anchor(SEG_A + 0x800, SEG_A + 0x900, 4096);
	if (!k.noanchor)
		write_anchor(SEG_A + 0x1008, table, k.region ? 0x80000 : 1024);
	snprintf(info, sizeof(info), "OSRELEASE=6.99.0-crash\nPAGESIZE=4096\n%s",
		 k.noinfo ? "" : "KTRACE_CRASH=101008\n");
	x = fopen(argv[2], "w");
	if (!x || write_elf(argv[1], info))
		return 1;
	expect(x, &k);
	if (k.truncated && truncate(argv[1], 0x1000 + SEG_A_SIZE + 100))
		return 1;
	return fclose(x) ? 1 : 0;
}
