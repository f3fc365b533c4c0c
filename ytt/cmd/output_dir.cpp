// ytt's files.OutputDirectory over folder descriptors (see cmd.h, "Output folders").
#include "ytt/cmd/cmd.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <optional>
#include <set>


namespace hintkit::ytt {
namespace {

// Folders below the one being emptied, at most: each level holds one descriptor open while
// its entries are removed (Go's removeAllFrom does the same), and one stack frame. Deeper
// output trees are not something ytt writes.
constexpr int kMaxRemoveDepth = 1000;

// Go prints a system error in lower case ("permission denied").
std::string go_errno_text(int err) {
  std::string m = std::strerror(err);
  if (!m.empty()) m[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(m[0])));
  return m;
}

// Go's *os.PathError: "op path: error".
struct PathError {
  std::string op;
  std::string path;
  int err = 0;
};

[[noreturn]] void fail(const PathError& e) {
  throw YttError{e.op + " " + e.path + ": " + go_errno_text(e.err)};
}

class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Fd& operator=(Fd&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  Fd(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

int open_dir_at(int at, const char* name) {
  int fd;
  do {
    fd = ::openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

// Where a folder walk stopped: the path up to the component that failed, and why.
struct WalkStop {
  std::string label;
  int err = 0;
  bool link = false;     // the component is a symbolic link
  bool at_last = false;  // it is the walk's last component
};

struct Walked {
  Fd fd;
  std::optional<WalkStop> stop;
};

// Opens folder `rel` (absolute: from "/") below descriptor `at` one component at a time, each
// with O_DIRECTORY|O_NOFOLLOW; `create` makes missing ones with mode 0700 (os.MkdirAll's
// mode). Labels are `label_prefix` + the part of `rel` walked so far.
Walked open_folder(int at, const std::string& label_prefix, const std::string& rel, bool create) {
  Walked w;
  if (!rel.empty() && rel[0] == '/') {
    w.fd = Fd(open_dir_at(AT_FDCWD, "/"));
  } else {
    w.fd = Fd(open_dir_at(at, "."));
  }
  if (w.fd.get() < 0) {
    const bool rooted = !rel.empty() && rel[0] == '/';
    w.stop = WalkStop{rooted                 ? std::string("/")
                      : label_prefix.empty() ? std::string(".")
                                             : label_prefix.substr(0, label_prefix.size() - 1),
                      errno};
    return w;
  }
  size_t start = 0;
  while (start < rel.size()) {
    size_t end = rel.find('/', start);
    if (end == std::string::npos) end = rel.size();
    const std::string part = rel.substr(start, end - start);
    size_t next = end;
    while (next < rel.size() && rel[next] == '/') ++next;
    if (part.empty() || part == ".") {
      start = next;
      continue;
    }
    bool last = true;
    for (size_t k = next; k < rel.size();) {
      size_t e = rel.find('/', k);
      if (e == std::string::npos) e = rel.size();
      const std::string_view p(rel.data() + k, e - k);
      if (!p.empty() && p != ".") {
        last = false;
        break;
      }
      k = e + 1;
    }
    const std::string label = label_prefix + rel.substr(0, end);
    int fd = open_dir_at(w.fd.get(), part.c_str());
    if (fd < 0 && errno == ENOENT && create) {
      if (::mkdirat(w.fd.get(), part.c_str(), 0700) != 0 && errno != EEXIST) {
        w.stop = WalkStop{label, errno, false, last};
        w.fd = Fd();
        return w;
      }
      fd = open_dir_at(w.fd.get(), part.c_str());
    }
    if (fd < 0) {
      const int err = errno;
      struct stat st {};
      const bool link = (err == ENOTDIR || err == ELOOP) &&
                        ::fstatat(w.fd.get(), part.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                        S_ISLNK(st.st_mode);
      w.stop = WalkStop{label, err, link, last};
      w.fd = Fd();
      return w;
    }
    w.fd = Fd(fd);
    start = next;
  }
  return w;
}

[[noreturn]] void refuse_link(const std::string& path) {
  throw Unsupported{"writing or emptying output through the symbolic link " + path +
                    " (ytt follows it; give the folder's real path)"};
}

// Go's endsWithDot: "." or a path ending in "/.".
bool ends_with_dot(const std::string& p) {
  return p == "." || (p.size() >= 2 && p.back() == '.' && p[p.size() - 2] == '/');
}

// Go's os.splitPath: the parent folder ("." when none) and the last element.
std::pair<std::string, std::string> split_path(std::string path) {
  std::string dir = ".";
  while (path.size() > 1 && path[0] == '/' && path[1] == '/') path.erase(0, 1);
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  std::string base = path;
  for (size_t i = path.size() - 1; i-- > 0;) {
    if (path[i] == '/') {
      dir = i == 0 ? path.substr(0, 1) : path.substr(0, i);
      base = path.substr(i + 1);
      break;
    }
  }
  return {dir, base};
}

// Go's removeAllFrom: removes `base` in folder `parent` and everything below it, going on
// past failures and returning the first (its path relative to `parent`).
std::optional<PathError> remove_all_from(int parent, const std::string& base, int depth) {
  if (::unlinkat(parent, base.c_str(), 0) == 0 || errno == ENOENT) return std::nullopt;
  const int err = errno;
  // EISDIR: a folder, to empty first; EPERM, EACCES: the parent is read-only, but a folder
  // below it may still be emptied.
  if (err != EISDIR && err != EPERM && err != EACCES) return PathError{"unlinkat", base, err};
  struct stat st {};
  if (::fstatat(parent, base.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return std::nullopt;
    return PathError{"fstatat", base, errno};
  }
  if (!S_ISDIR(st.st_mode)) return PathError{"unlinkat", base, err};
  if (depth >= kMaxRemoveDepth) {
    throw Unsupported{"emptying an output folder nested deeper than " +
                      std::to_string(kMaxRemoveDepth) + " levels"};
  }
  std::optional<PathError> first;
  const int fd = open_dir_at(parent, base.c_str());
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    first = PathError{"openfdat", base, errno};
  } else if (DIR* d = ::fdopendir(fd); d == nullptr) {
    first = PathError{"openfdat", base, errno};
    ::close(fd);
  } else {
    std::vector<std::string> names;
    errno = 0;
    while (const dirent* e = ::readdir(d)) {
      if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) {
        names.emplace_back(e->d_name);
      }
      errno = 0;
    }
    if (errno != 0) {
      const int read_err = errno;
      ::closedir(d);
      if (read_err == ENOENT) return std::nullopt;
      return PathError{"readdirnames", base, read_err};
    }
    for (const std::string& name : names) {
      if (auto e = remove_all_from(::dirfd(d), name, depth + 1)) {
        e->path = base + "/" + e->path;
        if (!first) first = std::move(e);
      }
    }
    ::closedir(d);
  }
  if (::unlinkat(parent, base.c_str(), AT_REMOVEDIR) == 0 || errno == ENOENT) return std::nullopt;
  if (first) return first;
  return PathError{"unlinkat", base, errno};
}

// Go's filepath.Clean, as filepath.Join applies it: no empty, "." or "x/.." elements.
std::string go_clean_path(const std::string& p) {
  const bool rooted = !p.empty() && p[0] == '/';
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= p.size()) {
    size_t slash = p.find('/', start);
    if (slash == std::string::npos) slash = p.size();
    std::string part = p.substr(start, slash - start);
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..") {
        parts.pop_back();
      } else if (!rooted) {
        parts.push_back(part);
      }
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = slash + 1;
  }
  std::string out = rooted ? "/" : "";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "/" : "") + parts[i];
  return out.empty() ? "." : out;
}

// os.MkdirAll's outcome for a walk that stopped.
[[noreturn]] void fail_mkdir(const WalkStop& s) {
  if (s.link) refuse_link(s.label);
  fail({"mkdir", s.label, s.err});
}

// OutputFile.Create: os.MkdirAll(filepath.Dir(path), 0700), then os.OpenFile(path,
// O_WRONLY|O_CREATE|O_TRUNC, 0700) and one write. The folders are walked from `root` (the
// output folder, `root_clean` cleaned) when `path` lies below it.
void create_file(int root, const std::string& root_clean, const std::string& path,
                 const std::string& data) {
  int from = AT_FDCWD;
  std::string prefix;
  std::string rest = path;
  if (root_clean == "." && path != ".." && path.rfind("../", 0) != 0 && path[0] != '/') {
    from = root;
  } else if (root_clean == "/" && path.size() > 1 && path[0] == '/') {
    from = root;
    prefix = "/";
    rest = path.substr(1);
  } else if (path.size() > root_clean.size() &&
             path.compare(0, root_clean.size(), root_clean) == 0 &&
             path[root_clean.size()] == '/') {
    from = root;
    prefix = root_clean + "/";
    rest = path.substr(root_clean.size() + 1);
  }
  const size_t slash = rest.rfind('/');
  const std::string folder = slash == std::string::npos ? "" : rest.substr(0, slash);
  const std::string name = slash == std::string::npos ? rest : rest.substr(slash + 1);
  Walked parent = open_folder(from, prefix, folder, /*create=*/true);
  if (parent.stop) fail_mkdir(*parent.stop);
  int fd;
  do {
    fd = ::openat(parent.fd.get(), name.c_str(),
                  O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0700);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    if (errno == ELOOP) refuse_link(path);
    fail({"open", path, errno});
  }
  Fd file(fd);
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail({"write", path, n < 0 ? errno : EIO});
    done += static_cast<size_t>(n);
  }
}

}  // namespace

