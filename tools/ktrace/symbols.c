// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: the kernel symbols a trace needs, and hiding its kernel
 * addresses.
 *
 * A trace carries raw kernel addresses: the fields displayed as symbols
 * (irq:timer_expire's function, irq:irqsoff's caller, statedump:irq's
 * handler) and other fields the metadata flags KTRACE_FIELD_KADDR (the
 * base of a module in statedump:module).  Elsewhere they mean nothing,
 * and they give away the traced machine's KASLR layout.  So record (and
 * extract) end with kt_symbols_save(), which resolves each distinct value
 * against /proc/kallsyms as the kernel's %pS does, name+0xoff/0xsize and
 * " [module]" for a module's symbol, and adds a KTF_SYMBOLS section of
 * "VALUE SYMBOL" lines, VALUE in hexadecimal.  report prints a SYMBOL
 * field from there.
 *
 * With hide (--no-kernel-addresses), the file is written anew with every
 * such value replaced in the records: a SYMBOL field's by a token, 1, 2,
 * 3 ... in the order of first appearance (never a kernel address), and
 * the symbols section maps the tokens to the symbols, after a first line
 * "# hidden"; another KTRACE_FIELD_KADDR field (a module's base) becomes
 * 0: nothing decodes it into a name, and the record names the module
 * anyway.  A value no symbol covers maps to "?".  0 is no address and is
 * kept.  User-space addresses (statedump:map) are the traced program's
 * layout, not the kernel's, and are kept.
 *
 * Hide also covers what the decoder does not deliver with metadata: events
 * without it, the rest of a subbuffer after a corrupt record, bytes that
 * are no subbuffer header or follow the last one, the low channel.  Every
 * stream is searched at every byte offset for 8 bytes (in the file's byte
 * order, which report assumes is ours) whose value is in the kernel's
 * range, and those are zeroed.  The range comes from kallsyms, module
 * symbols included: [lowest address, highest address + 1 MiB], absolute
 * symbols and zero addresses aside.  Without it (no kallsyms, or all
 * zeros), hide fails: it cannot know what to look for.  In text, strings
 * of expanded events (an oops trigger's reason: die()'s message) and the
 * text sections, each "0x" and 8 to 16 hex digits whose value is in that
 * range or in the kernel half (0xffff800000000000 and above) gets 'x' in
 * place of its digits, the length kept.  At the end, the new file is
 * searched the same way for any value left in the range: one found fails
 * the save, and the file is not replaced.
 *
 * Approximations of %pS: a core kernel symbol's size is the distance to
 * the next higher address of /proc/kallsyms; beyond the core kernel's end
 * (_end, or its highest symbol without one) an address not in a module is
 * not resolved.  A module symbol's size is the distance to the next symbol
 * of the same module; the kernel bounds the last one by the module's
 * memory, which kallsyms does not show, so for it the next symbol whatever
 * it is, and an address 1 MiB or more past it is not resolved.  BPF
 * programs ([bpf]) and ftrace's and kprobes' trampolines ([__builtin__*])
 * print without the module, as the kernel prints BPF's.  An address below
 * the first symbol or at or above the last is not resolved (it stays
 * hexadecimal, as the kernel prints an address it cannot name); of aliases
 * (several names at one address), the first listed is used, as the kernel
 * does.  Absolute symbols (kallsyms types 'a' and 'A': per-CPU offsets)
 * are no code and are ignored.
 */
#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace.h"

/* One symbol of /proc/kallsyms. */
struct ksym {
	uint64_t addr;
	unsigned int index;		/* line, so that the first alias wins */
	char *name;			/* "name" or "name\t[module]" */
};

struct kallsyms {
	struct ksym *syms;
	size_t nr;
	char *text;
	uint64_t lo, hi;		/* the kernel's address range */
	uint64_t core_end;		/* _end, or the core's last symbol */
};

/* kt_symbols_source(): a kernel that is gone, its symbols from @path. */
static struct {
	bool set;
	const char *path;		/* NULL: none */
	uint64_t delta;			/* added to each core kernel address */
} ksrc;

/* Beyond the highest symbol, what the range still covers: 1 MiB. */
#define KT_RANGE_SLACK		(1024ULL * 1024)

/* One distinct value of the trace's kernel-address fields. */
struct kval {
	uint64_t value;
	uint64_t token;			/* hide: what replaces it (0: nothing) */
	unsigned int size;		/* bytes of the field it came in */
	char *symbol;			/* name+0xoff/0xsize [module]; NULL */
};

struct kvals {
	struct kval *v;			/* in order of first appearance */
	size_t nr, max;
	size_t *hash;			/* index + 1 into v; 0: empty */
	size_t hash_size;
	uint64_t next_token;
	const struct kallsyms *ks;	/* hide: the kernel's range */
	size_t scrubbed;		/* hide: addresses in strings */
	bool hide;
	bool oom;
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

/* The module of a kallsyms name, "[module]"; NULL for the core kernel's. */
static const char *ksym_module(const struct ksym *s)
{
	const char *tab = strchr(s->name, '\t');

	return tab ? tab + 1 : NULL;
}

/*
 * Read the symbols of path (/proc/kallsyms format: "ADDR TYPE NAME" and a
 * tab and "[module]" for a module's), and the kernel's address range.
 * Returns 0 with ks->nr symbols, or -1 after a warning (ending in @what):
 * the file cannot be read, or it shows no address (kptr_restrict).
 */
static int kallsyms_read(struct kallsyms *ks, const char *path, const char *what)
{
	size_t len = 0, max = 1 << 20, n = 0, nmax = 0;
	uint64_t lo = UINT64_MAX, hi = 0, core_hi = 0, end = 0;
	char *p;
	ssize_t got;
	int fd;

	memset(ks, 0, sizeof(*ks));
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "ktrace: %s: %s: %s\n", path, strerror(errno), what);
		return -1;
	}
	ks->text = malloc(max + 1);
	/* /proc files have no size: read to the end. */
	while (ks->text && (got = read(fd, ks->text + len, max - len)) > 0) {
		len += got;
		if (len == max) {
			char *nt = realloc(ks->text, 2 * max + 1);

			if (!nt) {
				free(ks->text);
				ks->text = NULL;
				break;
			}
			ks->text = nt;
			max *= 2;
		}
	}
	close(fd);
	if (!ks->text) {
		fprintf(stderr, "ktrace: %s: out of memory: %s\n", path, what);
		return -1;
	}
	ks->text[len] = '\0';
	for (p = ks->text; *p;) {
		char *nl = strchr(p, '\n'), *end_p, *name;
		unsigned long long addr;

		if (nl)
			*nl = '\0';
		addr = strtoull(p, &end_p, 16);
		/* "ADDR T NAME": a type letter between single spaces. */
		if (end_p != p && end_p[0] == ' ' && end_p[1] && end_p[2] == ' ' && end_p[3] &&
		    end_p[1] != 'a' && end_p[1] != 'A' &&
		    !(ksrc.set && strchr(end_p + 3, '\t'))) {
			name = end_p + 3;
			if (addr)
				addr += ksrc.delta;
			if (n == nmax) {
				struct ksym *ns;

				nmax = nmax ? 2 * nmax : 4096;
				ns = realloc(ks->syms, nmax * sizeof(*ns));
				if (!ns) {
					fprintf(stderr, "ktrace: %s: out of memory: %s\n", path,
						what);
					free(ks->syms);
					free(ks->text);
					return -1;
				}
				ks->syms = ns;
			}
			ks->syms[n].addr = addr;
			ks->syms[n].index = n;
			ks->syms[n++].name = name;
			/* The range: the lowest and highest addresses, absolute ones aside. */
			if (addr && addr < lo)
				lo = addr;
			if (addr > hi)
				hi = addr;
			if (!strchr(name, '\t')) {
				if (addr > core_hi)
					core_hi = addr;
				if (!strcmp(name, "_end"))
					end = addr;
			}
		}
		p = nl ? nl + 1 : p + strlen(p);
	}
	if (!hi) {
		fprintf(stderr, "ktrace: %s hides addresses (kptr_restrict): %s\n", path, what);
		free(ks->syms);
		free(ks->text);
		memset(ks, 0, sizeof(*ks));
		return -1;
	}
	ks->nr = n;
	ks->lo = lo;
	ks->hi = hi > UINT64_MAX - KT_RANGE_SLACK ? UINT64_MAX : hi + KT_RANGE_SLACK;
	ks->core_end = end ? end : core_hi;
	qsort(ks->syms, n, sizeof(*ks->syms), ksym_cmp);
	return 0;
}

