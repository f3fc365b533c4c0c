// Internal: `resolve --config --out-dir`: writes every file or none.
//
// Files are staged in a private folder that mkdtemp creates inside the target folder (so the
// final renames stay on one filesystem), each opened with O_CREAT|O_EXCL|O_NOFOLLOW, then
// renamed over its target one by one. A target that is being replaced is first moved into the
// private folder, so when a later rename fails every earlier one is undone and the folder is
// as it was. Every error carries strerror of the call that failed. The system calls go
// through `FileSystem`, so tests can make any of them fail (a full disk, a read-only folder).
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

#include "diag/diag.h"

namespace hintkit::plugin {

// The calls `write_all` makes; each returns what the POSIX call returns and sets errno.
class FileSystem {
 public:
  virtual ~FileSystem() = default;
  virtual int mkdir(const char* path, mode_t mode);
  virtual char* mkdtemp(char* pattern);
  virtual int open(const char* path, int flags, mode_t mode);
  virtual ssize_t write(int fd, const void* data, size_t size);
  virtual int close(int fd);
  virtual int lstat(const char* path, struct stat* st);
  virtual int rename(const char* from, const char* to);
  virtual int unlink(const char* path);
  virtual int rmdir(const char* path);
};

// (file name inside `dir`, content) pairs. Creates `dir` (and its parents) when missing.
diag::Result<void> write_all(const std::string& dir,
                             const std::vector<std::pair<std::string, std::string>>& files,
                             FileSystem& fs);

}  // namespace hintkit::plugin