void go_remove_all(const std::string& path) {
  if (path.empty()) return;  // as Go: nothing, silently
  // The rmdir system call refuses ".", and so does Go, before anything is removed.
  if (ends_with_dot(path)) fail({"RemoveAll", path, EINVAL});
  const auto [parent_dir, base] = split_path(path);
  Walked parent = open_folder(AT_FDCWD, "", parent_dir, /*create=*/false);
  if (parent.stop) {
    const WalkStop& s = *parent.stop;
    if (s.link) refuse_link(s.label);
    if (s.err == ENOENT) return;  // Go's Remove(path) meets "no such file": nothing to do
    // Go's Open(parentDir) opens a file too, and unlinking in it is what fails.
    if (s.err == ENOTDIR && s.at_last) fail({"unlinkat", parent_dir + "/" + base, ENOTDIR});
    fail({"open", parent_dir, s.err});
  }
  struct stat st {
  }, root{};
  if (::fstatat(parent.fd.get(), base.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
      S_ISDIR(st.st_mode) && ::stat("/", &root) == 0 && st.st_dev == root.st_dev &&
      st.st_ino == root.st_ino) {
    throw Unsupported{"emptying the root folder (--dangerous-emptied-output-directory " + path +
                      ")"};
  }
  // Go's Remove(path): unlink, then rmdir.
  if (::unlinkat(parent.fd.get(), base.c_str(), 0) == 0 || errno == ENOENT) return;
  if (::unlinkat(parent.fd.get(), base.c_str(), AT_REMOVEDIR) == 0 || errno == ENOENT) return;
  if (auto e = remove_all_from(parent.fd.get(), base, 0)) {
    e->path = parent_dir + "/" + e->path;
    fail(*e);
  }
}

void write_output_directory(const std::string& dir, const std::vector<OutputFile>& files,
                            bool emptied, std::string& printed) {
  if (emptied) {
    std::set<std::string> seen;
    for (const auto& [rel, text] : files) {
      if (!seen.insert(rel).second) {
        throw YttError{"Multiple files have same output destination paths: " + rel};
      }
    }
    for (const char* bad : {"/", ".", "./", ""}) {
      if (dir == bad) {
        throw YttError{"Expected output directory path to not be one of '/', '.', './', ''"};
      }
    }
    go_remove_all(dir);
  }
  Walked root = open_folder(AT_FDCWD, "", dir, /*create=*/true);  // os.MkdirAll(dir, 0700)
  if (root.stop) fail_mkdir(*root.stop);
  const std::string root_clean = go_clean_path(dir);
  for (const auto& [rel, text] : files) {
    const std::string path = go_clean_path(dir + "/" + rel);  // filepath.Join
    printed += "creating: " + path + "\n";
    create_file(root.fd.get(), root_clean, path, text);
  }
}

}  // namespace hintkit::ytt
