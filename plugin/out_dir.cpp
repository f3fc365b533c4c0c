// All-or-nothing writes of a set of files into one folder (see out_dir.h).
#include "plugin/out_dir.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <random>

namespace hintkit::plugin {

int FileSystem::openat(int dir, const char* path, int flags, mode_t mode) {
  return ::openat(dir, path, flags, mode);
}
int FileSystem::mkdirat(int dir, const char* path, mode_t mode) {
  return ::mkdirat(dir, path, mode);
}
ssize_t FileSystem::write(int fd, const void* data, size_t size) { return ::write(fd, data, size); }
int FileSystem::close(int fd) { return ::close(fd); }
int FileSystem::fstatat(int dir, const char* path, struct stat* st, int flags) {
  return ::fstatat(dir, path, st, flags);
}
int FileSystem::renameat(int from_dir, const char* from, int to_dir, const char* to) {
  return ::renameat(from_dir, from, to_dir, to);
}
int FileSystem::unlinkat(int dir, const char* path, int flags) {
  return ::unlinkat(dir, path, flags);
}
std::string FileSystem::private_name() {
  static constexpr char kLetters[] =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  unsigned char bytes[12];
  if (::getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes)) {
    std::random_device rd;
    for (unsigned char& b : bytes) b = static_cast<unsigned char>(rd());
  }
  std::string name = ".hintkit-";
  for (unsigned char b : bytes) name += kLetters[b % (sizeof kLetters - 1)];
  return name;
}

namespace {

// Private folder names tried before giving up: each is 12 random letters, so a clash is
// someone else's folder of that name, and more than a few in a row is no accident.
constexpr int kPrivateNameTries = 16;

std::string why(const std::string& what, int err) { return what + ": " + std::strerror(err); }

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

// A descriptor of the FileSystem, closed when it goes out of scope.
class Fd {
 public:
  explicit Fd(FileSystem& fs, int fd = -1) : fs_(&fs), fd_(fd) {}
  Fd(Fd&& o) noexcept : fs_(o.fs_), fd_(o.fd_) { o.fd_ = -1; }
  Fd& operator=(Fd&& o) noexcept {
    std::swap(fs_, o.fs_);
    std::swap(fd_, o.fd_);
    return *this;
  }
  ~Fd() {
    if (fd_ >= 0) fs_->close(fd_);
  }
  int get() const { return fd_; }