/* Whether v is in the kernel's address range (see the top of this file). */
static bool in_range(const struct kallsyms *ks, uint64_t v)
{
	return v >= ks->lo && v <= ks->hi;
}

/*
 * addr as the kernel's %pS prints it: "name+0xoff/0xsize", and
 * " [module]" for a module's symbol.  NULL if no symbol covers it (or out
 * of memory).  See the top of this file for the approximations.
 */
static char *resolve(const struct kallsyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->nr, i, j;
	const char *name, *mod;
	uint64_t size;
	char *s;
	int len;

	/* The last symbol at or below addr ... */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	i = lo - 1;
	/* ... the first of its aliases, and the next higher address. */
	while (i && ks->syms[i - 1].addr == ks->syms[i].addr)
		i--;
	for (j = i + 1; j < ks->nr && ks->syms[j].addr == ks->syms[i].addr; j++)
		;
	mod = ksym_module(&ks->syms[i]);
	if (!mod) {
		/* The core kernel ends at _end: beyond, no symbol of it. */
		if (addr > ks->core_end || j == ks->nr || ksym_module(&ks->syms[j]))
			return NULL;
		size = ks->syms[j].addr - ks->syms[i].addr;
	} else {
		size_t k;

		/* The next symbol of the same module, within reach ... */
		for (k = j; k < ks->nr && ks->syms[k].addr - ks->syms[i].addr < KT_RANGE_SLACK;
		     k++) {
			const char *m = ksym_module(&ks->syms[k]);

			if (m && !strcmp(m, mod))
				break;
		}
		if (k < ks->nr && ks->syms[k].addr - ks->syms[i].addr < KT_RANGE_SLACK) {
			size = ks->syms[k].addr - ks->syms[i].addr;
		} else {
			/* ... or, its last one, the next symbol whatever it is. */
			if (j == ks->nr || addr - ks->syms[i].addr >= KT_RANGE_SLACK)
				return NULL;
			size = ks->syms[j].addr - ks->syms[i].addr;
		}
		/* BPF programs and ftrace's trampolines: no module to name. */
		if (!strcmp(mod, "[bpf]") || !strncmp(mod, "[__builtin__", 12))
			mod = NULL;
	}
	name = ks->syms[i].name;
	len = strcspn(name, "\t");
	if (asprintf(&s, "%.*s+0x%llx/0x%llx%s%s", len, name,
		     (unsigned long long)(addr - ks->syms[i].addr), (unsigned long long)size,
		     mod ? " " : "", mod ? mod : "") < 0)
		return NULL;
	return s;
}

