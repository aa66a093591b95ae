// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the ktrace trace clock.
 */
#include <kunit/test.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/time64.h>

#include "clock_latch.h"
#include "ktrace_internal.h"

struct clock_shift_case {
	const char *name;
	u64 freq_hz;
	unsigned int shift;
};

/* Expected shifts worked out by hand: 2^shift <= 64e-9 * freq < 2^(shift+1). */
static const struct clock_shift_case clock_shift_cases[] = {
	{ "unknown frequency", 0, 0 },
	{ "1 MHz, slower than the unit", 1000000, 0 },
	{ "15.625 MHz, one count per unit", 15625000, 0 },
	{ "31.25 MHz, two counts per unit", 31250000, 1 },
	{ "just under 31.25 MHz", 31249999, 0 },
	{ "1 GHz nanosecond clock", NSEC_PER_SEC, 6 },
	{ "2.4 GHz TSC", 2400000000ULL, 7 },
	{ "3 GHz TSC", 3000000000ULL, 7 },
	{ "3.99 GHz TSC", 3990000000ULL, 7 },
	{ "4 GHz TSC, exactly 64 ns", 4000000000ULL, 8 },
	{ "4.1 GHz TSC", 4100000000ULL, 8 },
	{ "largest frequency", U64_MAX, 34 },
};

static void clock_shift_case_desc(const struct clock_shift_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(clock_shift, clock_shift_cases, clock_shift_case_desc);

static void clock_shift_table_test(struct kunit *test)
{
	const struct clock_shift_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ktrace_clock_shift(c->freq_hz), c->shift);
}

/*
 * For every frequency from 15.625 MHz to 100 GHz in steps of about 0.1%, one
 * unit is at most 64 ns and a unit twice as long would exceed it.
 */
static void clock_shift_bound_test(struct kunit *test)
{
	u64 freq;

	for (freq = 15625000; freq <= 100000000000ULL; freq += freq / 1024 + 1) {
		unsigned int shift = ktrace_clock_shift(freq);
		u64 limit = freq * KTRACE_CLOCK_MAX_UNIT_NS;

		KUNIT_ASSERT_LE_MSG(test, (u64)NSEC_PER_SEC << shift, limit,
				    "unit too long at %llu Hz", freq);
		KUNIT_ASSERT_GT_MSG(test, (u64)NSEC_PER_SEC << (shift + 1), limit,
				    "unit could be longer at %llu Hz", freq);
	}
}

/* The clock chosen at boot obeys the same rule. */
static void clock_boot_choice_test(struct kunit *test)
{
	KUNIT_EXPECT_NE(test, ktrace_clock.freq_hz, 0);
	KUNIT_EXPECT_EQ(test, ktrace_clock.shift,
			ktrace_clock_shift(ktrace_clock.freq_hz));
	KUNIT_EXPECT_LE(test,
			mul_u64_u64_div_u64(NSEC_PER_SEC, 1ULL << ktrace_clock.shift,
					    ktrace_clock.freq_hz),
			KTRACE_CLOCK_MAX_UNIT_NS);
}

/*
 * The TSC given up at 1000 s of uptime: the emulated clock starts at the
 * TSC's value then, never goes below it, and advances at the TSC's rate,
 * within a part per million over a week.
 */
static void clock_emulate_test(struct kunit *test)
{
	static const u64 rates[] = { 1000000000ULL, 2596188000ULL, 3990000000ULL,
				     5200000000ULL };
	const u64 at = 1000 * NSEC_PER_SEC, tsc = 0x123456789abULL;
	const u64 week = 7ULL * 24 * 3600 * NSEC_PER_SEC;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rates); i++) {
		struct ktrace_clock_info c = { .freq_hz = rates[i] };
		u64 want, got;

		c.shift = ktrace_clock_shift(c.freq_hz);
		ktrace_clock_emulate_from(&c, at, tsc);
		KUNIT_EXPECT_STREQ(test, c.name, "tsc-mono");
		KUNIT_EXPECT_EQ(test, ktrace_clock_emulate(at, &c), tsc);
		KUNIT_EXPECT_EQ(test, ktrace_clock_emulate(at - 5000, &c), tsc);

		got = ktrace_clock_emulate(at + NSEC_PER_SEC, &c) - tsc;
		want = rates[i];
		KUNIT_EXPECT_LE_MSG(test, abs_diff(got, want), want / 1000000,
				    "one second at %llu Hz: %llu counts", want, got);

		got = ktrace_clock_emulate(at + week, &c) - tsc;
		want = mul_u64_u64_div_u64(week, rates[i], NSEC_PER_SEC);
		KUNIT_EXPECT_LE_MSG(test, abs_diff(got, want), want / 1000000,
				    "a week at %llu Hz: %llu counts", rates[i], got);
		/* Monotonic in between. */
		KUNIT_EXPECT_LE(test, ktrace_clock_emulate(at + 999, &c),
				ktrace_clock_emulate(at + 1000, &c));
	}
}

