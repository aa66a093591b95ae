// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: ktrace extract --vmcore, the trace in the memory of a
 * crashed kernel.
 *
 * The vmcore is an ELF64 core file of physical memory: /proc/vmcore in a
 * kdump kernel, QEMU's dump-guest-memory, makedumpfile's ELF output (-E).
 * Each PT_LOAD maps p_filesz bytes of physical memory at p_paddr to the
 * file at p_offset.  ktrace's crash table (include/uapi/linux/ktrace.h)
 * is found through the anchor whose physical address the kernel put in
 * its VMCOREINFO note (KTRACE_CRASH=ADDR); without the note, by scanning
 * memory for the anchor's two magic words, 8-byte aligned.  The table is
 * checked (its checksum, each descriptor), then each buffer's subbuffers
 * by the checker the kernel itself uses for the persistent region
 * (kernel/trace/ktrace/recover.c): what it keeps is written as the trace
 * file's streams, the low channel first, whose metadata tells which event
 * ids the other channels may hold.  What was not kept is counted per
 * buffer, in the lines of last_boot/info, printed and saved as the
 * file's stats.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/bits.h>
#include <linux/elf.h>		/* the uapi one: struct elf64_* */
#include <linux/kernel.h>		/* tools/include: ARRAY_SIZE() */

#include "record.h"
#include "../../kernel/trace/ktrace/recover.h"

#define VM_MAX_PHDRS		BIT(20)
#define VM_MAX_NOTES		(16 * BIT(20))
#define VM_SCAN_CHUNK		BIT(20)
#define VM_MAX_SB_SHIFT		26
/* Vmcores of this machine's byte order only, as the checker's tables. */
#if __BYTE_ORDER == __LITTLE_ENDIAN
#define VM_ELFDATA		ELFDATA2LSB
#else
#define VM_ELFDATA		ELFDATA2MSB
#endif

struct vm_load {
	uint64_t paddr, offset, size;
};

struct vmcore {
	const char *path;
	int fd;
	struct vm_load *loads;
	unsigned int nr_loads;
	char *info;			/* the VMCOREINFO note, or NULL */
};

/* The crash table found: its header and descriptors, checked. */
struct vm_table {
	uint64_t addr;			/* physical */
	struct ktrace_crash_header h;
	struct ktrace_crash_buf *bufs;
};

/* What read_slot() and emit() of one buffer need. */
struct vm_buf {
	struct vmcore *vc;
	const struct ktrace_crash_header *h;
	const struct ktrace_crash_buf *b;
	uint64_t base;			/* REGION: the physical address of the data */
	uint64_t *pages;		/* else: the physical address of each page */
	size_t nr_pages;
	struct recorder *r;
	struct ktrace_recover_ids *ids;
	bool write_err;			/* emit() failed: the file, not the vmcore */
	unsigned long unreadable;	/* slots not in the vmcore */
	unsigned char *bad;		/* per slot: counted in unreadable */
};

/* Copy @len bytes of physical memory at @paddr; 0, or -1 if not all in the file. */
static int vm_read(struct vmcore *vc, uint64_t paddr, void *dst, size_t len)
{
	unsigned int i;

	while (len) {
		const struct vm_load *l = NULL;
		size_t n;

		for (i = 0; i < vc->nr_loads && !l; i++)
			if (paddr >= vc->loads[i].paddr &&
			    paddr - vc->loads[i].paddr < vc->loads[i].size)
				l = &vc->loads[i];
		if (!l)
			return -1;
		n = l->size - (paddr - l->paddr) < len ? l->size - (paddr - l->paddr) : len;
		if (pread(vc->fd, dst, n, l->offset + (paddr - l->paddr)) != (ssize_t)n)
			return -1;
		dst = (char *)dst + n;
		paddr += n;
		len -= n;
	}
	return 0;
}