static size_t hash_of(uint64_t v, size_t size)
{
	return (size_t)((v * 0x9e3779b97f4a7c15ULL) >> 32) & (size - 1);
}

/* The entry of value v, added if new; NULL when out of memory. */
static struct kval *kval_get(struct kvals *k, uint64_t v, unsigned int size)
{
	size_t h, i;

	if (k->nr * 2 >= k->hash_size) {
		size_t ns = k->hash_size ? 2 * k->hash_size : 1024;
		size_t *nh = calloc(ns, sizeof(*nh));

		if (!nh)
			return NULL;
		for (i = 0; i < k->nr; i++) {
			for (h = hash_of(k->v[i].value, ns); nh[h]; h = (h + 1) & (ns - 1))
				;
			nh[h] = i + 1;
		}
		free(k->hash);
		k->hash = nh;
		k->hash_size = ns;
	}
	for (h = hash_of(v, k->hash_size); k->hash[h]; h = (h + 1) & (k->hash_size - 1))
		if (k->v[k->hash[h] - 1].value == v)
			return &k->v[k->hash[h] - 1];
	if (k->nr == k->max) {
		size_t nm = k->max ? 2 * k->max : 256;
		struct kval *nv = realloc(k->v, nm * sizeof(*nv));

		if (!nv)
			return NULL;
		k->v = nv;
		k->max = nm;
	}
	k->hash[h] = k->nr + 1;
	memset(&k->v[k->nr], 0, sizeof(k->v[k->nr]));
	k->v[k->nr].value = v;
	k->v[k->nr].size = size;
	return &k->v[k->nr++];
}

static bool is_kaddr(const struct kt_field *f)
{
	return f->display == KTRACE_DISPLAY_SYMBOL || (f->flags & KTRACE_FIELD_KADDR);
}

/* The lowest address of the kernel half, with 48-bit virtual addresses. */
#define KT_KERNEL_HALF		0xffff800000000000ULL

/*
 * Hide: in the text s, len bytes, every "0x" and 8 to 16 hexadecimal
 * digits whose value is in the kernel's range or in the kernel half gets
 * 'x' in place of its digits, the length kept.  Returns how many.
 */
