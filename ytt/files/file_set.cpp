// The input file set (ytt's pkg/files and the library tree of pkg/workspace/library.go).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <tuple>
#include <unordered_map>

#include "fileio/fileio.h"
#include "gocompat/gocompat.h"
#include "ytt/files/files.h"

namespace hintkit::ytt {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kPrivateLibrary = "_ytt_lib";

bool ends_with(std::string_view s, std::string_view suf) {
  return s.size() >= suf.size() && s.substr(s.size() - suf.size()) == suf;
}

std::string_view base_name(std::string_view rel) {
  size_t slash = rel.rfind('/');
  return slash == std::string_view::npos ? rel : rel.substr(slash + 1);
}

std::vector<std::string> split_slash(std::string_view p) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t s = p.find('/', start);
    out.emplace_back(
        p.substr(start, s == std::string_view::npos ? std::string_view::npos : s - start));
    if (s == std::string_view::npos) break;
    start = s + 1;
  }
  return out;
}

std::string join_slash(const std::vector<std::string>& pieces, size_t n) {
  std::string out;
  for (size_t i = 0; i < n && i < pieces.size(); ++i) out += (i ? "/" : "") + pieces[i];
  return out;
}

// How Go's os.Lstat words a path that is not there.
std::string lstat_problem(const std::string& path) {
  return "lstat " + path + ": no such file or directory";
}

// Go's filepath.Clean + filepath.Abs, enough for relative paths below a folder.
std::string go_abs(const std::string& p) {
  return fs::absolute(fs::path(p)).lexically_normal().generic_string();
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "pipe:[N]", as Linux names a pipe's inode.
bool is_pipe_name(std::string_view s) {
  return s.size() > 7 && s.substr(0, 6) == "pipe:[" && s.back() == ']' &&
         all_digits(s.substr(6, s.size() - 7));
}

// Go's filepath.Clean: the shortest path naming the same file, by lexical processing.
std::string go_clean(std::string_view p) {
  if (p.empty()) return ".";
  const bool rooted = p[0] == '/';
  std::vector<std::string_view> parts;
  size_t kept_dotdots = 0;  // leading ".." of a relative path, which stay
  for (size_t i = 0; i < p.size();) {
    size_t j = p.find('/', i);
    if (j == std::string_view::npos) j = p.size();
    std::string_view part = p.substr(i, j - i);
    i = j + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (parts.size() > kept_dotdots) {
        parts.pop_back();
      } else if (!rooted) {
        parts.push_back(part);
        ++kept_dotdots;
      }
      continue;
    }
    parts.push_back(part);
  }
  std::string out = rooted ? "/" : "";
  for (size_t k = 0; k < parts.size(); ++k) out += (k ? "/" : "") + std::string(parts[k]);
  return out.empty() ? "." : out;
}

// Go's os.Getwd: $PWD when it names the current folder (a path through a symlink stays as
// the shell spelled it), else the kernel's path of it.
std::string go_getwd() {
  struct stat dot {}, pwd {};
  if (const char* env = std::getenv("PWD"); env && env[0] == '/' && ::stat(".", &dot) == 0 &&
                                            ::stat(env, &pwd) == 0 && dot.st_dev == pwd.st_dev &&
                                            dot.st_ino == pwd.st_ino) {
    return env;
  }
  std::error_code ec;
  return fs::current_path(ec).string();
}

// Go's filepath.Abs.
std::string go_abs_path(std::string_view p) {
  if (!p.empty() && p[0] == '/') return go_clean(p);
  return go_clean(go_getwd() + "/" + std::string(p));
}

// Go's text for an errno, as its syscall.Errno.Error() words it: the C library's, lower case
// first.
std::string go_errno_text(int err) {
  std::string t = std::strerror(err);
  if (!t.empty() && t[0] >= 'A' && t[0] <= 'Z' && !(t.size() > 1 && t[1] >= 'A' && t[1] <= 'Z'))
    t[0] = static_cast<char>(t[0] - 'A' + 'a');
  return t;
}

// Go caps the symlinks one EvalSymlinks follows (a loop ends there instead of running on).
constexpr int kMaxSymlinksWalked = 255;

