#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Cut the repository into series of commits, and write a branch back.

The repository holds the final code.  patches/split/N-NAME lists, one line
per patch, the series NAME: "MSG ITEM...", where MSG is the commit message
patches/msg/MSG and the ITEMs are the new files the patch adds (a directory
takes every file below it; the longer entry owns a file two entries name)
and the upstream diff of patches/series it applies.  The series are made in
the order of their N, each on top of the one before.

A file that grows over the series is added by its first patch; every later
patch that extends it has a grow diff, patches/grow/MSG-STEM.diff, applied
forward.  A file is first added as the final file with the grow diffs of the
later patches reverse-applied.  (patches/grow/buffer.diff for
patches/msg/buffer.txt.)

Two kinds of file are cut by rule, so that adding a file to a patch changes
neither them nor a grow diff:
  - Makefile: in an assignment, a word that names a file of the series
    (foo.o or foo for foo.c, foo.sh, dir/), relative to the Makefile's
    directory, is left out until that file exists; an assignment left with
    none of its series files is left out.
  - Kconfig: a "config SYM" entry is left out until a Makefile line that
    exists uses $(CONFIG_SYM).  A Kconfig with menu, if, choice, comment
    or source is refused.
What a rule does not explain (a composite object, say) becomes a grow diff
of the Makefile.

None of patches/split, msg, grow, cover, *.diff and series is written by
hand: they are all derived from a branch of commits by "refresh" (see
.ci/series).  On that branch a series starts with an empty commit holding
its cover letter, with the trailer "Ktrace-Series: NAME"; each patch's
commit carries "Ktrace-Patch: STEM" (its patches/msg/STEM.txt) and, if it
changes upstream files, "Ktrace-Diff: NAME.diff".  A commit without
Ktrace-Patch is named after its subject.

usage: series.py cut TOP WORKTREE DESTDIR NAME EMAIL   the mailed series
       series.py edit TOP WORKTREE                     the branch to edit
       series.py refresh TOP WORKTREE BASE HEAD OUTDIR write a branch back
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

MAX_LINES = 1500
DERIVED = ('patches/split', 'patches/msg', 'patches/grow', 'patches/cover')
SERIES_HEADER = """\
# Upstream files changed by the series, as unified diffs applied in this order
# (quilt style).  Written by .ci/series refresh: do not edit by hand.
# "@MAINTAINER@" is git config's user.name <user.email> (.ci/lib.sh).
"""
SPLIT_HEADER = """\
# The series {name}, written by .ci/series refresh: do not edit by hand.
# One line per patch: its message (patches/msg/), the new files it adds (a
# directory takes every file below it) and the upstream diff it applies.
"""
EDIT_IDENT = dict(GIT_AUTHOR_NAME='ktrace', GIT_AUTHOR_EMAIL='ktrace@localhost',
                  GIT_COMMITTER_NAME='ktrace', GIT_COMMITTER_EMAIL='ktrace@localhost',
                  GIT_AUTHOR_DATE='2024-11-17T00:00:00Z', GIT_COMMITTER_DATE='2024-11-17T00:00:00Z')


def die(msg):
    print(f'ERROR: series: {msg}', file=sys.stderr)
    sys.exit(1)


def run(args, cwd, check=True, **kw):
    return subprocess.run(args, cwd=cwd, check=check, text=True, capture_output=True, **kw)


def git(cwd, *args, check=True, **kw):
    return run(['git', '-C', cwd, *args], cwd=cwd, check=check, **kw)


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def rbytes(path):
    with open(path, 'rb') as f:
        return f.read()


def write(path, text, mode=None):
    os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
    data = text.encode() if isinstance(text, str) else text
    if not os.path.isfile(path) or rbytes(path) != data:
        with open(path, 'wb') as f:
            f.write(data)
    if mode is not None:
        os.chmod(path, mode)


def excluded(f):
    """Not a file of the kernel tree: the driver, the diffs, the builds."""
    return re.match(r'(\.ci|patches|out)/', f) or '/' not in f


# --- the repository ------------------------------------------------------------

