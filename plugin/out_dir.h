// Internal: `resolve --config --out-dir`: writes every file or none.
//
// Everything happens relative to folder descriptors: the output folder is opened one component
// at a time with O_DIRECTORY|O_NOFOLLOW from its parent (missing ones made with mode 0700), so
// neither a symbolic link already on the path nor a folder swapped for one while hintkit runs
// can send the files elsewhere. Files are staged in a private folder made with mkdirat(0700)
// under a random name inside the output folder (so the renames stay on one filesystem), each
// written with O_CREAT|O_EXCL|O_NOFOLLOW and mode 0600 (they may hold secrets), then renamed
// over its target one by one with renameat. A target that is being replaced is first moved
// into the private folder, so when a later rename fails every earlier one is undone and the
// folder is as it was. Every error carries strerror of the call that failed. The system calls
// go through `FileSystem`, so tests can make any of them fail or change the folder mid-run.
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
  virtual int openat(int dir, const char* path, int flags, mode_t mode);
  virtual int mkdirat(int dir, const char* path, mode_t mode);
  virtual ssize_t write(int fd, const void* data, size_t size);
  virtual int close(int fd);
  virtual int fstatat(int dir, const char* path, struct stat* st, int flags);
  virtual int renameat(int from_dir, const char* from, int to_dir, const char* to);
  virtual int unlinkat(int dir, const char* path, int flags);
  // The private folder's name: ".hintkit-" and random letters (a new name on each call).
  virtual std::string private_name();
};

// Modes of what `write_all` creates: the files may hold secrets (values from 1Password), so
// only their owner may read them.
inline constexpr mode_t kOutFileMode = 0600;
inline constexpr mode_t kOutFolderMode = 0700;

// (file name inside `dir`, content) pairs. Creates `dir` (and its parents) when missing.
diag::Result<void> write_all(const std::string& dir,
                             const std::vector<std::pair<std::string, std::string>>& files,
                             FileSystem& fs);

}  // namespace hintkit::plugin
