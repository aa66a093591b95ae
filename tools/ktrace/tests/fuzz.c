// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes given to the decoder as a trace file must
 * give errors or warnings, never a crash, a hang or a leak; and every line
 * of report --json must be one whole, valid JSON object (checked here by a
 * small strict validator: abort() if not).  Built and run by "make fuzz"
 * (clang -fsanitize=fuzzer,address,undefined).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format.h"

/* libFuzzer's entry point, named on the compiler's command line. */
int KT_FUZZ_ENTRY(const uint8_t *data, size_t size);

static const char *json_value(const char *p, int depth);

static const char *json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* A string from its opening quote: RFC 8259 escapes, no control bytes. */
static const char *json_string(const char *p)
{
	int i;

	if (*p++ != '"')
		return NULL;
	for (;;) {
		unsigned char ch = *p++;

		if (ch == '"')
			return p;
		if (ch < 0x20)		/* control bytes, and the end of the line */
			return NULL;
		if (ch != '\\')
			continue;
		ch = *p++;
		if (ch == 'u') {
			for (i = 0; i < 4; i++, p++)
				if (!strchr("0123456789abcdefABCDEF", *p) || !*p)
					return NULL;
		} else if (!ch || !strchr("\"\\/bfnrt", ch)) {
			return NULL;
		}
	}
}

static const char *json_digits(const char *p)
{
	if (*p < '0' || *p > '9')
		return NULL;
	while (*p >= '0' && *p <= '9')
		p++;
	return p;
}

static const char *json_number(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else
		p = json_digits(p);
	if (p && *p == '.')
		p = json_digits(p + 1);
	if (!p)
		return NULL;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		p = json_digits(p);
	}
	return p;
}

/* A value, objects and arrays included; NULL if invalid. */
static const char *json_value(const char *p, int depth)
{
	char close;

	if (depth > 16)
		return NULL;
	p = json_ws(p);
	if (*p == '"')
		return json_string(p);
	if (!strncmp(p, "null", 4) || !strncmp(p, "true", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	if (*p != '{' && *p != '[')
		return json_number(p);
	close = *p == '{' ? '}' : ']';
	p = json_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (close == '}') {
			p = json_string(json_ws(p));
			if (!p)
				return NULL;
			p = json_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = json_value(p, depth + 1);
		if (!p)
			return NULL;
		p = json_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static int one(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct kt_buf *b = arg;
	const char *end;

	if (kt_format(t, r, b))
		return -1;
	if (b->len > KT_LINE_MAX || b->p[b->len - 1] != '\n')
		abort();
	/* report --json: a whole line, one valid object. */
	if (kt_format_json(t, r, "1.000000000", "\"realtime\":\"2.0\",", b))
		return -1;
	end = b->p[0] == '{' ? json_value(b->p, 0) : NULL;
	if (!end || *end || b->p[b->len - 1] != '}' || strlen(b->p) != b->len)
		abort();
	return 0;
}

/* convert --ctf: every file of the CTF trace written to /dev/null. */
static FILE *ctf_null(void *arg, const char *name)
{
	(void)arg;
	(void)name;
	return fopen("/dev/null", "w");
}

int KT_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	static FILE *null;		/* the analyses' output, opened once */
	struct kt_trace *t = malloc(sizeof(*t));
	struct kt_buf b = { .grow = true };
	static const char *const lat_kinds[] = {
		"block", "syscall", "wakeup", "irq", "irqsoff", "timer",
	};
	struct kt_stream_stats st;
	struct kt_set set;
	unsigned int i;

	if (!t)
		return 0;
	/* Warnings are expected: keep them off the fuzzer's output. */
	if (!kt_open_mem(t, "fuzz", data, size)) {
		t->warnings = 1000;
		kt_merge(t, one, &b);
		set = (struct kt_set){ .traces = t, .nr = 1 };
		/* Both layouts: ktrace's (false) and LTTng's (true). */
		kt_ctf_write(&set, "fuzz", false, ctf_null, NULL);
		kt_ctf_write(&set, "fuzz", true, ctf_null, NULL);
		for (i = 0; i < t->nr_streams; i++)
			kt_stream_stats(t, &t->streams[i], &st, NULL);
		if (!null)
			null = fopen("/dev/null", "w");
		if (null) {
			/* ktrace latency, of a kind the input's size picks. */
			kt_latency(&set, lat_kinds[size % 6], null);
			/* ktrace io (relative to the trigger for odd sizes) and reclaim. */
			kt_analyze(&set, size & 1, null);
			/* ktrace profile (JSON for sizes with bit 1 set). */
			kt_profile(&set, size & 2, null);
			/* ktrace convert --ftrace. */
			kt_ftrace_write(t, "fuzz", null);
		}
		kt_close(t);
	}
	free(b.p);
	free(t);
	return 0;
}