// Go's filepath.EvalSymlinks (walkSymlinks): `path` with every symlink on the way replaced
// by its target, component by component, cleaned; or `error`, as Go words it.
struct Resolved {
  std::string path;
  std::string error;
  bool ok() const { return error.empty(); }
};
Resolved go_eval_symlinks(std::string path) {
  size_t vol_len = !path.empty() && path[0] == '/' ? 1 : 0;
  std::string vol = path.substr(0, vol_len);
  std::string dest = vol;
  int links_walked = 0;
  auto last_slash_after_vol = [&]() -> long {
    long r = static_cast<long>(dest.size()) - 1;
    for (; r >= static_cast<long>(vol_len); --r)
      if (dest[static_cast<size_t>(r)] == '/') break;
    return r;
  };
  for (size_t start = vol_len, end = vol_len; start < path.size(); start = end) {
    while (start < path.size() && path[start] == '/') ++start;
    end = start;
    while (end < path.size() && path[end] != '/') ++end;
    if (end == start) break;  // no more components
    const std::string part = path.substr(start, end - start);
    if (part == ".") continue;
    if (part == "..") {
      const long r = last_slash_after_vol();
      if (r < static_cast<long>(vol_len) || dest.substr(static_cast<size_t>(r + 1)) == "..") {
        if (dest.size() > vol_len) dest += "/";
        dest += "..";
      } else {
        dest.resize(static_cast<size_t>(r));
      }
      continue;
    }
    if (!dest.empty() && dest.back() != '/') dest += "/";
    dest += part;
    struct stat st {};
    if (::lstat(dest.c_str(), &st) != 0) {
      return {"", "lstat " + dest + ": " + go_errno_text(errno)};
    }
    if (!S_ISLNK(st.st_mode)) {
      if (!S_ISDIR(st.st_mode) && end < path.size()) return {"", "not a directory"};
      continue;
    }
    if (++links_walked > kMaxSymlinksWalked) {
      return {"", "EvalSymlinks: too many links"};
    }
    std::error_code ec;
    const std::string link = fs::read_symlink(dest, ec).string();
    if (ec) return {"", "readlink " + dest + ": " + go_errno_text(ec.value())};
    path = link + path.substr(end);
    if (!link.empty() && link[0] == '/') {
      dest = "/";
      end = 1;
      vol = "/";
      vol_len = 1;
    } else {
      const long r = last_slash_after_vol();
      if (r < static_cast<long>(vol_len)) {
        dest = vol;
      } else {
        dest.resize(static_cast<size_t>(r));
      }
      end = 0;
    }
  }
  return {go_clean(dest), ""};
}

// ytt's Symlink.isIn: `path` is `allowed` or below it (both made absolute and clean, compared
// by their '/'-separated pieces).
bool symlink_is_in(std::string_view path, std::string_view allowed) {
  auto pieces = [](const std::string& p) {
    return p == "/" ? std::vector<std::string>{""} : split_slash(p);
  };
  const auto have = pieces(go_abs_path(path)), want = pieces(go_abs_path(allowed));
  if (want.size() > have.size()) return false;
  return std::equal(want.begin(), want.end(), have.begin());
}

// "lstat /proc/N/fd/pipe:[M]: no such file or directory": resolving a shell's `<(...)`
// (`/dev/fd/63`) ends at a pipe, which exists nowhere on disk and so cannot smuggle a file in;
// ytt lets such a link through by this error.
bool is_pipe_link_error(std::string_view e) {
  constexpr std::string_view kHead = "lstat /proc/", kTail = ": no such file or directory";
  if (!e.starts_with(kHead) || !e.ends_with(kTail)) return false;
  e = e.substr(kHead.size(), e.size() - kHead.size() - kTail.size());
  const size_t slash = e.find('/');
  if (slash == std::string_view::npos || !all_digits(e.substr(0, slash))) return false;
  e.remove_prefix(slash);
  constexpr std::string_view kFd = "/fd/";
  return e.starts_with(kFd) && is_pipe_name(e.substr(kFd.size()));
}