class Repo:
    """The final files, the diffs and the split of the repository at TOP."""

    def __init__(self, top):
        self.top = top
        out = git(top, 'ls-files', '-co', '--exclude-standard', '--', '*/*').stdout
        self.files = {f for f in out.split()
                      if not excluded(f) and os.path.isfile(os.path.join(top, f))}
        untracked = [f for f in git(top, 'ls-files', '-o', '--exclude-standard', '--', '*/*').stdout.split()
                     if not excluded(f)]
        if untracked:
            die('untracked files would be mailed: ' + ' '.join(untracked[:5]) +
                ': commit or remove them (or ignore them in .gitignore)')
        self.diffs = []
        for line in read(os.path.join(top, 'patches/series')).splitlines():
            line = line.split('#', 1)[0].strip()
            if line:
                self.diffs.append(line)
        self.load_split()

    def load_split(self):
        top = self.top
        split_dir = os.path.join(top, 'patches/split')
        self.series = []	# [(name, [(msg, [items])])]
        for fn in sorted(os.listdir(split_dir), key=lambda s: (int(s.split('-')[0]) if s[0].isdigit() else 0, s)):
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
            self.series.append((m.group(1), patches))

        owner, olen, diff_order, msgs = {}, {}, [], []
        for sname, patches in self.series:
            if not os.path.isfile(os.path.join(top, 'patches/cover', sname + '.txt')):
                die(f'no cover letter patches/cover/{sname}.txt')
            for msg, items in patches:
                if not os.path.isfile(os.path.join(top, 'patches/msg', msg)):
                    die(f'no message patches/msg/{msg}')
                if msg in msgs:
                    die(f'patches/msg/{msg} is used twice')
                msgs.append(msg)
                if len([it for it in items if it.endswith('.diff')]) > 1:
                    die(f'{msg}: one upstream diff per patch')
                for it in items:
                    if it.endswith('.diff'):
                        if it not in self.diffs:
                            die(f'{it} is not in patches/series')
                        if it in owner:
                            die(f'{it} is in two patches')
                        owner[it] = msg
                        diff_order.append(it)
                        continue
                    hit = [f for f in self.files if f == it or (it.endswith('/') and f.startswith(it))]
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
        for f in sorted(self.files | set(self.diffs)):
            if f not in owner:
                die(f'{f} is in no patch')
        if diff_order != self.diffs:
            die('the diffs must come in the order of patches/series')
        self.owner, self.msgs = owner, msgs
        grow_dir = os.path.join(top, 'patches/grow')
        if os.path.isdir(grow_dir):
            for g in os.listdir(grow_dir):
                if not g.endswith('.diff') or g[:-5] + '.txt' not in msgs:
                    die(f'patches/grow/{g} belongs to no patch (patches/msg/{g[:-5]}.txt)')

    def grow_diff(self, msg):
        p = os.path.join(self.top, 'patches/grow', msg[:-4] + '.diff') if msg.endswith('.txt') else None
        return p if p and os.path.isfile(p) else None


# --- the rules: Makefile and Kconfig cut per patch --------------------------------

ASSIGN = re.compile(r'^([^:=#]*?)(\+=|:=|\?=|=)(.*)$', re.S)
WORD = re.compile(r'[\w./-]+/?')


def series_file(word, d, files):
    """The file of the series a Makefile word names, or None."""
    word = word.rstrip(')')
    if word.endswith('/'):
        p = os.path.normpath(os.path.join(d, word))
        return p + '/' if any(f.startswith(p + '/') for f in files) else None
    p = os.path.normpath(os.path.join(d, word))
    for c in (p, p[:-2] + '.c' if p.endswith('.o') else None, p + '.c'):
        if c and c in files:
            return c
    return None


def cut_makefile(text, d, files, present):
    """TEXT (a Makefile in directory D) naming only files in PRESENT."""
    def exists(sf):
        if sf.endswith('/'):
            return any(f in present for f in files if f.startswith(sf))
        return sf in present

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
                sf = series_file(w.group(0), d, files)
                if not sf:
                    return w.group(0)
                total += 1
                if exists(sf):
                    kept += 1
                    return w.group(0)
                return '\0'
            rhs = WORD.sub(sub, ln[start:])
            # A continuation line keeps its indentation.
            rhs = re.sub(r'^([ \t]+)\0[ \t]*', r'\1', rhs) if k else rhs
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


def cut_kconfig(text, makefiles, f):
    """TEXT (a Kconfig) with the entries no Makefile text uses left out."""
    used = set(re.findall(r'\$\(CONFIG_(\w+)\)', makefiles))
    bad = re.findall(r'^(menu|endmenu|if|endif|choice|endchoice|comment|source)\b', text, re.M)
    if bad:
        die(f'{f}: "{bad[0]}" is more than the Kconfig cut understands (config entries only)')
    blocks = [[]]
    for ln in text.split('\n'):
        m = re.match(r'(menu)?config\s+(\w+)', ln)
        if m:
            blocks.append([m.group(2)])
        blocks[-1].append(ln)
    out = blocks[0]
    for b in blocks[1:]:
        if b[0] in used:
            out.extend(b[1:])
    return '\n'.join(out).rstrip('\n') + '\n'