 private:
  FileSystem* fs_;
  int fd_;
};

// Opens `dir` one component at a time (mkdir -p with O_NOFOLLOW on every component),
// reporting the first call that fails with the path up to the component it was about.
diag::Result<void> open_output_folder(const std::string& dir, FileSystem& fs, Fd& out) {
  Fd at(fs, fs.openat(AT_FDCWD, !dir.empty() && dir[0] == '/' ? "/" : ".", kDirFlags, 0));
  if (at.get() < 0) return diag::Error{why("cannot open the folder of " + dir, errno), {}};
  size_t start = 0;
  while (start < dir.size()) {
    size_t end = dir.find('/', start);
    if (end == std::string::npos) end = dir.size();
    const std::string part = dir.substr(start, end - start);
    start = end + 1;
    if (part.empty() || part == ".") continue;
    const std::string shown = dir.substr(0, end);
    int fd = fs.openat(at.get(), part.c_str(), kDirFlags, 0);
    if (fd < 0 && errno == ENOENT) {
      if (fs.mkdirat(at.get(), part.c_str(), kOutFolderMode) != 0 && errno != EEXIST) {
        return diag::Error{why("cannot create " + shown, errno), {}};
      }
      fd = fs.openat(at.get(), part.c_str(), kDirFlags, 0);
    }
    if (fd < 0) {
      const int err = errno;
      struct stat st;
      if ((err == ENOTDIR || err == ELOOP) &&
          fs.fstatat(at.get(), part.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
          S_ISLNK(st.st_mode)) {
        return diag::Error{"cannot use " + shown +
                               " on the way to the output folder: it is a symbolic link, and "
                               "--out-dir follows none (give the real path)",
                           {}};
      }
      return diag::Error{why("cannot use " + shown + " as the output folder", err), {}};
    }
    at = Fd(fs, fd);
  }
  out = std::move(at);
  return {};
}

struct Staged {
  std::string name;    // the file's name, in the private folder and in the output folder
  std::string backup;  // the replaced target's name in the private folder; empty: none
  bool placed = false;
};

class Writer {
 public:
  Writer(std::string dir, FileSystem& fs) : dir_(std::move(dir)), fs_(fs), out_(fs), priv_(fs) {}

  diag::Result<void> run(const std::vector<std::pair<std::string, std::string>>& files) {
    auto opened = open_output_folder(dir_, fs_, out_);
    if (!opened.ok()) return opened;
    auto made = make_private_folder();
    if (!made.ok()) return made;
    // Refuse before anything moves: a folder where a file should go cannot be replaced.
    for (const auto& [name, text] : files) {
      const std::string file = name + ".yaml";
      struct stat st;
      if (fs_.fstatat(out_.get(), file.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
          S_ISDIR(st.st_mode)) {
        return abort(why("cannot replace " + target(file), EISDIR));
      }
    }
    for (const auto& [name, text] : files) {
      staged_.push_back(Staged{name + ".yaml", "", false});
      auto written = write_file(staged_.back().name, text);
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
  std::string target(const std::string& name) const { return dir_ + "/" + name; }
  std::string staged(const std::string& name) const { return dir_ + "/" + private_ + "/" + name; }

  diag::Result<void> make_private_folder() {
    int err = EEXIST;
    for (int i = 0; i < kPrivateNameTries && err == EEXIST; ++i) {
      const std::string name = fs_.private_name();
      if (fs_.mkdirat(out_.get(), name.c_str(), kOutFolderMode) == 0) {
        private_ = name;
        priv_ = Fd(fs_, fs_.openat(out_.get(), name.c_str(), kDirFlags, 0));
        if (priv_.get() < 0) return abort(why("cannot open a private folder in " + dir_, errno));
        return {};
      }
      err = errno;
    }
    return diag::Error{why("cannot create a private folder in " + dir_, err), {}};
  }

  diag::Result<void> write_file(const std::string& name, const std::string& text) {
    const int fd = fs_.openat(priv_.get(), name.c_str(),
                              O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, kOutFileMode);
    if (fd < 0) return diag::Error{why("cannot create " + staged(name), errno), {}};
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = fs_.write(fd, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const int err = n < 0 ? errno : EIO;
        fs_.close(fd);
        return diag::Error{why("cannot write " + staged(name), err), {}};
      }
      done += static_cast<size_t>(n);
    }
    if (fs_.close(fd) != 0) return diag::Error{why("cannot write " + staged(name), errno), {}};
    return {};
  }

  diag::Result<void> place(Staged& s) {
    struct stat st;
    if (fs_.fstatat(out_.get(), s.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
      const std::string backup = s.name + ".old";
      if (fs_.renameat(out_.get(), s.name.c_str(), priv_.get(), backup.c_str()) != 0) {
        return diag::Error{why("cannot move " + target(s.name) + " aside", errno), {}};
      }
      s.backup = backup;
    }
    if (fs_.renameat(priv_.get(), s.name.c_str(), out_.get(), s.name.c_str()) != 0) {
      return diag::Error{why("cannot replace " + target(s.name), errno), {}};
    }
    s.placed = true;
    return {};
  }

  // Undoes every placed file (newest first), removes the private folder, returns the error.
  diag::Error abort(std::string message) {
    std::string undo_failures;
    for (auto it = staged_.rbegin(); it != staged_.rend(); ++it) {
      Staged& s = *it;
      if (s.placed && s.backup.empty() && fs_.unlinkat(out_.get(), s.name.c_str(), 0) != 0) {
        undo_failures += "; and could not remove " + target(s.name) + ": " + std::strerror(errno);
      }
      if (!s.backup.empty() &&
          fs_.renameat(priv_.get(), s.backup.c_str(), out_.get(), s.name.c_str()) != 0) {
        undo_failures += "; and could not restore " + target(s.name) + " (its old content is in " +
                         staged(s.backup) + "): " + std::strerror(errno);
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
    if (priv_.get() >= 0) {
      for (const Staged& s : staged_) {
        if (!s.placed) fs_.unlinkat(priv_.get(), s.name.c_str(), 0);
        if (!s.backup.empty()) fs_.unlinkat(priv_.get(), s.backup.c_str(), 0);
      }
    }
    if (!keep_private_ && !private_.empty()) {
      fs_.unlinkat(out_.get(), private_.c_str(), AT_REMOVEDIR);
    }
  }

  std::string dir_;
  FileSystem& fs_;
  Fd out_;               // the output folder
  Fd priv_;              // the private folder inside it
  std::string private_;  // its name
  std::vector<Staged> staged_;
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