static size_t scrub_text(char *s, size_t len, const struct kallsyms *ks)
{
	size_t i, j, n = 0;

	for (i = 0; i + 2 < len; i++) {
		uint64_t v = 0;

		if (s[i] != '0' || (s[i + 1] != 'x' && s[i + 1] != 'X'))
			continue;
		for (j = i + 2; j < len && isxdigit((unsigned char)s[j]); j++)
			v = v << 4 | (isdigit((unsigned char)s[j]) ? s[j] - '0' :
				      (tolower((unsigned char)s[j]) - 'a' + 10));
		if (j - i - 2 >= 8 && j - i - 2 <= 16 &&
		    (in_range(ks, v) || v >= KT_KERNEL_HALF)) {
			memset(s + i + 2, 'x', j - i - 2);
			n++;
		}
		i = j - 1;
	}
	return n;
}

/*
 * Every kernel-address field of an expanded event (a compact payload of
 * 32 bits holds no 64-bit address): its value collected and, with hide,
 * replaced in the stream's bytes, which kt_open() holds in memory; with
 * hide, also the addresses written in its strings.
 */
static int collect(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct kvals *k = arg;
	const struct kt_event *ev = r->event;
	unsigned int i;

	(void)t;
	if (!ev || r->id != KTRACE_ID_EXPANDED)
		return 0;
	for (i = 0; i < ev->nr_fields; i++) {
		const struct kt_field *f = &ev->fields[i];
		/* The stream's bytes, which kt_open() copied: ours to patch. */
		unsigned char *p = (unsigned char *)r->data + f->offset;
		uint64_t v = 0, token;
		struct kval *kv;

		if (k->hide && f->display == KTRACE_DISPLAY_STRING && f->offset < r->length) {
			/* A string of size 0 runs to the end of the record. */
			size_t len = r->length - f->offset;

			if (f->size && f->size < len)
				len = f->size;
			k->scrubbed += scrub_text((char *)p, len, k->ks);
			continue;
		}
		if (!is_kaddr(f) || !f->size || f->size > sizeof(v) ||
		    f->offset + f->size > r->length)
			continue;
		/* As report reads it: the traced machine's byte order is ours. */
		memcpy(&v, p, f->size);
		if (!v)
			continue;
		kv = kval_get(k, v, f->size);
		if (!kv) {
			k->oom = true;
			return -1;
		}
		if (!k->hide)
			continue;
		/* A symbol gets its token; another kernel address, 0. */
		if (f->display == KTRACE_DISPLAY_SYMBOL && !kv->token)
			kv->token = ++k->next_token;
		token = f->display == KTRACE_DISPLAY_SYMBOL ? kv->token : 0;
		memcpy(p, &token, f->size);
	}
	return 0;
}

/*
 * The 8-byte windows of p, len bytes, at every byte offset, whose value
 * is in the kernel's range: zeroed if zero, else the offset of the first
 * in *first.  Returns how many.
 */
static size_t range_scan(unsigned char *p, size_t len, const struct kallsyms *ks, bool zero,
			 size_t *first)
{
	size_t i, n = 0;

	for (i = 0; i + sizeof(uint64_t) <= len; i++) {
		uint64_t v;

		/* The traced machine's byte order is ours, as report assumes. */
		memcpy(&v, p + i, sizeof(v));
		if (!in_range(ks, v))
			continue;
		if (!n++ && first)
			*first = i;
		if (!zero)
			return n;
		memset(p + i, 0, sizeof(v));
	}
	return n;
}

/* The symbols section's text: "VALUE SYMBOL" lines. */
static char *symbols_text(const struct kvals *k, size_t *len)
{
	char *text = NULL;
	FILE *m = open_memstream(&text, len);
	size_t i;

	if (!m)
		return NULL;
	if (k->hide)
		fputs("# hidden\n", m);
	for (i = 0; i < k->nr; i++) {
		const struct kval *kv = &k->v[i];

		if (k->hide && kv->token)
			fprintf(m, "%llx %s\n", (unsigned long long)kv->token,
				kv->symbol ? kv->symbol : "?");
		else if (!k->hide && kv->symbol)
			fprintf(m, "%llx %s\n", (unsigned long long)kv->value, kv->symbol);
	}
	if (fclose(m)) {
		free(text);
		return NULL;
	}
	return text;
}