// ytt's Symlink.IsAllowed: nullopt when `path` may be read; else the error, as ytt words it.
// `read_from` is then what to open: the destination the check resolved (no symlink on its
// way when it was looked at), or the link itself where ytt does not resolve it.
std::optional<std::string> symlink_problem(const std::string& path, const ReadRules& rules,
                                           std::string& read_from) {
  read_from = path;
  if (rules.allow_all_symlinks) return std::nullopt;
  auto dst = go_eval_symlinks(path);
  if (!dst.ok()) {
    if (is_pipe_link_error(dst.error)) return std::nullopt;
    return "Eval symlink: " + dst.error;
  }
  if (rules.allowed_symlink_destinations) {
    for (const auto& allowed : *rules.allowed_symlink_destinations) {
      if (symlink_is_in(dst.path, allowed)) {
        read_from = dst.path;
        return std::nullopt;
      }
    }
  }
  return "Expected symlink file '" + path + "' -> '" + dst.path +
         "' to be allowed, but was not (hint: symlinks are disallowed as a security feature, use "
         "'--allow-symlink-destination' flags to override)";
}

// What reading an allowed symlink's destination gives: its text, or the error ytt meets when
// it reads the file (os.ReadFile: "open x: ...", "read x: is a directory"), kept for when the
// text is needed.
struct LinkRead {
  std::string text;
  std::string error;
};

LinkRead read_through_link(const std::string& path, const std::string& read_from,
                           const ReadRules& rules) {
  const int fd = ::open(read_from.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return {"", "open " + path + ": " + go_errno_text(errno)};
  struct stat st {};
  const bool is_dir = ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
  ::close(fd);
  if (is_dir) return {"", "read " + path + ": " + go_errno_text(EISDIR)};
  auto text = fileio::read_file(
      read_from, fileio::kMaxFileBytes,
      rules.regular_only ? fileio::FileKinds::kRegularOnly : fileio::FileKinds::kAny);
  if (!text.ok()) throw YttError{"Reading file '" + path + "': " + text.error().message};
  return {std::move(*text), ""};
}

// One file of a folder or argument, as ytt's NewRegularFileLocalSource takes it: regular
// files, named pipes and symlinks its SymlinkAllowOpts allow are read (a symlink is looked
// at, not followed, so one to a folder is a file here too).
LinkRead checked_read(const std::string& path, const struct stat& st, const ReadRules& rules) {
  if ((!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISLNK(st.st_mode)) ||
      (rules.regular_only && S_ISFIFO(st.st_mode))) {
    throw YttError{"Expected file '" + path + "' to be a regular file, but was not"};
  }
  std::string read_from = path;
  if (S_ISLNK(st.st_mode)) {
    if (auto problem = symlink_problem(path, rules, read_from)) {
      throw YttError{"Checking symlink file '" + path + "': " + *problem};
    }
  }
  if (rules.unsaved_texts) {
    if (auto it = rules.unsaved_texts->find(path); it != rules.unsaved_texts->end()) {
      return {it->second, ""};
    }
  }
  if (S_ISLNK(st.st_mode)) return read_through_link(path, read_from, rules);
  auto text = fileio::read_file(
      path, fileio::kMaxFileBytes,
      rules.regular_only ? fileio::FileKinds::kRegularOnly : fileio::FileKinds::kAny);
  if (!text.ok()) throw YttError{"Reading file '" + path + "': " + text.error().message};
  return {std::move(*text), ""};
}

SourceFile make_file(std::string rel, LinkRead read) {
  SourceFile f;
  f.path = std::move(rel);
  f.lines = SourceLines(std::move(read.text));
  f.read_error = std::move(read.error);
  f.in_file_set = true;
  return f;
}

SourceFile make_file(std::string rel, std::string text) {
  return make_file(std::move(rel), LinkRead{std::move(text), ""});
}

// A folder as ytt's filepath.Walk sees it: lexical order, symlinks not followed.
void walk(const std::string& root, const std::string& dir, std::vector<SourceFile>& out,
          const ReadRules& rules) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    std::string p = dir + (ends_with(dir, "/") ? "" : "/") + name;
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) continue;  // vanished while listing
    if (S_ISDIR(st.st_mode)) {
      walk(root, p, out, rules);
      continue;
    }
    LinkRead text;
    text = with_context("Listing files '" + root + "': ",
                        [&] { return checked_read(p, st, rules); });
    std::string abs_root = go_abs(root), abs_p = go_abs(p);
    std::string rel = abs_p.substr(std::min(abs_root.size(), abs_p.size()));
    if (!rel.empty() && rel[0] == '/') rel.erase(0, 1);
    out.push_back(make_file(std::move(rel), std::move(text)));
  }
}

}  // namespace

