// All-or-nothing writes of a set of files into one folder (see out_dir.h).
#include "plugin/out_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

namespace hintkit::plugin {

int FileSystem::mkdir(const char* path, mode_t mode) { return ::mkdir(path, mode); }
char* FileSystem::mkdtemp(char* pattern) { return ::mkdtemp(pattern); }
int FileSystem::open(const char* path, int flags, mode_t mode) { return ::open(path, flags, mode); }
ssize_t FileSystem::write(int fd, const void* data, size_t size) { return ::write(fd, data, size); }
int FileSystem::close(int fd) { return ::close(fd); }
int FileSystem::lstat(const char* path, struct stat* st) { return ::lstat(path, st); }
int FileSystem::rename(const char* from, const char* to) { return ::rename(from, to); }
int FileSystem::unlink(const char* path) { return ::unlink(path); }
int FileSystem::rmdir(const char* path) { return ::rmdir(path); }

namespace {

std::string why(const std::string& what, int err) { return what + ": " + std::strerror(err); }

// mkdir -p, reporting the first call that fails.
diag::Result<void> make_dirs(const std::string& dir, FileSystem& fs) {
  struct stat st;
  if (fs.lstat(dir.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return {};
    return diag::Error{why("cannot use " + dir + " as the output folder", ENOTDIR), {}};
  }
  const size_t slash = dir.find_last_of('/');
  if (slash != std::string::npos && slash > 0) {
    auto parent = make_dirs(dir.substr(0, slash), fs);
    if (!parent.ok()) return parent;
  }
  if (fs.mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
    return diag::Error{why("cannot create " + dir, errno), {}};
  }
  return {};
}

struct Staged {
  std::string tmp;     // the new content, in the private folder
  std::string target;  // where it goes
  std::string backup;  // the replaced target, moved aside; empty when there was none
  bool placed = false;
};

class Writer {
 public:
  Writer(std::string dir, FileSystem& fs) : dir_(std::move(dir)), fs_(fs) {}

  diag::Result<void> run(const std::vector<std::pair<std::string, std::string>>& files) {
    auto made = make_dirs(dir_, fs_);
    if (!made.ok()) return made;
    std::string pattern = dir_ + "/.hintkit-XXXXXX";
    if (fs_.mkdtemp(pattern.data()) == nullptr) {
      return diag::Error{why("cannot create a private folder in " + dir_, errno), {}};
    }
    private_ = pattern;
    // Refuse before anything moves: a folder where a file should go cannot be replaced.
    for (const auto& [name, text] : files) {
      const std::string target = dir_ + "/" + name + ".yaml";
      struct stat st;
      if (fs_.lstat(target.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
        return abort(why("cannot replace " + target, EISDIR));
      }
    }
    for (const auto& [name, text] : files) {
      Staged s;
      s.tmp = private_ + "/" + name + ".yaml";
      s.target = dir_ + "/" + name + ".yaml";
      staged_.push_back(s);
      auto written = write_file(s.tmp, text);
      if (!written.ok()) return abort(written.error().message);
    }
    for (Staged& s : staged_) {
      auto placed = place(s);
      if (!placed.ok()) return abort(placed.error().message);
    }
    cleanup();
    return {};
  }

 private:
  diag::Result<void> write_file(const std::string& path, const std::string& text) {
    const int fd =
        fs_.open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) return diag::Error{why("cannot create " + path, errno), {}};
    created_.push_back(path);
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = fs_.write(fd, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const int err = n < 0 ? errno : EIO;
        fs_.close(fd);
        return diag::Error{why("cannot write " + path, err), {}};
      }
      done += static_cast<size_t>(n);
    }
    if (fs_.close(fd) != 0) return diag::Error{why("cannot write " + path, errno), {}};
    return {};
  }

  diag::Result<void> place(Staged& s) {
    struct stat st;
    if (fs_.lstat(s.target.c_str(), &st) == 0) {
      const std::string backup = s.tmp + ".old";
      if (fs_.rename(s.target.c_str(), backup.c_str()) != 0) {
        return diag::Error{why("cannot move " + s.target + " aside", errno), {}};
      }
      s.backup = backup;
    }
    if (fs_.rename(s.tmp.c_str(), s.target.c_str()) != 0) {
      return diag::Error{why("cannot replace " + s.target, errno), {}};
    }
    s.placed = true;
    return {};
  }

  // Undoes every placed file (newest first), removes the private folder, returns the error.
  diag::Error abort(std::string message) {
    std::string undo_failures;
    for (auto it = staged_.rbegin(); it != staged_.rend(); ++it) {
      Staged& s = *it;
      if (s.placed && s.backup.empty() && fs_.unlink(s.target.c_str()) != 0) {
        undo_failures += "; and could not remove " + s.target + ": " + std::strerror(errno);
      }
      if (!s.backup.empty() && fs_.rename(s.backup.c_str(), s.target.c_str()) != 0) {
        undo_failures += "; and could not restore " + s.target + " (its old content is in " +
                         s.backup + "): " + std::strerror(errno);
        s.backup.clear();  // keep it where it is for the user
        keep_private_ = true;
      }
      s.backup.clear();
      s.placed = false;
    }
    cleanup();
    return diag::Error{message + undo_failures, {}};
  }

  void cleanup() {
    for (const Staged& s : staged_) {
      if (!s.placed) fs_.unlink(s.tmp.c_str());
      if (!s.backup.empty()) fs_.unlink(s.backup.c_str());
    }
    if (!keep_private_ && !private_.empty()) fs_.rmdir(private_.c_str());
  }

  std::string dir_;
  FileSystem& fs_;
  std::string private_;
  std::vector<Staged> staged_;
  std::vector<std::string> created_;
  bool keep_private_ = false;
};

}  // namespace

diag::Result<void> write_all(const std::string& dir,
                             const std::vector<std::pair<std::string, std::string>>& files,
                             FileSystem& fs) {
  // Past a file-size limit (RLIMIT_FSIZE) write() must fail with EFBIG and be rolled back;
  // SIGXFSZ's default action would kill the process halfway instead.
  std::signal(SIGXFSZ, SIG_IGN);
  std::string d = dir;
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  return Writer(d, fs).run(files);
}

}  // namespace hintkit::plugin