def is_rule_file(f):
    return os.path.basename(f) in ('Makefile', 'Kconfig')


def cut_rule_files(stage_text, files, present, upstream_makefiles):
    """{path: text} of the present rule files at one patch.

    STAGE_TEXT(path) is a rule file's uncut text at that patch;
    UPSTREAM_MAKEFILES the text of the upstream Makefiles the diffs changed."""
    out = {}
    for f in sorted(present):
        if os.path.basename(f) == 'Makefile':
            out[f] = cut_makefile(stage_text(f), os.path.dirname(f), files, present)
    makefiles = ''.join(out[f] for f in sorted(out)) + upstream_makefiles
    for f in sorted(present):
        if os.path.basename(f) == 'Kconfig':
            out[f] = cut_kconfig(stage_text(f), makefiles, f)
    return out


# --- cut: the repository as commits -----------------------------------------------

def apply(top, diff, cwd, reverse=False):
    r = run(['git', 'apply', '--unidiff-zero'] + (['-R'] if reverse else []) + [diff], cwd=cwd, check=False)
    if r.returncode:
        die(f'{os.path.relpath(diff, top)} does not apply{" in reverse" if reverse else ""}:\n{r.stderr}')


def cut(repo, work, edit, maintainer=None, env=None):
    """Commit the series in WORK (at the base), one commit per patch.

    EDIT: the branch to edit (cover commits, trailers, @MAINTAINER@ kept);
    otherwise the mailed series (signed off, @MAINTAINER@ replaced).
    Returns [(series, head)]."""
    top, files = repo.top, repo.files
    stage = tempfile.mkdtemp(prefix='ktrace-series.')
    try:
        for f in files:
            os.makedirs(os.path.join(stage, os.path.dirname(f)), exist_ok=True)
            shutil.copy2(os.path.join(top, f), os.path.join(stage, f))
        subprocess.run(['git', 'init', '-q', stage], check=True)
        for msg in reversed(repo.msgs):
            g = repo.grow_diff(msg)
            if g:
                apply(top, g, stage, reverse=True)

        def present_set():
            return {f for f in files if os.path.isfile(os.path.join(work, f))}

        touched = set()	# upstream files the diffs changed so far
        heads = []
        for sname, patches in repo.series:
            if edit:
                text = read(os.path.join(top, 'patches/cover', sname + '.txt')).rstrip('\n')
                c = git(work, 'commit', '-q', '--allow-empty', '-F', '-', env=env,
                        input=f'{text}\n\nKtrace-Series: {sname}\n', check=False)
                if c.returncode:
                    die(f'cover letter of {sname}: {c.stderr}')
            for msg, items in patches:
                for f in sorted(files):
                    if repo.owner[f] == msg:
                        os.makedirs(os.path.join(work, os.path.dirname(f)), exist_ok=True)
                        shutil.copy2(os.path.join(stage, f), os.path.join(work, f))
                dname = None
                for it in items:
                    if it.endswith('.diff'):
                        dname = it
                        text = read(os.path.join(top, 'patches', it))
                        if not edit:
                            text = text.replace('@MAINTAINER@', maintainer)
                        r = run(['git', 'apply', '--index', '-'], cwd=work, input=text, check=False)
                        if r.returncode:
                            die(f'patches/{it} does not apply in the series:\n{r.stderr}')
                        touched |= set(re.findall(r'^\+\+\+ b/(\S+)', text, re.M))
                g = repo.grow_diff(msg)
                if g:
                    grown = re.findall(r'^\+\+\+ b/(\S+)', read(g), re.M)
                    for f in grown:
                        if not os.path.isfile(os.path.join(work, f)):
                            die(f'{os.path.relpath(g, top)} grows {f}, which no earlier patch adds')
                    apply(top, g, stage)
                    for f in grown:
                        shutil.copy2(os.path.join(stage, f), os.path.join(work, f))
                present = present_set()
                upmk = ''.join(read(os.path.join(work, f)) for f in sorted(touched)
                               if os.path.basename(f) == 'Makefile' and os.path.isfile(os.path.join(work, f)))
                for f, text in cut_rule_files(lambda f: read(os.path.join(stage, f)), files,
                                              present, upmk).items():
                    write(os.path.join(work, f), text)
                git(work, 'add', '-f', '--', *sorted(present))
                text = read(os.path.join(top, 'patches/msg', msg))
                if edit:
                    text = text.rstrip('\n') + f'\n\nKtrace-Patch: {msg[:-4]}\n'
                    if dname:
                        text += f'Ktrace-Diff: {dname}\n'
                r = git(work, 'commit', '-q', *([] if edit else ['-s']), '-F', '-', env=env,
                        input=text, check=False)
                if r.returncode:
                    die(f'{msg}: nothing to commit?\n{r.stdout}{r.stderr}')
            heads.append((sname, git(work, 'rev-parse', 'HEAD').stdout.strip()))

        # The last patch must give the repository's files exactly.
        for f in sorted(files):
            if rbytes(os.path.join(work, f)) != rbytes(os.path.join(top, f)):
                die(f'{f} at the end of the series differs from the repository (a cut or a grow diff)')
    finally:
        shutil.rmtree(stage)
    return heads