// The library tree of pkg/workspace: one library per folder, children in the order their
// first file came; `_ytt_lib` folders are private. Children and files are found by name in
// constant time: a lookup costs the depth of its path, not the size of the file set.
struct Library {
  std::string name;
  std::vector<size_t> files;  // indexes into Files::files
  std::vector<std::unique_ptr<Library>> children;
  std::unordered_map<std::string_view, Library*> by_name;          // keys: children's names
  std::unordered_map<std::string_view, size_t> file_by_base_name;  // the first file of a name
  bool is_private() const { return name == kPrivateLibrary; }
  Library* child(std::string_view n) const {
    auto it = by_name.find(n);
    return it == by_name.end() ? nullptr : it->second;
  }
  Library* child_or_new(std::string_view n) {
    if (Library* c = child(n)) return c;
    children.push_back(std::make_unique<Library>());
    children.back()->name = std::string(n);
    return by_name.emplace(children.back()->name, children.back().get()).first->second;
  }
};

namespace {

std::shared_ptr<const Library> build_library_tree(const Files& files) {
  auto root = std::make_shared<Library>();
  for (size_t i = 0; i < files.files.size(); ++i) {
    const SourceFile& f = files.files[i];
    if (!f.in_file_set) continue;
    auto pieces = split_slash(f.path);
    Library* lib = root.get();
    for (size_t k = 0; k + 1 < pieces.size(); ++k) lib = lib->child_or_new(pieces[k]);
    lib->files.push_back(i);
    lib->file_by_base_name.emplace(base_name(f.path), i);
  }
  // Private libraries hold no file of the set, but finding a path through one says so.
  for (const auto& dir : files.private_libraries) {
    Library* lib = root.get();
    for (const auto& piece : split_slash(dir)) lib = lib->child_or_new(piece);
  }
  return root;
}

// The library tree of `files`, built once and kept in `files` (and shared with the Files of
// the libraries evaluated from them, which start with the same files): it is rebuilt only when
// a file of the set was added since, never for each load() or data.read().
Library* library_tree(const Files& files) {
  LibraryTreeCache& cache = files.library_tree_cache;
  bool valid = cache.root && cache.private_libraries == files.private_libraries.size() &&
               cache.files <= files.files.size();
  for (size_t i = cache.files; valid && i < files.files.size(); ++i) {
    if (files.files[i].in_file_set) valid = false;  // flag files (data values) do not count
  }
  if (!valid) cache.root = build_library_tree(files);
  cache.files = files.files.size();
  cache.private_libraries = files.private_libraries.size();
  // Read only from here on: shared between engines, never changed once built.
  return const_cast<Library*>(cache.root.get());
}

void collect_files(const Library& lib, std::vector<size_t>& out) {
  out.insert(out.end(), lib.files.begin(), lib.files.end());
  for (const auto& c : lib.children) collect_files(*c, out);
}

// `from` (a folder path from the root; never private) as a library.
Library* library_at(Library* root, std::string_view from) {
  if (from.empty()) return root;
  Library* lib = root;
  for (const auto& p : split_slash(from)) {
    lib = lib ? lib->child(p) : nullptr;
  }
  return lib ? lib : root;
}

// ytt's Library.FindLibrary.
Library* find_library(Library* lib, std::string_view path, std::string& error) {
  auto pieces = split_slash(path);
  for (size_t i = 0; i < pieces.size(); ++i) {
    Library* c = lib->child(pieces[i]);
    if (!c) {
      error = "Did not find '" + join_slash(pieces, std::min(i, pieces.size() - 1)) + "'";
      return nullptr;
    }
    if (c->is_private()) {
      error = "Encountered private library '" + std::string(kPrivateLibrary) + "'";
      return nullptr;
    }
    lib = c;
  }
  return lib;
}

void list_accessible(const Files& files, const Library& lib, const std::string& prefix,
                     std::vector<std::string>& out) {
  for (size_t i : lib.files) out.push_back(prefix + std::string(base_name(files.files[i].path)));
  for (const auto& c : lib.children) {
    if (!c->is_private()) list_accessible(files, *c, prefix + c->name + "/", out);
  }
}

}  // namespace