/*
 * Whether the file at path still holds an 8-byte value in the kernel's
 * range, at any byte offset; -1 on error.
 */
static int addresses_left(const char *path, const struct kallsyms *ks)
{
	struct stat st;
	unsigned char *map;
	size_t first = 0;
	int fd, left = 0;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	map = st.st_size ? mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	if (map && range_scan(map, st.st_size, ks, false, &first)) {
		uint64_t v;

		memcpy(&v, map + first, sizeof(v));
		fprintf(stderr, "ktrace: %s: offset %zu: kernel address 0x%llx still in the file\n",
			path, first, (unsigned long long)v);
		left = 1;
	}
	if (map)
		munmap(map, st.st_size);
	return left;
}

/* Append the symbols section to the file at path. */
static int append_symbols(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "r+b");
	struct ktf_section end;
	bool has_end = false;

	/* Before the end section of the file (trace.h), which stays last. */
	if (f && !fseek(f, -(long)sizeof(end), SEEK_END) && fread(&end, sizeof(end), 1, f) == 1)
		has_end = le32toh(end.type) == KTF_END && !end.length;
	if (f && fseek(f, has_end ? -(long)sizeof(end) : 0, SEEK_END))
		goto fail;
	if (!f || kt_put_section(f, KTF_SYMBOLS, 0, 0, text, len) ||
	    (has_end && kt_put_section(f, KTF_END, 0, 0, NULL, 0))) {
fail:
		fprintf(stderr, "ktrace: %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	if (fclose(f)) {
		fprintf(stderr, "ktrace: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Write the trace anew to path, through a temporary file renamed over it:
 * one section per stream (their records patched), the text sections, and
 * the symbols section in place of any earlier one.  Then check that no
 * value in the kernel's range is left.  The temporary file is mkstemp()'s
 * 0600 until then: it gets the trace's mode just before the rename.
 */
static int rewrite(const char *path, const struct kt_trace *t, const struct kallsyms *ks,
		   const char *text, size_t len)
{
	struct stat st;
	char *tmp = NULL;
	FILE *f = NULL;
	int fd, left;

	if (asprintf(&tmp, "%s.hide-XXXXXX", path) < 0) {
		tmp = NULL;
		goto fail;
	}
	if (stat(path, &st))
		goto fail;
	fd = mkstemp(tmp);
	if (fd < 0)
		goto fail;
	f = fdopen(fd, "wb");
	if (!f) {
		close(fd);
		goto fail_tmp;
	}
	if (kt_put_trace(f, t, text, len))
		goto fail_tmp;
	if (fflush(f) || fsync(fileno(f)))
		goto fail_tmp;
	if (fclose(f)) {
		f = NULL;
		goto fail_tmp;
	}
	f = NULL;
	left = addresses_left(tmp, ks);
	if (left) {
		if (left < 0)
			fprintf(stderr, "ktrace: %s: %s\n", tmp, strerror(errno));
		fprintf(stderr, "ktrace: %s: kernel addresses not hidden: file not rewritten\n",
			path);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	/* Checked: now the trace's mode. */
	if (chmod(tmp, st.st_mode & 07777) || rename(tmp, path))
		goto fail_tmp;
	free(tmp);
	return 0;
fail_tmp:
	fprintf(stderr, "ktrace: %s: %s\n", tmp, strerror(errno));
	if (f)
		fclose(f);
	unlink(tmp);
	free(tmp);
	return -1;
fail:
	fprintf(stderr, "ktrace: %s: %s\n", path, strerror(errno));
	free(tmp);
	return -1;
}

/* /proc/kallsyms, or the file $KTRACE_KALLSYMS names. */
const char *kt_kallsyms_default(void)
{
	const char *kpath = getenv("KTRACE_KALLSYMS");

	return kpath && *kpath ? kpath : "/proc/kallsyms";
}

/* kt_kallsyms_default(), or what kt_symbols_source() set (NULL: none). */
static const char *kallsyms_path(void)
{
	return ksrc.set ? ksrc.path : kt_kallsyms_default();
}

void kt_symbols_source(const char *path, uint64_t delta)
{
	ksrc.set = true;
	ksrc.path = path;
	ksrc.delta = delta;
}

uint64_t kt_symbols_text_addr(const char *path)
{
	unsigned long long addr, found = 0;
	char line[512], type;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c _text%c", &addr, &type, &type) == 3 && type == '\n')
			found = addr;
	fclose(f);
	return found;
}

/**
 * kt_symbols_can_hide() - whether kt_symbols_save() will be able to hide
 * @cmd: the command, for the message
 *
 * Hiding needs the kernel's address range from kallsyms: record and
 * extract check for it before they change anything.
 *
 * Return: 0, or -1 after saying why on stderr.
 */
int kt_symbols_can_hide(const char *cmd)
{
	struct kallsyms ks;
	char *what = NULL;
	int ret;

	if (ksrc.set && !ksrc.path) {
		fprintf(stderr,
			"ktrace %s --no-kernel-addresses needs the kernel's address range: no kallsyms of the traced kernel\n",
			cmd);
		return -1;
	}
	if (asprintf(&what, "ktrace %s --no-kernel-addresses needs the kernel's address range",
		     cmd) < 0)
		what = NULL;
	ret = kallsyms_read(&ks, kallsyms_path(), what ? what : "no kernel address range");
	free(what);
	if (ret)
		return -1;
	free(ks.syms);
	free(ks.text);
	return 0;
}

/**
 * kt_symbols_save() - add the kernel symbols to a trace, or hide them
 * @path: the closed, complete trace file
 * @hide: replace every kernel address of the file by a token
 *
 * Resolves the distinct values of the kernel-address fields against
 * /proc/kallsyms (or $KTRACE_KALLSYMS) and appends them as a symbols
 * section; when kallsyms cannot be read or hides its addresses, warns and
 * saves no symbol.  With @hide, writes the file anew with tokens in place
 * of the addresses and every other value in the kernel's range zeroed
 * (see the top of this file); that needs the range, from kallsyms: without
 * it, fails.
 *
 * Return: 0, or -1 after saying why on stderr (the file is then as it
 * was).
 */
int kt_symbols_save(const char *path, bool hide)
{
	const char *kpath = kallsyms_path();
	struct kvals k = { .hide = hide };
	struct kallsyms ks = { 0 };
	size_t len = 0, i, zeroed = 0;
	bool have_ks;
	struct kt_trace t;
	char *text = NULL;
	int ret = -1;

	if (kt_open(&t, path))
		return -1;
	have_ks = kpath && !kallsyms_read(&ks, kpath, hide ? "no kernel address range" :
					  "symbols not saved");
	if (hide && !have_ks) {
		/* Without the range, undecoded data may hold addresses. */
		fprintf(stderr, "ktrace: %s: kernel addresses cannot be hidden without kallsyms\n",
			path);
		goto out;
	}
	k.ks = &ks;
	/* collect() prints no field: no key to follow. */
	t.no_keys = true;
	if (kt_merge(&t, collect, &k) || k.oom) {
		fprintf(stderr, "ktrace: %s: out of memory\n", path);
		goto out;
	}
	if (hide) {
		/* What the decoder did not deliver, or no metadata describes. */
		for (i = 0; i < t.nr_streams; i++)
			zeroed += range_scan(t.streams[i].data, t.streams[i].size, &ks, true,
					     NULL);
		if (zeroed)
			fprintf(stderr,
				"ktrace: %zu further kernel addresses in undecoded data zeroed\n",
				zeroed);
		for (i = KTF_UNAME; i < KTF_SYMBOLS; i++)
			if (t.text[i])
				k.scrubbed += scrub_text(t.text[i], strlen(t.text[i]), &ks);
		if (!k.nr && !zeroed && !k.scrubbed) {
			/* Nothing to hide, it seems: the file itself must agree. */
			ret = addresses_left(path, &ks) ? -1 : 0;
			if (ret)
				fprintf(stderr, "ktrace: %s: kernel addresses not hidden\n", path);
			goto out;
		}
	} else if (!k.nr) {
		ret = 0;		/* no kernel address: nothing to add */
		goto out;
	}
	if (have_ks)
		for (i = 0; i < k.nr; i++)
			k.v[i].symbol = resolve(&ks, k.v[i].value);
	text = symbols_text(&k, &len);
	if (!text) {
		fprintf(stderr, "ktrace: %s: out of memory\n", path);
		goto out;
	}
	if (hide)
		ret = rewrite(path, &t, &ks, text, len);
	else
		ret = len ? append_symbols(path, text, len) : 0;
out:
	for (i = 0; i < k.nr; i++)
		free(k.v[i].symbol);
	free(k.v);
	free(k.hash);
	free(ks.syms);
	free(ks.text);
	free(text);
	kt_close(&t);
	return ret;
}