# --- refresh: a branch back into the repository --------------------------------------

TRAILER = re.compile(r'^(Ktrace-(?:Series|Patch|Diff)): *(\S+) *$')


def parse_message(text):
    """(message without the Ktrace- trailers, {trailer: value})."""
    lines = text.rstrip('\n').split('\n')
    tr = {}
    while lines and TRAILER.match(lines[-1]):
        k, v = TRAILER.match(lines.pop()).groups()
        tr[k] = v
    while lines and not lines[-1].strip():
        lines.pop()
    return '\n'.join(lines) + '\n', tr


def slug(subject):
    s = subject.split(': ')[-1].lower()
    s = re.sub(r'[^a-z0-9]+', '-', s).strip('-')
    return s[:40].rstrip('-') or 'patch'


def text_diff(path, old, new):
    """The unified diff of PATH from OLD to NEW (bytes), as git writes it."""
    d = tempfile.mkdtemp(prefix='ktrace-diff.')
    try:
        for side, data in (('a', old), ('b', new)):
            write(os.path.join(d, side, path), data)
        r = run(['git', 'diff', '--no-index', '--no-prefix', os.path.join('a', path),
                 os.path.join('b', path)], cwd=d, check=False)
        if r.returncode not in (0, 1):
            die(f'git diff {path}: {r.stderr}')
        return clean_diff(r.stdout)
    finally:
        shutil.rmtree(d)


def clean_diff(text):
    """A diff without its index lines, as the diffs of patches/ are kept."""
    return ''.join(ln for ln in text.splitlines(True) if not re.match(r'index [0-9a-f]+\.\.[0-9a-f]+', ln))