FileType file_type(std::string_view rel) {
  std::string_view name = base_name(rel);
  if (ends_with(name, ".yaml") || ends_with(name, ".yml")) return FileType::kYaml;
  if (ends_with(name, ".star")) return FileType::kStarlark;
  if (ends_with(name, ".txt")) return FileType::kText;
  return FileType::kUnknown;
}

bool is_library_file(std::string_view rel) {
  if (file_type(rel) == FileType::kStarlark) return true;
  std::vector<std::string> exts;
  std::string_view name = base_name(rel);
  size_t start = 0;
  while (true) {
    size_t dot = name.find('.', start);
    exts.emplace_back(name.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return exts.size() > 2 && exts[exts.size() - 2] == "lib";
}

bool is_template_file(std::string_view rel) {
  FileType t = file_type(rel);
  return !is_library_file(rel) && (t == FileType::kYaml || t == FileType::kText);
}

FileType file_type(const SourceFile& f) {
  return f.marked_type ? *f.marked_type : file_type(f.path);
}

bool is_library_file(const SourceFile& f) {
  // ytt's IsLibrary: the `.lib.` name, or the (marked) Starlark type
  return is_library_file(f.path) || file_type(f) == FileType::kStarlark;
}

bool is_template_file(const SourceFile& f) {
  if (f.marked_template) return *f.marked_template;
  const FileType t = file_type(f);
  return !is_library_file(f) && (t == FileType::kYaml || t == FileType::kText);
}

bool is_for_output(const SourceFile& f) {
  if (f.marked_for_output) return *f.marked_for_output;
  if (f.marked_template && *f.marked_template) return true;
  const FileType t = file_type(f);  // a non-template may still be output (yaml-plain)
  return !is_library_file(f) && (t == FileType::kYaml || t == FileType::kText);
}

bool is_in_private_library(std::string_view rel) {
  auto pieces = split_slash(rel);
  for (size_t i = 0; i + 1 < pieces.size(); ++i)
    if (pieces[i] == kPrivateLibrary) return true;
  return false;
}

std::string folder_of(std::string_view rel) {
  size_t slash = rel.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(rel.substr(0, slash));
}

FoundFiles find_files(const std::string& arg, StdinUse& stdin_use, const ReadRules& rules) {
  std::string rel, path = arg;
  if (size_t eq = arg.find('='); eq != std::string::npos) {
    if (arg.find('=', eq + 1) != std::string::npos) {
      throw YttError{"Expected file '" + arg +
                     "' to only have single '=' sign to for relative path assignment"};
    }
    rel = arg.substr(0, eq);
    path = arg.substr(eq + 1);
  }
  FoundFiles found;
  if (path == "-") {
    std::string name = rel.empty() ? "stdin.yml" : rel;
    if (stdin_use.taken) throw StdinTaken{std::move(name)};
    stdin_use.taken = true;
    auto text = fileio::read_file("/dev/stdin");
    if (!text.ok()) throw YttError{"Reading standard input: " + text.error().message};
    found.files.push_back(make_file(std::move(name), std::move(*text)));
    return found;
  }
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    const int lstat_errno = errno;
    if (rules.unsaved_texts && lstat_errno == ENOENT) {
      if (auto it = rules.unsaved_texts->find(path); it != rules.unsaved_texts->end()) {
        found.files.push_back(
            make_file(rel.empty() ? std::string(base_name(path)) : rel, it->second));
        return found;
      }
    }
    throw YttError{"Checking file '" + path + "': " + lstat_problem(path)};
  }
  if (S_ISDIR(st.st_mode)) {
    found.folder = true;
    walk(path, path, found.files, rules);
  } else {
    LinkRead text = checked_read(path, st, rules);
    found.files.push_back(
        make_file(rel.empty() ? std::string(base_name(path)) : rel, std::move(text)));
  }
  std::stable_sort(found.files.begin(), found.files.end(),
                   [](const SourceFile& a, const SourceFile& b) { return a.path < b.path; });
  return found;
}

std::optional<std::string_view> url_of(std::string_view arg) {
  if (std::count(arg.begin(), arg.end(), '=') > 1) return std::nullopt;
  if (const size_t eq = arg.find('='); eq != std::string_view::npos) arg.remove_prefix(eq + 1);
  if (arg.starts_with("http://") || arg.starts_with("https://")) return arg;
  return std::nullopt;
}

bool is_implied(const FoundFiles& found, const SourceFile& f) {
  // a renamed file is never a folder's, so its path is the one it was found under
  return found.folder && f.path.find('/') != std::string::npos;
}

const std::string& SourceFile::readable_text() const {
  if (!read_error.empty()) throw YttError{read_error};
  return text();
}

std::vector<SourceFile> read_file_set(const std::vector<std::string>& args, StdinUse& stdin_use,
                                      const ReadRules& rules) {
  std::vector<SourceFile> all;
  for (const std::string& arg : args) {
    if (auto url = url_of(arg)) {
      throw Unsupported{"reading templates over HTTP (-f " + std::string(*url) + ")"};
    }
    FoundFiles found;
    try {
      found = find_files(arg, stdin_use, rules);
    } catch (const StdinTaken&) {
      throw YttError{StdinTaken::kText};
    }
    for (auto& f : found.files) all.push_back(std::move(f));
  }
  return all;
}

namespace {

using Runes = std::vector<uint32_t>;

Runes runes_of(std::string_view s) {
  Runes out;
  for (size_t i = 0; i < s.size();) {
    const auto r = gocompat::decode_rune(s, i);
    out.push_back(r.cp);
    i += r.width;
  }
  return out;
}

// Every index where `needle` (not empty) starts in `hay` (Knuth-Morris-Pratt: linear).
std::vector<size_t> occurrences(const uint32_t* hay, size_t n, const Runes& needle) {
  std::vector<size_t> fail(needle.size(), 0);
  for (size_t i = 1, k = 0; i < needle.size(); ++i) {
    while (k > 0 && needle[i] != needle[k]) k = fail[k - 1];
    if (needle[i] == needle[k]) ++k;
    fail[i] = k;
  }
  std::vector<size_t> at;
  for (size_t i = 0, k = 0; i < n; ++i) {
    while (k > 0 && hay[i] != needle[k]) k = fail[k - 1];
    if (hay[i] == needle[k]) ++k;
    if (k == needle.size()) {
      at.push_back(i + 1 - k);
      k = fail[k - 1];
    }
  }
  return at;
}

}  // namespace

FileMarkPattern::FileMarkPattern(std::string_view pattern) {
  if (!gocompat::valid_utf8(pattern)) {
    throw Unsupported{
        "a --file-mark pattern that is not valid UTF-8 (ytt's regexp.MustCompile "
        "panics on it)"};
  }
  struct Span {
    size_t at, size;
    Wild wild;
  };
  std::vector<Span> spans;
  const size_t multi = pattern.find("**/*");
  if (multi != std::string_view::npos) spans.push_back({multi, 4, Wild::kAny});
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '*' || (multi != std::string_view::npos && i >= multi && i < multi + 4)) {
      continue;
    }
    spans.push_back({i, 1, Wild::kName});
    break;
  }
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.at < b.at; });
  size_t from = 0;
  for (const Span& s : spans) {
    literals_.push_back(runes_of(pattern.substr(from, s.at - from)));
    wilds_.push_back(s.wild);
    from = s.at + s.size;
  }
  literals_.push_back(runes_of(pattern.substr(from)));
}

