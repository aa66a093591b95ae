/* SPDX-License-Identifier: GPL-2.0 */
/* ktrace harness: static keys are flags. */
#ifndef _KTRACE_HARNESS_JUMP_LABEL_H
#define _KTRACE_HARNESS_JUMP_LABEL_H

struct static_key_false {
	int enabled;
};

#define DECLARE_STATIC_KEY_FALSE(name)	extern struct static_key_false name
#define DEFINE_STATIC_KEY_FALSE(name)	struct static_key_false name = { 0 }
#define static_branch_likely(key)	likely((key)->enabled)
#define static_branch_unlikely(key)	unlikely((key)->enabled)
#endif /* _KTRACE_HARNESS_JUMP_LABEL_H */