def refresh(work, base, head, out):
    """Write the branch BASE..HEAD of WORK as the repository's files into OUT."""
    commits = git(work, 'rev-list', '--reverse', f'{base}..{head}').stdout.split()
    if not commits:
        die(f'no commit between {base} and {head}')
    if git(work, 'rev-list', '--merges', f'{base}..{head}').stdout.strip():
        die('the branch has merge commits: rebase it onto the base')
    base_files = set(git(work, 'ls-tree', '-r', '--name-only', base).stdout.split('\n'))
    base_dirs = {os.path.dirname(f) for f in base_files}
    base_dirs |= {d for f in list(base_dirs) for d in parents(f)}

    def show(c, f):
        r = subprocess.run(['git', '-C', work, 'show', f'{c}:{f}'], capture_output=True)
        return r.stdout if r.returncode == 0 else None

    # The commits: cover letters and patches.
    series, cur, names = [], None, set()
    for c in commits:
        msg, tr = parse_message(git(work, 'log', '-1', '--format=%B', c).stdout)
        subject = msg.split('\n', 1)[0]
        changes = [ln.split('\t') for ln in git(work, 'diff', '--no-renames', '--name-status',
                                                f'{c}~1', c).stdout.splitlines()]
        if 'Ktrace-Series' in tr:
            if changes:
                die(f'{c[:12]} ("{subject}"): a cover letter commit (Ktrace-Series) changes files')
            cur = (tr['Ktrace-Series'], msg, [])
            if not re.fullmatch(r'[a-z0-9-]+', cur[0]) or cur[0] in [s[0] for s in series]:
                die(f'{c[:12]}: Ktrace-Series: {cur[0]} (a new name of [a-z0-9-])')
            series.append(cur)
            continue
        if cur is None:
            die(f'{c[:12]} ("{subject}") comes before the first cover letter commit (Ktrace-Series)')
        stem = tr.get('Ktrace-Patch', slug(subject))
        if not re.fullmatch(r'[a-z0-9][a-z0-9-]*', stem) or stem in names:
            die(f'{c[:12]} ("{subject}"): Ktrace-Patch: {stem} is not a new name of [a-z0-9-]')
        names.add(stem)
        cur[2].append(dict(commit=c, stem=stem, msg=msg, diff=tr.get('Ktrace-Diff', stem + '.diff'),
                           changes=changes))
    if not any(s[2] for s in series):
        die('the branch has no patch')

    files = {f for f in git(work, 'ls-tree', '-r', '--name-only', head).stdout.split('\n')
             if f and f not in base_files}
    for f in sorted(files):
        if excluded(f):
            die(f'{f}: a file of the series must be below a directory other than .ci/, patches/, out/')

    # Per patch: the files it adds, the upstream files it changes, the
    # series files it grows.
    present, touched, order = set(), set(), []
    for sname, _, patches in series:
        for p in patches:
            p['added'], p['up'], p['grown'] = [], [], []
            for st, f in ((ch[0], ch[-1]) for ch in p['changes']):
                if f in base_files:
                    p['up'].append(f)
                    continue
                if st == 'A':
                    p['added'].append(f)
                elif st.startswith('D'):
                    die(f'{p["commit"][:12]} ({p["stem"]}) deletes {f}, which an earlier patch adds:'
                        ' a file of the series lives from its first patch to the end')
                else:
                    p['grown'].append(f)
            present |= set(p['added'])
            touched |= set(p['up'])
            p['present'] = set(present)
            p['upmk'] = ''.join((show(p['commit'], f) or b'').decode() for f in sorted(touched)
                                if os.path.basename(f) == 'Makefile')
            order.append(p)

    # The uncut text of each rule file at each patch, from the last patch
    # back: where the rule explains the previous patch's text, the text
    # stays; where it does not, the previous text is taken as it is and the
    # patch gets a grow diff.
    stage = {}	# (index, file) -> bytes
    rule_files = sorted(f for f in files if is_rule_file(f))
    cached_cut = {}

    def cut_at(i, f, text):
        p = order[i]
        key = (i, f, text)
        if key not in cached_cut:
            st = {g: stage_or(i, g) for g in rule_files if g in p['present']}
            st[f] = text
            cached_cut[key] = cut_rule_files(lambda g: st[g].decode(), files, p['present'],
                                             p['upmk']).get(f, '').encode()
        return cached_cut[key]

    def stage_or(i, g):
        return stage.get((i, g)) or show(order[i]['commit'], g)

    # Makefiles first: the Kconfig cut reads the Makefiles' cut text.
    for f in sorted(rule_files, key=lambda f: os.path.basename(f) == 'Kconfig'):
        last = len(order) - 1
        stage[(last, f)] = show(order[last]['commit'], f)
        first = next(i for i, p in enumerate(order) if f in p['added'])
        for i in range(last, first - 1, -1):
            content = show(order[i]['commit'], f)
            if i < last:
                stage[(i, f)] = stage[(i + 1, f)]
                if cut_at(i, f, stage[(i, f)]) != content:
                    stage[(i, f)] = content
            if cut_at(i, f, stage[(i, f)]) != content:
                p = order[i]
                die(f'{f} at {p["commit"][:12]} ({p["stem"]}) is not what the Makefile/Kconfig rule'
                    ' makes of it: does it name a file that does not exist yet?')

    # Write: messages, split, grow diffs, upstream diffs, cover letters.
    tmp = tempfile.mkdtemp(prefix='ktrace-refresh.')
    try:
        for d in DERIVED:
            os.makedirs(os.path.join(tmp, d))
        diffs = []
        for n, (sname, cover, patches) in enumerate(series, 1):
            write(os.path.join(tmp, 'patches/cover', sname + '.txt'), cover)
            lines = [SPLIT_HEADER.format(name=sname)]
            for p in patches:
                i = order.index(p)
                write(os.path.join(tmp, 'patches/msg', p['stem'] + '.txt'), p['msg'])
                items = collapse(p['added'], files, base_dirs)
                if p['up']:
                    d = p['diff']
                    if not re.fullmatch(r'[A-Za-z0-9][A-Za-z0-9._-]*\.diff', d) or d in diffs:
                        die(f'{p["commit"][:12]}: Ktrace-Diff: {d} is not a new NAME.diff')
                    diffs.append(d)
                    items.append(d)
                    text = git(work, 'diff', '--no-renames', f'{p["commit"]}~1', p['commit'],
                               '--', *p['up']).stdout
                    write(os.path.join(tmp, 'patches', d), clean_diff(text))
                lines.append(p['stem'] + '.txt' + ''.join('\t' + it if k == 0 else ' ' + it
                                                           for k, it in enumerate(items)) + '\n')
                grow = ''
                for f in sorted(set(p['grown']) | {g for g in rule_files if i and (i - 1, g) in stage
                                                   and stage[(i - 1, g)] != stage[(i, g)]}):
                    old = stage[(i - 1, f)] if is_rule_file(f) else show(order[i - 1]['commit'], f)
                    new = stage[(i, f)] if is_rule_file(f) else show(p['commit'], f)
                    grow += text_diff(f, old, new)
                if grow:
                    write(os.path.join(tmp, 'patches/grow', p['stem'] + '.diff'), grow)
            write(os.path.join(tmp, 'patches/split', f'{n}-{sname}'), ''.join(lines))
        write(os.path.join(tmp, 'patches/series'), SERIES_HEADER + ''.join(d + '\n' for d in diffs))

        # Into OUT: the derived files replaced whole, the final files.
        for d in DERIVED:
            shutil.rmtree(os.path.join(out, d), ignore_errors=True)
            shutil.copytree(os.path.join(tmp, d), os.path.join(out, d))
        for f in os.listdir(os.path.join(out, 'patches')):
            if f.endswith('.diff') and os.path.isfile(os.path.join(out, 'patches', f)):
                os.unlink(os.path.join(out, 'patches', f))
        for f in diffs + ['series']:
            shutil.copy2(os.path.join(tmp, 'patches', f), os.path.join(out, 'patches', f))
    finally:
        shutil.rmtree(tmp)
    for f in sorted(files):
        mode = git(work, 'ls-tree', head, '--', f).stdout.split()[0]
        write(os.path.join(out, f), show(head, f), 0o755 if mode == '100755' else 0o644)
    return files


