#!/bin/sh
out=$1
KT=/sys/kernel/debug/ktrace
if [ "$(head -c 6 /dev/vda)" = PTEST1 ]; then
	echo "second boot" > /dev/console
	cat $KT/last_boot/info > /dev/console
	ls -l $KT/last_boot/*/ > /dev/console
	mkdir -p $out/lb
	for d in high medium low; do mkdir -p $out/lb/$d; cp $KT/last_boot/$d/* $out/lb/$d/; done
	cat $KT/last_boot/info > $out/lb/info
	echo 1 > $KT/last_boot/release
	sleep 1
	ls $KT > /dev/console
	exit 0
fi
echo PTEST1 | dd of=/dev/vda conv=notrunc 2>/dev/null; sync
cat $KT/last_boot/info > /dev/console
cat $KT/persist > /dev/console
echo 0 >$KT/events/enable
echo 1 >$KT/events/ktrace/enable
echo 1 >$KT/events/enable
echo 'panic last=5' >$KT/triggers
echo 1 >$KT/enable
for i in $(seq 3000); do ls / >/dev/null; done
cat $KT/stats > /dev/console
for i in $(seq 50); do echo "before-panic-$i" >$KT/mark; done
cat $KT/persist > /dev/console
[ -n "${POKE:-}" ] && echo "$POKE" > $KT/test/persist_poke
echo "panicking" > /dev/console
echo PANIC >/sys/kernel/debug/provoke-crash/DIRECT
