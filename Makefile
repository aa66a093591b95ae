# SPDX-License-Identifier: GPL-2.0
# The ktrace driver: turns this repository into a patched Linux 6.12 kernel,
# boots it in QEMU and tests it.  See README.md.  Never enters the kernel tree.

SHELL := /bin/bash
CI := .ci

.PHONY: help run check bench bisect series prepare kernel initramfs boot kunit-um clean distclean

help:
	@echo "make run      build the patched kernel, boot it, show ktrace at work"
	@echo "make check    every test (KUnit, kselftests, host tests, static checks)"
	@echo "make bench    benchmarks (ktrace against ftrace in one guest boot)"
	@echo "make series   write the git-am-able series to out/series/"
	@echo "make bisect   every patch of the series builds and passes the tests it adds"
	@echo "make prepare  update the prepared kernel tree in out/src/"
	@echo "make kernel   build the guest kernel (out/build/guest)"
	@echo "make boot     boot the guest and run the demo (JOB=run|check)"
	@echo "make kunit-um the KUnit suites in UML: the fast loop for core code"
	@echo "make clean    remove builds, keep the unpacked tree"
	@echo "Variables: KSRC=/path/to/linux-6.12.y (default: Debian's linux-source-6.12)"

run:
	@$(CI)/run-demo

check:
	@$(CI)/check

bench:
	@$(CI)/bench

bisect:
	@$(CI)/bisect

series:
	@$(CI)/deps && $(CI)/prepare && KTRACE_MAIL=1 $(CI)/series

prepare:
	@$(CI)/deps && $(CI)/prepare

kernel: prepare
	@$(CI)/build guest

initramfs: prepare
	@$(CI)/initramfs

boot:
	@$(CI)/boot $(or $(JOB),run)

kunit-um:
	@$(CI)/kunit-um

clean:
	rm -rf out/build out/guest out/check out/series out/initramfs*

distclean:
	rm -rf out
