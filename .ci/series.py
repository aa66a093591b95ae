#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Cut the repository into mailed series of commits (used by .ci/series).

The repository holds the final code.  patches/split/N-NAME lists, one line
per patch, the series NAME: "MSG ITEM...", where MSG is the commit message
patches/msg/MSG and the ITEMs are the new files the patch adds (a directory
takes every file below it; the longer entry owns a file two entries name)
and the upstream diffs of patches/series it applies.  The series are made in
the order of their N, each on top of the one before.

A file that grows over the series is added by its first patch; every later
patch that extends it has a grow diff, patches/grow/MSG-STEM.diff, applied
forward.  A file is first added as the final file with the grow diffs of the
later patches reverse-applied.

Two kinds of file are cut by rule, so that adding a file to a patch stays a
one-line change of patches/split:
  - Makefile: in an assignment, a word that names a file of the series
    (foo.o or foo for foo.c, foo.sh, dir/), relative to the Makefile's
    directory, is left out until that file exists; an assignment left with
    none of its series files is left out.
  - Kconfig: a "config SYM" entry is left out until a Makefile line that
    exists uses $(CONFIG_SYM).

usage: series.py TOP WORKTREE DESTDIR NAME EMAIL
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP, WORK, DEST, NAME, EMAIL = sys.argv[1:6]
MAINTAINER = f'{NAME} <{EMAIL}>'
MAX_LINES = 1500


def die(msg):
    print(f'ERROR: series: {msg}', file=sys.stderr)
    sys.exit(1)


def git(*args, cwd=WORK, check=True, **kw):
    return subprocess.run(['git', '-C', cwd, *args], check=check, text=True,
                          capture_output=True, **kw)


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def rbytes(path):
    with open(path, 'rb') as f:
        return f.read()


def overlay_files():
    out = git('ls-files', '-co', '--exclude-standard', '--', '*/*', cwd=TOP).stdout
    files = set()
    for f in out.split():
        if re.match(r'(\.ci|patches|out)/', f) or not os.path.isfile(os.path.join(TOP, f)):
            continue
        files.add(f)
    return files


def series_diffs():
    names = []
    for line in read(os.path.join(TOP, 'patches/series')).splitlines():
        line = line.split('#', 1)[0].strip()
        if line:
            names.append(line)
    return names


def diff_text(name):
    """An upstream diff, with the MAINTAINERS M: line from git config."""
    return read(os.path.join(TOP, 'patches', name)).replace('@MAINTAINER@', MAINTAINER)


FILES = overlay_files()
DIFFS = series_diffs()

# --- the split ---------------------------------------------------------------
split_dir = os.path.join(TOP, 'patches/split')
series = []	# [(name, [(msg, [items])])]
for fn in sorted(os.listdir(split_dir)):
    m = re.fullmatch(r'\d+-([a-z0-9-]+)', fn)
    if not m:
        die(f'patches/split/{fn}: the name must be N-NAME')
    patches = []
    for line in read(os.path.join(split_dir, fn)).splitlines():
        line = line.split('#', 1)[0].split()
        if line:
            patches.append((line[0], line[1:]))
    if not patches:
        die(f'patches/split/{fn} lists no patch')
    series.append((m.group(1), patches))

owner, olen, diff_order, msgs = {}, {}, [], []
for sname, patches in series:
    if not os.path.isfile(os.path.join(TOP, 'patches/cover', sname + '.txt')):
        die(f'no cover letter patches/cover/{sname}.txt')
    for msg, items in patches:
        if not os.path.isfile(os.path.join(TOP, 'patches/msg', msg)):
            die(f'no message patches/msg/{msg}')
        if msg in msgs:
            die(f'patches/msg/{msg} is used twice')
        msgs.append(msg)
        for it in items:
            if it.endswith('.diff'):
                if it not in DIFFS:
                    die(f'{it} is not in patches/series')
                if it in owner:
                    die(f'{it} is in two patches')
                owner[it] = msg
                diff_order.append(it)
                continue
            hit = [f for f in FILES if f == it or (it.endswith('/') and f.startswith(it))]
            if not hit:
                die(f'{it} ({msg}) matches no file of the series')
            for f in hit:
                if f in owner:
                    if len(it) == olen[f]:
                        die(f'{f} is in two patches')
                    if len(it) < olen[f]:
                        continue
                owner[f] = msg
                olen[f] = len(it)