bool FileMarkPattern::matches(std::string_view path_text) const {
  const Runes path = runes_of(path_text);
  const Runes& first = literals_.front();
  const Runes& last = literals_.back();
  if (wilds_.empty()) return path == first;
  if (path.size() < first.size() + last.size() ||
      !std::equal(first.begin(), first.end(), path.begin()) ||
      !std::equal(last.begin(), last.end(), path.end() - static_cast<ptrdiff_t>(last.size()))) {
    return false;
  }
  // What lies between the first and last literal: one wildcard, or wildcard literal wildcard.
  const uint32_t* mid = path.data() + first.size();
  const size_t n = path.size() - first.size() - last.size();
  auto fits = [](Wild w, uint32_t r) { return w == Wild::kAny ? r != '\n' : r != '/'; };
  if (wilds_.size() == 1) {
    return n >= 1 && std::all_of(mid, mid + n, [&](uint32_t r) { return fits(wilds_[0], r); });
  }
  const Runes& inner = literals_[1];
  if (n < inner.size() + 2) return false;
  // The first wildcard takes mid[0, p), the literal mid[p, q), the second mid[q, n): both
  // wildcards take at least one rune, each only runes it fits.
  size_t first_misfit = 0;  // the first wildcard fits mid[0, p) iff p <= first_misfit
  while (first_misfit < n && fits(wilds_[0], mid[first_misfit])) ++first_misfit;
  size_t after_misfit = 0;  // the second fits mid[q, n) iff q >= after_misfit
  for (size_t i = n; i-- > 0;) {
    if (!fits(wilds_[1], mid[i])) {
      after_misfit = i + 1;
      break;
    }
  }
  auto ok = [&](size_t p) {
    const size_t q = p + inner.size();
    return p >= 1 && p <= first_misfit && q < n && q >= after_misfit;
  };
  if (inner.empty()) {
    const size_t lo = std::max<size_t>(1, after_misfit);
    const size_t hi = std::min(first_misfit, n - 1);
    return lo <= hi;
  }
  for (size_t p : occurrences(mid, n, inner)) {
    if (ok(p)) return true;
  }
  return false;
}