/* The VMCOREINFO note among the notes of one PT_NOTE segment. */
static void vm_notes(struct vmcore *vc, const struct elf64_phdr *ph)
{
	size_t off = 0, size = ph->p_filesz;
	char *buf;

	if (!size || size > VM_MAX_NOTES || vc->info)
		return;
	buf = malloc(size);
	if (!buf || pread(vc->fd, buf, size, ph->p_offset) != (ssize_t)size) {
		free(buf);
		return;
	}
	while (off + sizeof(struct elf64_note) <= size) {
		struct elf64_note n;
		size_t name, desc;

		memcpy(&n, buf + off, sizeof(n));
		name = off + sizeof(n);
		desc = name + ((n.n_namesz + 3ULL) & ~3ULL);
		if (desc > size || n.n_descsz > size - desc)
			break;
		if (n.n_namesz == sizeof("VMCOREINFO") &&
		    !memcmp(buf + name, "VMCOREINFO", sizeof("VMCOREINFO"))) {
			vc->info = strndup(buf + desc, n.n_descsz);
			break;
		}
		off = desc + ((n.n_descsz + 3ULL) & ~3ULL);
	}
	free(buf);
}

/* The program headers of the ELF header @e: the PT_LOADs, the note; 0 or -1. */
static int vm_phdrs(struct vmcore *vc, const struct elf64_hdr *e)
{
	uint64_t nr = e->e_phnum;
	struct elf64_phdr *ph;
	uint64_t i;

	/* More than PN_XNUM: the count is in the first section header. */
	if (nr == PN_XNUM) {
		struct elf64_shdr sh;

		if (pread(vc->fd, &sh, sizeof(sh), e->e_shoff) != sizeof(sh))
			return -1;
		nr = sh.sh_info;
	}
	if (!nr || nr > VM_MAX_PHDRS || e->e_phentsize != sizeof(*ph))
		return -1;
	ph = calloc(nr, sizeof(*ph));
	vc->loads = calloc(nr, sizeof(*vc->loads));
	if (!ph || !vc->loads ||
	    pread(vc->fd, ph, nr * sizeof(*ph), e->e_phoff) != (ssize_t)(nr * sizeof(*ph))) {
		free(ph);
		return -1;
	}
	for (i = 0; i < nr; i++) {
		if (ph[i].p_type == PT_NOTE)
			vm_notes(vc, &ph[i]);
		if (ph[i].p_type != PT_LOAD || !ph[i].p_filesz)
			continue;
		vc->loads[vc->nr_loads].paddr = ph[i].p_paddr;
		vc->loads[vc->nr_loads].offset = ph[i].p_offset;
		vc->loads[vc->nr_loads++].size = ph[i].p_filesz;
	}
	free(ph);
	return 0;
}

