// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: zstd-compressed trace files.
 *
 * A trace file may be one zstd stream (RFC 8878) of the trace file's bytes,
 * as record, extract and slice write it with -z, or as the zstd command
 * writes it: every command reads it, recognized by its magic number, never
 * by its name.  The whole file is decompressed in memory, then decoded as
 * an uncompressed one (kt_open_mem()).  A stream cut short (an attachment
 * that hit a size limit) gives what it holds, said; a corrupt one (its
 * checksum, a bad block) is an error.
 *
 * Built without libzstd (NO_ZSTD=1, or no zstd.h: the Makefile says so),
 * ktrace reads and writes uncompressed files only, and says so when it
 * meets a compressed one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#include "trace.h"

/*
 * The first bytes of a zstd frame (little-endian 0xFD2FB528), or of a
 * skippable frame (0x184D2A50 to 0x184D2A5F), which zstd tools may put
 * first (pzstd's index, seekable formats) and decompression skips.
 */
static const unsigned char zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
static const unsigned char skippable_magic[3] = { 0x2a, 0x4d, 0x18 };

bool kt_is_compressed(const void *data, size_t size)
{
	const unsigned char *p = data;

	if (size < sizeof(zstd_magic))
		return false;
	return !memcmp(p, zstd_magic, sizeof(zstd_magic)) ||
	       ((p[0] & 0xf0) == 0x50 && !memcmp(p + 1, skippable_magic, sizeof(skippable_magic)));
}

/**
 * kt_parse_level() - the argument of -z/--compress
 * @cmd: the command, for messages
 * @arg: LEVEL, or NULL for the default
 * @level: the zstd level, 1 to 19
 *
 * Return: 0, or EXIT_USAGE after saying why (a bad level, or a ktrace
 * built without libzstd).
 */
int kt_parse_level(const char *cmd, const char *arg, int *level)
{
	char *end;
	long v;

#ifndef HAVE_ZSTD
	fprintf(stderr, "ktrace %s: -z: this ktrace was built without libzstd\n", cmd);
	return EXIT_USAGE;
#endif
	if (!arg) {
		*level = KT_ZSTD_LEVEL;
		return 0;
	}
	errno = 0;
	v = strtol(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || errno || v < 1 || v > 19) {
		fprintf(stderr, "ktrace %s: bad compression level '%s': 1 to 19\n", cmd, arg);
		return EXIT_USAGE;
	}
	*level = v;
	return 0;
}

#ifndef HAVE_ZSTD
int kt_decompress(const char *path, const void *data, size_t size, void **out,
		  size_t *out_size)
{
	(void)data;
	(void)size;
	(void)out;
	(void)out_size;
	fprintf(stderr,
		"ktrace: %s: a zstd-compressed trace, and this ktrace was built without libzstd: decompress it first (zstd -d)\n",
		path);
	return -1;
}
#else
/* Grow @buf (of *@cap bytes) to hold at least @need; false if out of memory. */
static bool grow(unsigned char **buf, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap : 1 << 20;
	unsigned char *p;

	while (n < need) {
		if (n > SIZE_MAX / 2)
			return false;
		n *= 2;
	}
	if (n == *cap)
		return true;
	p = realloc(*buf, n);
	if (!p)
		return false;
	*buf = p;
	*cap = n;
	return true;
}

/**
 * kt_decompress() - the trace file in a zstd-compressed file
 * @path: the file, for messages
 * @data: its bytes
 * @size: how many
 * @out: the decompressed bytes, allocated (the caller frees them)
 * @out_size: how many
 *
 * Return: 0 (with a message on stderr if the compressed data stops short:
 * what it held is in @out); or -1 after saying why (corrupt data, out of
 * memory), nothing allocated.
 */