void apply_file_marks(std::vector<SourceFile>& files, const std::vector<std::string>& marks) {
  std::vector<std::string> original;  // OriginalRelativePath: marks match the paths as read
  for (const auto& f : files) original.push_back(f.path);
  std::vector<bool> exclusive(files.size(), false);  // exclusive-for-output=true
  for (const auto& mark : marks) {
    const size_t colon = mark.find(':');
    if (colon == std::string::npos) {
      throw YttError{"Expected file mark '" + mark + "' to be in format path:key=value"};
    }
    const std::string pattern = mark.substr(0, colon), kv = mark.substr(colon + 1);
    const size_t eq = kv.find('=');
    if (eq == std::string::npos) {
      throw YttError{"Expected file mark '" + mark +
                     "' key-value portion to be in format key=value"};
    }
    const std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
    bool matched = false;
    std::vector<bool> keep(files.size(), true);
    const FileMarkPattern compiled(pattern);
    for (size_t i = 0; i < files.size(); ++i) {
      if (!compiled.matches(original[i])) continue;
      matched = true;
      if (key == "path") {
        files[i].path = value;
      } else if (key == "exclude") {
        if (value != "true") throw YttError{"Unknown value in file mark '" + mark + "'"};
        keep[i] = false;
      } else if (key == "type") {
        // ytt's MarkType and MarkTemplate
        static const std::vector<std::tuple<std::string_view, FileType, bool>> kTypes = {
            {"yaml-template", FileType::kYaml, true}, {"yaml-plain", FileType::kYaml, false},
            {"text-template", FileType::kText, true}, {"text-plain", FileType::kText, false},
            {"starlark", FileType::kStarlark, false}, {"data", FileType::kUnknown, false}};
        auto it = std::find_if(kTypes.begin(), kTypes.end(),
                               [&](const auto& t) { return std::get<0>(t) == value; });
        if (it == kTypes.end()) throw YttError{"Unknown value in file mark '" + mark + "'"};
        files[i].marked_type = std::get<1>(*it);
        files[i].marked_template = std::get<2>(*it);
      } else if (key == "for-output" || key == "exclusive-for-output") {
        if (value != "true") throw YttError{"Unknown value in file mark '" + mark + "'"};
        if (key == "for-output") {
          files[i].marked_for_output = true;
        } else {
          exclusive[i] = true;
        }
      } else {
        throw YttError{"Unknown key in file mark '" + mark + "'"};
      }
    }
    if (!matched) {
      throw YttError{"Expected file mark '" + mark +
                     "' to match at least one file by path, but did not"};
    }
    size_t w = 0;
    for (size_t i = 0; i < files.size(); ++i) {
      if (!keep[i]) continue;
      if (w != i) {
        files[w] = std::move(files[i]);
        original[w] = std::move(original[i]);
        exclusive[w] = exclusive[i];
      }
      ++w;
    }
    files.resize(w);
    original.resize(w);
    exclusive.resize(w);
  }
  // With any exclusive-for-output mark, only those files are output (over every other mark).
  if (std::find(exclusive.begin(), exclusive.end(), true) != exclusive.end()) {
    for (size_t i = 0; i < files.size(); ++i) files[i].marked_for_output = bool(exclusive[i]);
  }
}