for f in sorted(FILES | set(DIFFS)):
    if f not in owner:
        die(f'{f} is in no patch')
if diff_order != DIFFS:
    die('the diffs must come in the order of patches/series')
grow_dir = os.path.join(TOP, 'patches/grow')
if os.path.isdir(grow_dir):
    for g in os.listdir(grow_dir):
        if not g.endswith('.diff') or g[:-5] + '.txt' not in msgs:
            die(f'patches/grow/{g} belongs to no patch (patches/msg/{g[:-5]}.txt)')


def grow_diff(msg):
    p = os.path.join(grow_dir, msg[:-4] + '.diff') if msg.endswith('.txt') else None
    return p if p and os.path.isfile(p) else None


def apply(diff, cwd, reverse=False):
    r = subprocess.run(['git', 'apply', '--unidiff-zero'] + (['-R'] if reverse else []) + [diff],
                       cwd=cwd, text=True, capture_output=True)
    if r.returncode:
        die(f'{os.path.relpath(diff, TOP)} does not apply{" in reverse" if reverse else ""}:\n{r.stderr}')


# --- the files as their first patch adds them ----------------------------------
stage = tempfile.mkdtemp(prefix='ktrace-series.')
try:
    for f in FILES:
        os.makedirs(os.path.join(stage, os.path.dirname(f)), exist_ok=True)
        shutil.copy2(os.path.join(TOP, f), os.path.join(stage, f))
    subprocess.run(['git', 'init', '-q', stage], check=True)
    for msg in reversed(msgs):
        g = grow_diff(msg)
        if g:
            apply(g, stage, reverse=True)

    # --- the cuts --------------------------------------------------------------
    def present(f):
        return os.path.isfile(os.path.join(WORK, f)) and f in FILES

    def series_file(word, d):
        """The file of the series a Makefile word names, or None."""
        word = word.rstrip(')')
        if word.endswith('/'):
            p = os.path.normpath(os.path.join(d, word))
            return p + '/' if any(f.startswith(p + '/') for f in FILES) else None
        p = os.path.normpath(os.path.join(d, word))
        for c in (p, p[:-2] + '.c' if p.endswith('.o') else None, p + '.c'):
            if c and c in FILES:
                return c
        return None

    def exists(sf):
        if sf.endswith('/'):
            return any(present(f) for f in FILES if f.startswith(sf))
        return present(sf)

    ASSIGN = re.compile(r'^([^:=#]*?)(\+=|:=|\?=|=)(.*)$', re.S)
    WORD = re.compile(r'[\w./-]+/?')

    def cut_makefile(text, d):
        lines = text.split('\n')
        out, i = [], 0
        while i < len(lines):
            j = i
            while lines[j].endswith('\\') and j + 1 < len(lines):
                j += 1
            stmt = lines[i:j + 1]
            i = j + 1
            m = ASSIGN.match(stmt[0]) if not stmt[0].startswith(('#', '\t')) else None
            if not m:
                out.extend(stmt)
                continue
            total = kept = 0
            new = []
            for k, ln in enumerate(stmt):
                start = len(m.group(1)) + len(m.group(2)) if k == 0 else 0

                def sub(w):
                    nonlocal total, kept
                    sf = series_file(w.group(0), d)
                    if not sf:
                        return w.group(0)
                    total += 1
                    if exists(sf):
                        kept += 1
                        return w.group(0)
                    return '\0'
                rhs = WORD.sub(sub, ln[start:])
                rhs = re.sub(r'[ \t]*\0', '', rhs)
                new.append(ln[:start] + rhs)
            if total and not kept:
                continue
            # Drop continuation lines the cut emptied.
            res = [new[0]]
            for ln in new[1:]:
                if ln.strip() in ('\\', ''):
                    continue
                res.append(ln)
            if res[-1].rstrip().endswith('\\'):
                res[-1] = res[-1].rstrip()[:-1].rstrip()
            out.extend(res)
        return '\n'.join(out)

    def cut_kconfig(text, makefiles):
        used = set(re.findall(r'\$\(CONFIG_(\w+)\)', makefiles))
        blocks, cur = [[]], None
        for ln in text.split('\n'):
            m = re.match(r'(menu)?config\s+(\w+)', ln)
            if m:
                cur = m.group(2)
                blocks.append([])
                blocks[-1].append(cur)
            blocks[-1].append(ln)
        out = blocks[0]
        for b in blocks[1:]:
            if b[0] in used:
                out.extend(b[1:])
        text = '\n'.join(out).rstrip('\n') + '\n'
        return text

    def write_cut_files(touched):
        """Write the present Makefiles and Kconfigs, cut for this patch."""
        mk = [f for f in FILES if os.path.basename(f) == 'Makefile' and present(f)]
        for f in mk:
            text = cut_makefile(read(os.path.join(stage, f)), os.path.dirname(f))
            if read(os.path.join(WORK, f)) != text:
                with open(os.path.join(WORK, f), 'w') as fh:
                    fh.write(text)
        makefiles = ''.join(read(os.path.join(WORK, f)) for f in mk)
        makefiles += ''.join(read(os.path.join(WORK, f)) for f in touched
                             if os.path.basename(f) == 'Makefile' and os.path.isfile(os.path.join(WORK, f)))
        for f in FILES:
            if os.path.basename(f) == 'Kconfig' and present(f):
                text = cut_kconfig(read(os.path.join(stage, f)), makefiles)
                with open(os.path.join(WORK, f), 'w') as fh:
                    fh.write(text)

    # --- the commits -----------------------------------------------------------
    env = dict(os.environ, GIT_AUTHOR_NAME=NAME, GIT_AUTHOR_EMAIL=EMAIL,
               GIT_COMMITTER_NAME=NAME, GIT_COMMITTER_EMAIL=EMAIL)
    touched = set()	# upstream files the diffs changed so far
    heads = []
    for sname, patches in series:
        for msg, items in patches:
            for f in sorted(FILES):
                if owner[f] == msg:
                    os.makedirs(os.path.join(WORK, os.path.dirname(f)), exist_ok=True)
                    shutil.copy2(os.path.join(stage, f), os.path.join(WORK, f))
            for it in items:
                if it.endswith('.diff'):
                    text = diff_text(it)
                    r = subprocess.run(['git', 'apply', '--index', '-'], cwd=WORK, input=text,
                                       text=True, capture_output=True)
                    if r.returncode:
                        die(f'patches/{it} does not apply in the series:\n{r.stderr}')
                    touched |= set(re.findall(r'^\+\+\+ b/(\S+)', text, re.M))
            g = grow_diff(msg)
            if g:
                for f in re.findall(r'^\+\+\+ b/(\S+)', read(g), re.M):
                    if not present(f):
                        die(f'{os.path.relpath(g, TOP)} grows {f}, which no earlier patch adds')
                apply(g, stage)
                for f in re.findall(r'^\+\+\+ b/(\S+)', read(g), re.M):
                    shutil.copy2(os.path.join(stage, f), os.path.join(WORK, f))
            write_cut_files(touched)
            git('add', '-f', '--', *sorted(f for f in FILES if present(f)))
            r = git('commit', '-q', '-s', '-F', os.path.join(TOP, 'patches/msg', msg), env=env, check=False)
            if r.returncode:
                die(f'{msg}: nothing to commit?\n{r.stdout}{r.stderr}')
        heads.append((sname, git('rev-parse', 'HEAD').stdout.strip()))

    # The last patch must give the repository's files exactly.
    for f in sorted(FILES):
        if rbytes(os.path.join(WORK, f)) != rbytes(os.path.join(TOP, f)):
            die(f'{f} at the end of the series differs from the repository (a cut or a grow diff)')
finally:
    shutil.rmtree(stage)

# --- one directory per series ------------------------------------------------------
shutil.rmtree(DEST, ignore_errors=True)
prev = 'ktrace-base'
for sname, head in heads:
    d = os.path.join(DEST, sname)
    git('format-patch', '-q', '--binary', '--cover-letter', '-o', d, f'{prev}..{head}')
    print(f'{sname} {prev} {head}')
    prev = head