int kt_decompress(const char *path, const void *data, size_t size, void **out,
		  size_t *out_size)
{
	ZSTD_inBuffer in = { .src = data, .size = size };
	unsigned long long want = ZSTD_getFrameContentSize(data, size);
	unsigned char *buf = NULL;
	size_t cap = 0, ret = 1, len = 0;
	ZSTD_DCtx *dctx = ZSTD_createDCtx();

	/*
	 * The announced size, within reason: the content may say anything.
	 * A trace compresses 4 to 8 times; more than KT_ZSTD_MAX_RATIO times
	 * its size is a decompression bomb, refused before it fills memory.
	 */
	size_t max = size > (SIZE_MAX - (64 << 20)) / KT_ZSTD_MAX_RATIO ? SIZE_MAX :
		     size * KT_ZSTD_MAX_RATIO + (64 << 20);

	if (!dctx || (want <= max && !grow(&buf, &cap, want ? want : 1)))
		goto oom;
	while (in.pos < in.size) {
		ZSTD_outBuffer o;

		if (len > max) {
			fprintf(stderr,
				"ktrace: %s: decompresses to more than %d times its size: refused\n",
				path, KT_ZSTD_MAX_RATIO);
			goto fail;
		}

		if (cap - len < ZSTD_DStreamOutSize() &&
		    !grow(&buf, &cap, len + ZSTD_DStreamOutSize()))
			goto oom;
		o = (ZSTD_outBuffer){ .dst = buf + len, .size = cap - len };
		ret = ZSTD_decompressStream(dctx, &o, &in);
		len += o.pos;
		if (ZSTD_isError(ret)) {
			fprintf(stderr,
				"ktrace: %s: corrupt zstd data near compressed offset %zu: %s\n",
				path, in.pos, ZSTD_getErrorName(ret));
			goto fail;
		}
		/* More output to flush from what it read: go on without input. */
		while (in.pos == in.size && o.pos == o.size && ret) {
			if (len > max) {
				fprintf(stderr,
					"ktrace: %s: decompresses to more than %d times its size: refused\n",
					path, KT_ZSTD_MAX_RATIO);
				goto fail;
			}
			if (!grow(&buf, &cap, len + ZSTD_DStreamOutSize()))
				goto oom;
			o = (ZSTD_outBuffer){ .dst = buf + len, .size = cap - len };
			ret = ZSTD_decompressStream(dctx, &o, &in);
			len += o.pos;
			if (ZSTD_isError(ret)) {
				fprintf(stderr, "ktrace: %s: corrupt zstd data at its end: %s\n",
					path, ZSTD_getErrorName(ret));
				goto fail;
			}
		}
	}
	ZSTD_freeDCtx(dctx);
	if (ret)
		fprintf(stderr,
			"ktrace: %s: warning: the zstd data stops short (truncated file): decoding the %zu bytes of trace it holds\n",
			path, len);
	*out = buf;
	*out_size = len;
	return 0;
oom:
	fprintf(stderr, "ktrace: %s: out of memory decompressing\n", path);
fail:
	ZSTD_freeDCtx(dctx);
	free(buf);
	return -1;
}

/* Write @len bytes to @fd; 0, or -1 with errno set. */
static int write_all(int fd, const void *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p = (const char *)p + n;
		len -= n;
	}
	return 0;
}

/*
 * Compress @size bytes at @data to the new file @tmp, of permissions
 * @mode (the trace's); 0 or -1 after saying why.
 */
static int compress_to(const char *cmd, const void *data, size_t size, const char *tmp,
		       mode_t mode, int level, size_t *csize)
{
	size_t cap = ZSTD_compressBound(size), n;
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	void *buf = malloc(cap);
	int fd = -1, ret = -1;

	if (!cctx || !buf) {
		fprintf(stderr, "ktrace %s: out of memory compressing\n", cmd);
		goto out;
	}
	/* A checksum: a corrupt attachment is said, not decoded as garbage. */
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
	n = ZSTD_compress2(cctx, buf, cap, data, size);
	if (ZSTD_isError(n)) {
		fprintf(stderr, "ktrace %s: zstd: %s\n", cmd, ZSTD_getErrorName(n));
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || fchmod(fd, mode) || write_all(fd, buf, n) || fsync(fd)) {
		fprintf(stderr, "ktrace %s: %s: %s\n", cmd, tmp, strerror(errno));
		if (fd >= 0)
			unlink(tmp);
		goto out;
	}
	*csize = n;
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	ZSTD_freeCCtx(cctx);
	return ret;
}
#endif /* HAVE_ZSTD */

/**
 * kt_compress_file() - replace a trace file by its zstd compression
 * @cmd: the command, for messages
 * @path: the closed trace file
 * @level: the zstd level (kt_parse_level())
 *
 * Written next to it, then renamed over it: the file is whole, either way.
 *
 * Return: the compressed size, or -1 after saying why (@path unchanged).
 */
long long kt_compress_file(const char *cmd, const char *path, int level)
{
#ifdef HAVE_ZSTD
	char tmp[4096];
	struct stat st;
	size_t csize = 0;
	void *map;
	int fd, ret;

	if (snprintf(tmp, sizeof(tmp), "%s.zst-tmp", path) >= (int)sizeof(tmp)) {
		fprintf(stderr, "ktrace %s: %s: path too long\n", cmd, path);
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "ktrace %s: %s: %s\n", cmd, path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	map = st.st_size ? mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	close(fd);
	if (map == MAP_FAILED) {
		fprintf(stderr, "ktrace %s: %s: %s\n", cmd, path, strerror(errno));
		return -1;
	}
	unlink(tmp);
	ret = compress_to(cmd, map, st.st_size, tmp, st.st_mode & 0777, level, &csize);
	if (map)
		munmap(map, st.st_size);
	if (ret)
		return -1;
	if (rename(tmp, path)) {
		fprintf(stderr, "ktrace %s: renaming %s to %s: %s\n", cmd, tmp, path,
			strerror(errno));
		unlink(tmp);
		return -1;
	}
	return csize;
#else
	(void)level;
	fprintf(stderr, "ktrace %s: %s: this ktrace was built without libzstd\n", cmd, path);
	return -1;
#endif
}