std::optional<std::string> find_accessible_library(const Files& files, std::string_view from,
                                                   std::string_view path, std::string& error) {
  Library* root = library_tree(files);
  Library* lib = library_at(root, from);
  Library* found = lib->child(kPrivateLibrary);
  if (!found || !found->is_private()) {
    error = "Could not find private library (directory '" + std::string(kPrivateLibrary) +
            "' missing?)";
    return std::nullopt;
  }
  auto pieces = split_slash(path);
  for (size_t i = 0; i < pieces.size(); ++i) {
    Library* c = found->child(pieces[i]);
    if (!c) {
      error = "Expected to find library '" + std::string(path) + "', but did not find '" +
              join_slash(pieces, i) + "'";
      return std::nullopt;
    }
    if (c->is_private()) {
      error = "Could not load private library '" + join_slash(pieces, i) + "'";
      return std::nullopt;
    }
    found = c;
  }
  std::string folder(from);
  if (!folder.empty()) folder += "/";
  return folder + std::string(kPrivateLibrary) + "/" + join_slash(pieces, pieces.size());
}

const SourceFile* find_file_from(const Files& files, std::string_view from, std::string_view path,
                                 std::string& error) {
  Library* root = library_tree(files);
  Library* lib = library_at(root, from);
  if (!path.empty() && path[0] == '/') {
    lib = library_at(root, files.library_root);
    path.remove_prefix(1);
  }
  auto pieces = split_slash(path);
  if (pieces.size() > 1) {
    std::string inner;
    lib = find_library(lib, join_slash(pieces, pieces.size() - 1), inner);
    if (!lib) {
      error = "Expected to find file '" + std::string(path) + "', but did not: " + inner;
      return nullptr;
    }
  }
  if (auto it = lib->file_by_base_name.find(pieces.back()); it != lib->file_by_base_name.end()) {
    return &files.files[it->second];
  }
  error = "Expected to find file '" + std::string(path) +
          "' (hint: only files included via -f flag are available)";
  return nullptr;
}

std::vector<size_t> files_below(const Files& files, std::string_view folder) {
  const Library* lib = library_tree(files);
  for (const auto& p : split_slash(folder)) {
    lib = lib->child(p);
    if (!lib) return {};
  }
  std::vector<size_t> out;
  collect_files(*lib, out);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> list_files_from(const Files& files, std::string_view from,
                                         std::string_view path, std::string& error) {
  Library* root = library_tree(files);
  Library* lib = library_at(root, from);
  bool from_root = !path.empty() && path[0] == '/';
  if (from_root) {
    lib = library_at(root, files.library_root);
    path.remove_prefix(1);
  }
  if (!path.empty()) {
    lib = find_library(lib, path, error);
    if (!lib) return {};
  }
  std::vector<std::string> out;
  list_accessible(files, *lib, from_root ? "/" : "", out);
  return out;
}

}  // namespace hintkit::ytt