def parents(d):
    while d:
        d = os.path.dirname(d)
        if d:
            yield d


def collapse(added, files, base_dirs):
    """The items of a split line: a new directory whose every file the
    patch adds is named as DIR/, other files one by one."""
    added = set(added)
    items = set()
    for f in added:
        best = f
        for d in parents(f):
            if d in base_dirs:
                break
            if all(g in added for g in files if g.startswith(d + '/')):
                best = d + '/'
        items.add(best)
    return sorted(items)


# --- main ---------------------------------------------------------------------------

def main(argv):
    if len(argv) >= 6 and argv[0] == 'cut':
        top, work, dest, name, email = argv[1:6]
        maintainer = f'{name} <{email}>'
        env = dict(os.environ, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email,
                   GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email)
        heads = cut(Repo(top), work, False, maintainer, env)
        shutil.rmtree(dest, ignore_errors=True)
        prev = 'ktrace-base'
        for sname, head in heads:
            d = os.path.join(dest, sname)
            git(work, 'format-patch', '-q', '--binary', '--cover-letter', '-o', d, f'{prev}..{head}')
            print(f'{sname} {prev} {head}')
            prev = head
    elif len(argv) == 3 and argv[0] == 'edit':
        heads = cut(Repo(argv[1]), argv[2], True, env=dict(os.environ, **EDIT_IDENT))
        print(heads[-1][1])
    elif len(argv) == 6 and argv[0] == 'refresh':
        top, work, base, head, out = argv[1:6]
        files = refresh(work, base, head, out)
        if os.path.realpath(out) == os.path.realpath(top):
            # A file the branch no longer has leaves the repository.
            tracked = {f for f in git(top, 'ls-files', '--', '*/*').stdout.split() if not excluded(f)}
            for f in sorted(tracked - files):
                git(top, 'rm', '-q', '--', f)
            # What refresh wrote is staged: a new file is part of the series.
            git(top, 'add', '-A', '--', 'patches', *sorted(files))
    else:
        print(__doc__.split('usage: ')[1], file=sys.stderr)
        sys.exit(2)


if __name__ == '__main__':
    main(sys.argv[1:])
