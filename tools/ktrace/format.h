/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/ktrace: events as text, the formatting of format.c: the lines of
 * report as the kernel's ascii pipe prints them, JSON, times and names.
 */
#ifndef KTRACE_FORMAT_H
#define KTRACE_FORMAT_H

#include "trace.h"

/*
 * A line being formatted, NUL-terminated.  With @grow,
 * kt_bufprintf() reallocates @p (malloc'ed or NULL; the caller frees it)
 * to fit all; without, it stops at @size.  @overflow: something was left
 * out, for want of room or of memory.
 */
struct kt_buf {
	char *p;
	size_t size, len;
	bool grow, overflow;
};

__printf(2, 3)
void kt_bufprintf(struct kt_buf *b, const char *fmt, ...);
void kt_json_string(struct kt_buf *b, const unsigned char *s, size_t len);
int kt_field_sysnr(const struct kt_record *r, bool *sat);
const char *kt_sysnr_word(char *buf, size_t size, int nr, bool sat);
/*
 * One line as the kernel's ascii pipe prints it, newline included, in @b:
 * cut as the kernel cuts it at KT_LINE_MAX bytes.  0, or -1 when out of
 * memory.
 */
#define KT_LINE_MAX	(32 * 1024)	/* ASCII_LINE_MAX of kernel/trace/ktrace/ascii.c */
int kt_format(struct kt_trace *t, const struct kt_record *r, struct kt_buf *b);
/* The same with @time, a word, in place of r->ns in the first column. */
int kt_format_time(struct kt_trace *t, const struct kt_record *r, const char *time,
		   struct kt_buf *b);
/* One JSON object, whole, no newline (see format.c); 0 or -1. */
int kt_format_json(struct kt_trace *t, const struct kt_record *r, const char *time,
		   const char *extra, struct kt_buf *b);
/* Whether @r is the record of a trigger that fired (ktrace:trigger). */
bool kt_is_trigger(const struct kt_record *r);
/* SECONDS.NANOSECONDS */
void kt_time_str(char *buf, size_t size, uint64_t ns);
/* kt_comm() with its spaces made '_', one word, as report prints it. */
void kt_comm_word(const struct kt_trace *t, int pid, char *comm, size_t size);
/* The kinds of a field's value. */
enum kt_value {
	KT_VALUE_NONE,		/* not in the record: "?", JSON null */
	KT_VALUE_WORD,		/* printed in the word buffer: a JSON string */
	KT_VALUE_SIGNED,	/* a number */
	KT_VALUE_UNSIGNED,
	KT_VALUE_STRING,	/* bytes of the record, quoted */
};

/* Field @f of @r as report prints it: in @b (a word, a string) or *@val. */
enum kt_value kt_field_text(struct kt_buf *b, const struct kt_trace *t,
			    const struct kt_field *f, const struct kt_record *r, uint64_t *val);

#endif /* KTRACE_FORMAT_H */
