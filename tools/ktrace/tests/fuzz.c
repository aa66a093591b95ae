// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes given to the decoder as a trace file must
 * give errors or warnings, never a crash, a hang or a leak.  Built and run
 * by "make fuzz" (clang -fsanitize=fuzzer,address,undefined).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../trace.h"

/* libFuzzer's entry point, named on the compiler's command line. */
int KT_FUZZ_ENTRY(const uint8_t *data, size_t size);

static int one(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	char line[4096];

	(void)arg;
	kt_format(t, r, line, sizeof(line));
	/* report --json, with a line short enough to be cut short. */
	kt_format_json(t, r, "1.000000000", "\"realtime\":\"2.0\",", line, sizeof(line));
	return 0;
}

int KT_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	struct kt_trace *t = malloc(sizeof(*t));
	struct kt_stream_stats st;
	unsigned int i;

	if (!t)
		return 0;
	/* Warnings are expected: keep them off the fuzzer's output. */
	if (!kt_open_mem(t, "fuzz", data, size)) {
		t->warnings = 1000;
		kt_merge(t, one, NULL);
		for (i = 0; i < t->nr_streams; i++)
			kt_stream_stats(t, &t->streams[i], &st, NULL);
		kt_close(t);
	}
	free(t);
	return 0;
}