/* Only the exact names; anything else is -EINVAL. */
static void clock_parse_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ktrace_clock_parse("tsc"), KTRACE_CLOCK_TSC);
	KUNIT_EXPECT_EQ(test, ktrace_clock_parse("mono"), KTRACE_CLOCK_MONO);
	KUNIT_EXPECT_EQ(test, ktrace_clock_parse(""), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktrace_clock_parse("TSC"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktrace_clock_parse("mono "), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktrace_clock_parse("monotonic"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktrace_clock_parse("tsc-mono"), -EINVAL);
}

struct clock_caps_case {
	const char *name;
	struct ktrace_clock_caps caps;
	int tsc;		/* ktrace_clock_allowed() of "tsc" */
	const char *cur;	/* the current clock */
	const char *list;	/* ktrace_clock_list() */
};

static const struct clock_caps_case clock_caps_cases[] = {
	{ "no TSC", { }, -ENODEV, "mono", "[mono]\n" },
	{ "no TSC, forced", { .tsc_forced = true }, -ENODEV, "mono", "[mono]\n" },
	{ "trusted TSC", { .tsc = true, .tsc_trusted = true }, 0, "tsc",
	  "[tsc] mono\n" },
	{ "trusted TSC, mono chosen", { .tsc = true, .tsc_trusted = true }, 0,
	  "mono", "tsc [mono]\n" },
	{ "untrusted TSC", { .tsc = true }, -EOPNOTSUPP, "mono", "[mono]\n" },
	{ "untrusted TSC, forced", { .tsc = true, .tsc_forced = true }, 0, "tsc",
	  "[tsc] mono\n" },
	{ "TSC found unstable while chosen", { .tsc = true }, -EOPNOTSUPP, "tsc",
	  "[tsc] mono\n" },
	{ "TSC given up", { .tsc = true }, -EOPNOTSUPP, "tsc-mono",
	  "mono [tsc-mono]\n" },
};

static void clock_caps_case_desc(const struct clock_caps_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(clock_caps, clock_caps_cases, clock_caps_case_desc);

/* What can be chosen, and what reading the control file shows. */
static void clock_caps_test(struct kunit *test)
{
	const struct clock_caps_case *c = test->param_value;
	char buf[64];
	int len;

	KUNIT_EXPECT_EQ(test, ktrace_clock_allowed(KTRACE_CLOCK_TSC, &c->caps), c->tsc);
	KUNIT_EXPECT_EQ(test, ktrace_clock_allowed(KTRACE_CLOCK_MONO, &c->caps), 0);
	KUNIT_EXPECT_EQ(test, ktrace_clock_allowed(KTRACE_NR_CLOCKS, &c->caps), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktrace_clock_allowed(-EINVAL, &c->caps), -EINVAL);
	len = ktrace_clock_list(buf, sizeof(buf), &c->caps, c->cur);
	KUNIT_EXPECT_STREQ(test, buf, c->list);
	KUNIT_EXPECT_EQ(test, len, strlen(c->list));
	/* A short buffer: truncated, never overrun, still terminated. */
	len = ktrace_clock_list(buf, 4, &c->caps, c->cur);
	KUNIT_EXPECT_EQ(test, len, 3);
	KUNIT_EXPECT_EQ(test, strlen(buf), 3);
}

/*
 * What ktrace_set_clock() does with each name, from each current clock:
 * 1 changes the clock, 0 changes nothing, else the errno.
 */
static void clock_change_test(struct kunit *test)
{
	static const struct ktrace_clock_caps none = { },
		trusted = { .tsc = true, .tsc_trusted = true },
		untrusted = { .tsc = true },
		forced = { .tsc = true, .tsc_forced = true };
	static const struct {
		const struct ktrace_clock_caps *caps;
		const char *cur;
		int tsc, mono;
	} cases[] = {
		{ &none, "mono", -ENODEV, 0 },
		{ &trusted, "tsc", 0, 1 },
		{ &trusted, "mono", 1, 0 },
		{ &untrusted, "mono", -EOPNOTSUPP, 0 },
		/* Found unstable since it was chosen, not yet given up. */
		{ &untrusted, "tsc", 0, 1 },
		{ &forced, "mono", 1, 0 },
		{ &forced, "tsc", 0, 1 },
		/* Given up: "tsc" gives "tsc-mono" again at the next start. */
		{ &untrusted, "tsc-mono", -EOPNOTSUPP, 1 },
		{ &forced, "tsc-mono", 0, 1 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct ktrace_clock_caps *caps = cases[i].caps;
		const char *cur = cases[i].cur;

		KUNIT_EXPECT_EQ_MSG(test, ktrace_clock_change(KTRACE_CLOCK_TSC, cur, caps),
				    cases[i].tsc, "tsc from %s, case %u", cur, i);
		KUNIT_EXPECT_EQ_MSG(test, ktrace_clock_change(KTRACE_CLOCK_MONO, cur, caps),
				    cases[i].mono, "mono from %s, case %u", cur, i);
		KUNIT_EXPECT_EQ(test, ktrace_clock_change(-EINVAL, cur, caps), -EINVAL);
		KUNIT_EXPECT_EQ(test, ktrace_clock_change(KTRACE_NR_CLOCKS, cur, caps),
				-EINVAL);
	}
}

static void clock_conv_restore(void *orig)
{
	mutex_lock(&ktrace_mutex);
	ktrace_clock_conv_write(orig);
	mutex_unlock(&ktrace_mutex);
}

/*
 * A clock change interrupted half-way (the new rate written, not yet the
 * new shift and reference): a reader converts with the old set whole,
 * then, once the latch moved, with the new set whole, never a mix.  The
 * sets differ in every field, so that any mix gives another result.  The
 * test writes the latch as ktrace_clock_set_ref() does, under ktrace_mutex
 * (its writers' lock); nothing in the locked part may abort the test.
 */
static void clock_conv_torn_test(struct kunit *test)
{
	struct ktrace_clock_latch *l = &ktrace_clock_latch;
	const struct ktrace_clock_conv new = {
		.freq_hz = 2400000000ULL, .shift = 7,
		.ref_clock = 1000000, .ref_mono_ns = 5 * NSEC_PER_SEC,
	};
	struct ktrace_clock_conv *orig = kunit_kzalloc(test, sizeof(*orig), GFP_KERNEL);
	const struct ktrace_clock_conv old = {
		.freq_hz = NSEC_PER_SEC, .shift = 6,
		.ref_clock = 3000, .ref_mono_ns = 2 * NSEC_PER_SEC,
	};
	const u64 at = 2000000, units = 1000;
	/* Worked out by hand from the two sets. */
	const u64 old_ns = 2 * NSEC_PER_SEC + (at - 3000) * 64, old_delta = units * 64;
	const u64 new_ns = 5 * NSEC_PER_SEC + 53333333, new_delta = 53333;
	struct ktrace_clock_conv c;
	unsigned int seq;

	KUNIT_ASSERT_NOT_NULL(test, orig);
	ktrace_clock_conv_get(orig);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, clock_conv_restore, orig), 0);
	mutex_lock(&ktrace_mutex);
	ktrace_clock_conv_write(&old);
	KUNIT_EXPECT_EQ(test, ktrace_clock_ns(at), old_ns);
	KUNIT_EXPECT_EQ(test, ktrace_clock_delta_ns(units), old_delta);

	/* The writer, as ktrace_clock_conv_write(), stopped in conv[0]. */
	seq = raw_read_seqcount_latch(&l->seq);
	KUNIT_EXPECT_EQ(test, seq & 1, 0);
	write_seqcount_latch_begin(&l->seq);
	l->conv[0].freq_hz = new.freq_hz;
	KUNIT_EXPECT_EQ(test, ktrace_clock_ns(at), old_ns);
	KUNIT_EXPECT_EQ(test, ktrace_clock_delta_ns(units), old_delta);
	KUNIT_EXPECT_EQ(test, ktrace_clock_units(old_delta), units);
	ktrace_clock_get_ref(&c.ref_clock, &c.ref_mono_ns);
	KUNIT_EXPECT_EQ(test, c.ref_clock, old.ref_clock);
	l->conv[0] = new;
	/* Then in conv[1]. */
	write_seqcount_latch(&l->seq);
	l->conv[1].freq_hz = new.freq_hz;
	KUNIT_EXPECT_EQ(test, ktrace_clock_ns(at), new_ns);
	KUNIT_EXPECT_EQ(test, ktrace_clock_delta_ns(units), new_delta);
	ktrace_clock_conv_get(&c);
	KUNIT_EXPECT_EQ(test, c.shift, new.shift);
	KUNIT_EXPECT_EQ(test, c.ref_mono_ns, new.ref_mono_ns);
	l->conv[1] = new;
	write_seqcount_latch_end(&l->seq);
	mutex_unlock(&ktrace_mutex);
	KUNIT_EXPECT_EQ(test, ktrace_clock_ns(at), new_ns);
}

static struct kunit_case ktrace_clock_cases[] = {
	KUNIT_CASE_PARAM(clock_shift_table_test, clock_shift_gen_params),
	KUNIT_CASE(clock_shift_bound_test),
	KUNIT_CASE(clock_boot_choice_test),
	KUNIT_CASE(clock_emulate_test),
	KUNIT_CASE(clock_parse_test),
	KUNIT_CASE_PARAM(clock_caps_test, clock_caps_gen_params),
	KUNIT_CASE(clock_change_test),
	KUNIT_CASE(clock_conv_torn_test),
	{}
};

static struct kunit_suite ktrace_clock_suite = {
	.name = "ktrace_clock",
	.test_cases = ktrace_clock_cases,
};

kunit_test_suite(ktrace_clock_suite);

MODULE_DESCRIPTION("KUnit tests for the ktrace trace clock");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
