#!/usr/bin/env python3
"""A pass-through FUSE file system whose reads and writes of file data cost bandwidth: the
bench's stand-in for remote checkpoint storage (S3, GCS, ...).

    throttlefs.py BACKING_DIR MOUNTPOINT MB_PER_S STATS_FILE

Every byte read or written through MOUNTPOINT takes tokens from one bucket per direction
(MB_PER_S each, 1 MB = 10^6 bytes, burst 1/10 s), shared by all pods, as an object store's link
is. `direct_io` keeps the kernel's page cache out: a restore reads through the bucket even when
the same host wrote the file seconds before (an object store has no client cache either).
Metadata operations (open, stat, list, rename, delete) are free. Counters (bytes read/written,
throttled seconds) are written as JSON to STATS_FILE twice a second. Runs in the foreground.
Needs Debian's python3-fusepy (libfuse2).
"""
import errno
import json
import os
import sys
import threading
import time

from fusepy import FUSE, FuseOSError, Operations


class Bucket:
    def __init__(self, rate):
        self.rate = rate
        self.capacity = max(rate / 10.0, 1 << 20)
        self.tokens = self.capacity
        self.last = time.monotonic()
        self._mutex = threading.Lock()
        self.waited = 0.0

    def take(self, n):
        if self.rate <= 0:
            return
        while n > 0:
            with self._mutex:
                now = time.monotonic()
                self.tokens = min(self.capacity, self.tokens + (now - self.last) * self.rate)
                self.last = now
                chunk = min(n, self.capacity)
                if self.tokens >= chunk:
                    self.tokens -= chunk
                    n -= chunk
                    continue
                wait = (chunk - self.tokens) / self.rate
            self.waited += wait
            time.sleep(wait)


class ThrottledPassthrough(Operations):
    def __init__(self, root, rate, stats_file):
        self.root = os.path.realpath(root)
        self.read_bucket = Bucket(rate)
        self.write_bucket = Bucket(rate)
        self.stats = {"bytesRead": 0, "bytesWritten": 0, "readOps": 0, "writeOps": 0}
        self.stats_file = stats_file
        self._mutex = threading.Lock()
        threading.Thread(target=self._dump, daemon=True).start()

    def _dump(self):
        while True:
            with self._mutex:
                data = dict(self.stats)
            data["readWaitS"] = round(self.read_bucket.waited, 3)
            data["writeWaitS"] = round(self.write_bucket.waited, 3)
            data["at"] = time.time()
            tmp = self.stats_file + ".tmp"
            with open(tmp, "w") as f:
                json.dump(data, f)
            os.replace(tmp, self.stats_file)
            time.sleep(0.5)

    def _p(self, path):
        return os.path.join(self.root, path.lstrip("/"))

    def access(self, path, mode):
        if not os.access(self._p(path), mode):
            raise FuseOSError(errno.EACCES)

    def chmod(self, path, mode):
        return os.chmod(self._p(path), mode)

    def chown(self, path, uid, gid):
        return os.chown(self._p(path), uid, gid)

    def create(self, path, mode, fi=None):
        return os.open(self._p(path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)

    def flush(self, path, fh):
        return 0

    def fsync(self, path, datasync, fh):
        return 0

    def getattr(self, path, fh=None):
        st = os.lstat(self._p(path))
        return {k: getattr(st, k) for k in ("st_atime", "st_ctime", "st_gid", "st_mode", "st_mtime", "st_nlink", "st_size", "st_uid")}

    def mkdir(self, path, mode):
        return os.mkdir(self._p(path), mode)

    def open(self, path, flags):
        return os.open(self._p(path), flags)

    def read(self, path, size, offset, fh):
        data = os.pread(fh, size, offset)
        self.read_bucket.take(len(data))
        with self._mutex:
            self.stats["bytesRead"] += len(data)
            self.stats["readOps"] += 1
        return data

    def readdir(self, path, fh):
        return [".", ".."] + os.listdir(self._p(path))

    def release(self, path, fh):
        return os.close(fh)

    def rename(self, old, new):
        return os.rename(self._p(old), self._p(new))

    def rmdir(self, path):
        return os.rmdir(self._p(path))

    def statfs(self, path):
        st = os.statvfs(self._p(path))
        return {k: getattr(st, k) for k in ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail", "f_ffree", "f_files", "f_flag", "f_frsize", "f_namemax")}

    def truncate(self, path, length, fh=None):
        with open(self._p(path), "r+") as f:
            f.truncate(length)

    def unlink(self, path):
        return os.unlink(self._p(path))

    def utimens(self, path, times=None):
        return os.utime(self._p(path), times)

    def write(self, path, data, offset, fh):
        self.write_bucket.take(len(data))
        with self._mutex:
            self.stats["bytesWritten"] += len(data)
            self.stats["writeOps"] += 1
        return os.pwrite(fh, data, offset)


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    root, mountpoint, mbps, stats_file = sys.argv[1:]
    rate = float(mbps) * 1e6
    FUSE(
        ThrottledPassthrough(root, rate, stats_file),
        mountpoint,
        foreground=True,
        nothreads=False,
        allow_other=True,
        direct_io=True,
        big_writes=True,
        max_read=1 << 20,
        max_write=1 << 20,
    )


if __name__ == "__main__":
    main()