/* Open the vmcore at @path: its memory map and VMCOREINFO; 0, or -1 said. */
static int vm_open(struct vmcore *vc, const char *path)
{
	struct elf64_hdr e;

	memset(vc, 0, sizeof(*vc));
	vc->path = path;
	vc->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (vc->fd < 0) {
		fprintf(stderr, "ktrace extract: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (pread(vc->fd, &e, sizeof(e), 0) != sizeof(e) || memcmp(e.e_ident, ELFMAG, SELFMAG) ||
	    e.e_ident[EI_CLASS] != ELFCLASS64 || e.e_type != ET_CORE) {
		fprintf(stderr, "ktrace extract: %s: not an ELF64 core file (a vmcore)\n", path);
		return -1;
	}
	if (e.e_ident[EI_DATA] != VM_ELFDATA) {
		fprintf(stderr, "ktrace extract: %s: a vmcore of the other byte order\n", path);
		return -1;
	}
	if (vm_phdrs(vc, &e)) {
		fprintf(stderr,
			"ktrace extract: %s: its program headers cannot be read (truncated?)\n",
			path);
		return -1;
	}
	if (!vc->nr_loads) {
		fprintf(stderr, "ktrace extract: %s: no memory in it (no PT_LOAD segment)\n", path);
		return -1;
	}
	return 0;
}

static void vm_close(struct vmcore *vc)
{
	if (vc->fd >= 0)
		close(vc->fd);
	free(vc->loads);
	free(vc->info);
}

/*
 * The table the anchor at @anchor points to, checked, in @t; 0, or -1
 * with @why set (said by the caller, when no other anchor works).
 */
static int vm_table_at(struct vmcore *vc, uint64_t anchor, struct vm_table *t,
		       const char **why)
{
	struct ktrace_crash_anchor a;
	size_t len;

	if (vm_read(vc, anchor, &a, sizeof(a)))
		return *why = "the anchor's memory is not in the vmcore", -1;
	if (a.magic != KTRACE_CRASH_ANCHOR_MAGIC || a.magic2 != ~KTRACE_CRASH_ANCHOR_MAGIC)
		return *why = "no anchor at the address VMCOREINFO gives", -1;
	if (!a.table)
		return *why = "the kernel had no trace buffers at the crash", -1;
	t->addr = a.table;
	if (vm_read(vc, a.table, &t->h, sizeof(t->h)))
		return *why = "the crash table's memory is not in the vmcore", -1;
	if (ktrace_crash_check_header(&t->h))
		return *why = "the crash table's header is invalid", -1;
	len = (size_t)t->h.nr_bufs * sizeof(*t->bufs);
	free(t->bufs);
	t->bufs = malloc(len ? len : 1);
	if (!t->bufs || vm_read(vc, a.table + t->h.header_size, t->bufs, len))
		return *why = "the crash table's descriptors are not in the vmcore", -1;
	if (ktrace_crash_csum(&t->h, t->bufs) != t->h.csum)
		return *why = "the crash table's checksum is wrong: it is corrupt", -1;
	return 0;
}

/*
 * Scan memory for an anchor whose table checks; 0, or -1 (@found: the
 * last anchor that did not, 0 if none).
 */
static int vm_scan(struct vmcore *vc, struct vm_table *t, const char **why, uint64_t *found)
{
	unsigned char *buf = malloc(VM_SCAN_CHUNK + sizeof(struct ktrace_crash_anchor));
	unsigned int i;
	uint64_t off;
	size_t j, n;

	for (i = 0; buf && i < vc->nr_loads; i++) {
		const struct vm_load *l = &vc->loads[i];

		for (off = (8 - l->paddr % 8) % 8; off < l->size; off += VM_SCAN_CHUNK) {
			n = l->size - off < VM_SCAN_CHUNK + 16 ? l->size - off : VM_SCAN_CHUNK + 16;
			if (pread(vc->fd, buf, n, l->offset + off) != (ssize_t)n)
				break;
			for (j = 0; j + 16 <= n && j < VM_SCAN_CHUNK; j += 8) {
				uint64_t m[2];

				memcpy(m, buf + j, sizeof(m));
				if (m[0] != KTRACE_CRASH_ANCHOR_MAGIC || m[1] != ~m[0])
					continue;
				*found = l->paddr + off + j;
				if (!vm_table_at(vc, *found, t, why)) {
					free(buf);
					return 0;
				}
			}
		}
	}
	free(buf);
	return -1;
}

/* The crash table, through VMCOREINFO or a scan; 0, or -1 after saying why. */
static int vm_find_table(struct vmcore *vc, struct vm_table *t)
{
	const char *why = "no ktrace anchor in its memory (no ktrace, or not in the dump)";
	const char *p = vc->info ? strstr(vc->info, "KTRACE_CRASH=") : NULL;
	uint64_t found = 0;

	if (p && (p == vc->info || p[-1] == '\n')) {
		if (!vm_table_at(vc, strtoull(p + 13, NULL, 16), t, &why))
			return 0;
	} else if (!vm_scan(vc, t, &why, &found)) {
		return 0;
	}
	if (found)
		fprintf(stderr,
			"ktrace extract: %s: no KTRACE_CRASH= in VMCOREINFO, memory scanned: the last ktrace anchor found, at 0x%llx: %s: nothing recovered\n",
			vc->path, (unsigned long long)found, why);
	else
		fprintf(stderr, "ktrace extract: %s: %s%s: nothing recovered\n", vc->path, why,
			p ? "" : " (no KTRACE_CRASH= in VMCOREINFO: memory scanned)");
	return -1;
}

/* The physical address of a table address: REGION ones are offsets. */
static uint64_t vm_addr(const struct vm_table *t, uint64_t a)
{
	return t->h.flags & KTRACE_CRASH_REGION ? t->addr + a : a;
}

/* A slot not in the vmcore, counted once: the checker reads each twice. */
static int vm_unreadable(struct vm_buf *vb, unsigned long slot)
{
	if (vb->bad && !vb->bad[slot]) {
		vb->bad[slot] = 1;
		vb->unreadable++;
	}
	return -EIO;
}

static int vm_read_slot(void *ctx, unsigned long slot, void *dst)
{
	struct vm_buf *vb = ctx;
	size_t sb = 1UL << vb->b->sb_shift, ps = vb->h->page_size, done, n;
	uint64_t off = (uint64_t)slot << vb->b->sb_shift;

	if (!vb->pages) {
		if (!vm_read(vb->vc, vb->base + off, dst, sb))
			return 0;
		return vm_unreadable(vb, slot);
	}
	for (done = 0; done < sb; done += n, off += n) {
		n = ps - off % ps < sb - done ? ps - off % ps : sb - done;
		if (off / ps >= vb->nr_pages ||
		    vm_read(vb->vc, vb->pages[off / ps] + off % ps, (char *)dst + done, n))
			return vm_unreadable(vb, slot);
	}
	return 0;
}

static int vm_emit(void *ctx, const void *sb, size_t len)
{
	struct vm_buf *vb = ctx;

	if (vb->b->channel == KTRACE_CHANNEL_LOW)
		ktrace_recover_add_meta(vb->ids, sb, len);
	if (cut(vb->r) || out_stream(vb->r, vb->b->channel, vb->b->cpu, sb, len)) {
		vb->write_err = true;
		return -EIO;
	}
	return 0;
}

/* @nr counts of word_size bytes at physical @addr, as u64; NULL if unreadable. */
static uint64_t *vm_words(struct vmcore *vc, const struct vm_table *t, uint64_t addr,
			  size_t nr)
{
	unsigned int ws = t->h.word_size;
	unsigned char *raw = malloc(nr * ws);
	uint64_t *w = calloc(nr, sizeof(*w));
	size_t i;

	if (!raw || !w || vm_read(vc, vm_addr(t, addr), raw, nr * ws)) {
		free(raw);
		free(w);
		return NULL;
	}
	for (i = 0; i < nr; i++) {
		uint32_t v32;

		if (ws == 4) {
			memcpy(&v32, raw + i * 4, 4);
			w[i] = v32;
		} else {
			memcpy(&w[i], raw + i * 8, 8);
		}
	}
	free(raw);
	return w;
}

/* A string of the table, NUL-terminated, printable. */
static void vm_string(char *dst, const char *src, size_t size)
{
	size_t i, len = strnlen(src, size);

	for (i = 0; i < len; i++)
		dst[i] = src[i] > ' ' - 1 && src[i] < 0x7f ? src[i] : '?';
	dst[len] = '\0';
}

/* The page list of a buffer outside the region, in @vb; 0, or -1. */
static int vm_pages(struct vm_buf *vb, const struct vm_table *t)
{
	uint64_t ring = 1ULL << (vb->b->sb_shift + vb->b->nr_shift);
	uint64_t ps = t->h.page_size;

	if (!ps || ps & (ps - 1))
		return -1;
	vb->nr_pages = (ring + ps - 1) / ps;
	vb->pages = calloc(vb->nr_pages, sizeof(*vb->pages));
	if (!vb->pages ||
	    vm_read(vb->vc, vb->b->data, vb->pages, vb->nr_pages * sizeof(*vb->pages)))
		return -1;
	return 0;
}

/*
 * Recover buffer @i of the table into @vb->r's streams, its counts in
 * @st.  Returns 0, -EINVAL (its descriptor is invalid), -EFAULT (its
 * memory is not in the vmcore), or another negative errno (writing).
 */
static int vm_recover(struct vm_buf *vb, const struct vm_table *t, unsigned int i,
		      struct ktrace_recover_stats *st)
{
	const struct ktrace_crash_buf *b = &t->bufs[i];
	uint64_t *commit = NULL, *events = NULL, *sums = NULL;
	size_t nr = 1UL << b->nr_shift;
	void *scratch = NULL;
	int ret = -EFAULT;

	memset(st, 0, sizeof(*st));
	vb->b = b;
	if (ktrace_crash_check_buf(&t->h, b, i) || b->sb_shift > VM_MAX_SB_SHIFT)
		return -EINVAL;
	commit = vm_words(vb->vc, t, b->commit, nr);
	events = vm_words(vb->vc, t, b->sb_events, 2 * nr);
	/* The region's checksums of the slots as the crash path froze them. */
	if (b->sums && (t->h.flags & KTRACE_CRASH_FROZEN)) {
		sums = vm_words(vb->vc, t, b->sums, nr);
		if (!sums)
			goto out;
	}
	if (t->h.flags & KTRACE_CRASH_REGION)
		vb->base = t->addr + b->data;
	else if (vm_pages(vb, t))
		goto out;
	scratch = malloc(1UL << b->sb_shift);
	vb->bad = calloc(nr, 1);
	if (!commit || !events || !scratch || !vb->bad)
		goto out;
	/* The low channel's ids are the metadata's own (as persist.c does). */
	vb->unreadable = 0;
	ret = ktrace_recover_buf(&t->h, b, commit, events, sums,
				 b->channel == KTRACE_CHANNEL_LOW ? NULL : vb->ids,
				 vm_read_slot, vm_emit, vb, scratch, st);
	if (!ret && vb->unreadable == nr)
		ret = -EFAULT;
out:
	free(vb->bad);
	vb->bad = NULL;
	free(vb->pages);
	vb->pages = NULL;
	free(commit);
	free(events);
	free(sums);
	free(scratch);
	return ret;
}

/*
 * The line of last_boot/info for buffer @b: what was kept, what was not
 * (and the slots not in the vmcore, which the checker counts as header).
 */
static void vm_buf_line(FILE *m, const struct ktrace_crash_buf *b,
			const struct ktrace_recover_stats *st, int err, unsigned long unreadable)
{
	unsigned int r;

	fprintf(m, "buf %s cpu%u", kt_channel_name(b->channel), b->cpu);
	if (err) {
		fprintf(m, " nothing recovered (%s)\n", err == -EINVAL ?
			"its descriptor is invalid" : err == -EFAULT ?
			"its memory is not in the vmcore" : strerror(-err));
		return;
	}
	for (r = 0; r < KTRACE_RECOVER_NR_REASONS; r++)
		fprintf(m, " %s=%llu", ktrace_recover_reason_name(r),
			(unsigned long long)st->subbufs[r]);
	fprintf(m, " events=%llu lost=%llu cut=%d written=%llu dropped=%llu overwritten=%llu",
		(unsigned long long)st->events, (unsigned long long)st->lost, st->cut,
		(unsigned long long)b->events, (unsigned long long)b->dropped,
		(unsigned long long)b->overwritten);
	if (unreadable)
		fprintf(m, " (%lu subbuffers not in the vmcore)", unreadable);
	fputc('\n', m);
}

/*
 * Recover every buffer, the low channel's first, into @r's streams; the
 * lines of last_boot/info for them in @m.  0, or -1 after a write error.
 */
static int vm_recover_all(struct vmcore *vc, const struct vm_table *t, struct recorder *r,
			  FILE *m)
{
	static const unsigned int order[] = {
		KTRACE_CHANNEL_LOW, KTRACE_CHANNEL_MEDIUM, KTRACE_CHANNEL_HIGH,
	};
	struct vm_buf vb = { .vc = vc, .h = &t->h, .r = r };
	struct ktrace_recover_stats st;
	unsigned int k, i;
	int err;

	vb.ids = calloc(1, sizeof(*vb.ids));
	if (!vb.ids)
		return -1;
	for (k = 0; k < ARRAY_SIZE(order); k++) {
		for (i = 0; i < t->h.nr_bufs; i++) {
			const struct ktrace_crash_buf *b = &t->bufs[i];

			if (b->channel != order[k] || !b->sb_shift)
				continue;
			err = vm_recover(&vb, t, i, &st);
			if (vb.write_err) {
				free(vb.ids);
				return -1;
			}
			vm_buf_line(m, b, &st, err, vb.unreadable);
		}
	}
	free(vb.ids);
	return 0;
}

/* The info text of the table's header, then @lines; allocated, or NULL. */
static char *vm_info(const struct vm_table *t, const char *lines, unsigned long long kept)
{
	char reason[sizeof(t->h.freeze_reason) + 1], release[sizeof(t->h.release) + 1];
	char build[sizeof(t->h.build) + 1], *info;

	vm_string(reason, t->h.freeze_reason, sizeof(t->h.freeze_reason));
	vm_string(release, t->h.release, sizeof(t->h.release));
	vm_string(build, t->h.build, sizeof(t->h.build));
	if (asprintf(&info,
		     "state: %s\nrelease: %s\nbuild: %s\ntext_addr: 0x%llx\nboot_id: 0x%llx\nfrozen: %s\nfreeze_reason: %s\nfreeze_clock: %llu\n%s",
		     kept ? "recovered" : "nothing recovered (no valid subbuffer)", release, build,
		     (unsigned long long)t->h.text_addr, (unsigned long long)t->h.boot_id,
		     t->h.flags & KTRACE_CRASH_FROZEN ? "yes" : "no", reason,
		     (unsigned long long)t->h.freeze_clock, lines) < 0)
		return NULL;
	return info;
}

/*
 * Say what was found: where the table is, of which kernel, frozen or
 * not, then the line of each buffer (what was kept, what not and why).
 */
static void vm_say(const struct vmcore *vc, const struct vm_table *t, const char *lines,
		   const char *release, const char *build)
{
	char reason[sizeof(t->h.freeze_reason) + 1];
	bool frozen = t->h.flags & KTRACE_CRASH_FROZEN;
	const char *p;

	vm_string(reason, t->h.freeze_reason, sizeof(t->h.freeze_reason));
	fprintf(stderr, "ktrace extract: %s: ktrace's crash table at 0x%llx (%s) of %s %s, %s%s\n",
		vc->path, (unsigned long long)t->addr,
		t->h.flags & KTRACE_CRASH_REGION ? "its persistent region" : "kernel memory",
		release, build, frozen ? "frozen: " :
		"not frozen (dumped before the panic notifiers): open subbuffers cut at their commit counts",
		frozen ? reason : "");
	for (p = lines; p && *p; p += strcspn(p, "\n") + !!p[strcspn(p, "\n")])
		fprintf(stderr, "ktrace extract: %.*s\n", (int)strcspn(p, "\n"), p);
}

/**
 * extract_vmcore() - ktrace extract --vmcore
 * @r: the recorder, its output set
 * @path: the vmcore
 * @kallsyms: --kallsyms, or NULL
 * @hide: --no-kernel-addresses
 *
 * Return: 0, or -1 after saying why (the vmcore, no table, nothing kept,
 * writing the file).
 */
int extract_vmcore(struct recorder *r, const char *path, const char *kallsyms, bool hide)
{
	char release[sizeof(((struct ktrace_crash_header *)0)->release) + 1];
	char build[sizeof(((struct ktrace_crash_header *)0)->build) + 1];
	unsigned long long kept, events, lost;
	struct vm_table t = { 0 };
	char *lines = NULL;
	size_t len = 0;
	struct vmcore vc;
	int ret = -1;
	FILE *m;

	if (vm_open(&vc, path) || vm_find_table(&vc, &t))
		goto out;
	r->old_boot = true;
	r->dir = NULL;
	r->cut_by_signal = true;
	catch_signals(false);
	vm_string(release, t.h.release, sizeof(t.h.release));
	vm_string(build, t.h.build, sizeof(t.h.build));
	if (old_kernel(r, release, build, t.h.text_addr, kallsyms, hide) || out_resolve(r) ||
	    out_create(r) || out_begin(r))
		goto out;
	m = open_memstream(&lines, &len);
	if (!m)
		goto out;
	if (vm_recover_all(&vc, &t, r, m)) {
		fclose(m);
		goto out;
	}
	fclose(m);
	crash_info_totals(lines, &kept, &events, &lost);
	r->old_stats = vm_info(&t, lines, kept);
	vm_say(&vc, &t, lines, release, build);
	if (r->old_stats && !out_finish(r, hide) && !out_deliver(r))
		ret = 0;
out:
	free(lines);
	free(t.bufs);
	vm_close(&vc);
	return ret;
}
