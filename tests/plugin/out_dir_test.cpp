// `--out-dir` is all or nothing: faults injected through the FileSystem seam (a full disk, a
// read-only folder, a failing rename) and real ones (a directory in the way, a planted
// symlink). After every failure the folder holds exactly what it held before.
#include "plugin/out_dir.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <utility>

#include "tests/support/run_binary.h"
#include "tests/support/temp_dir.h"

namespace hintkit::plugin {
namespace {

namespace fs = std::filesystem;
using hintkit::testing::has;
using hintkit::testing::slurp;

// Fails the Nth call of one kind with an errno; everything else is the real system call.
class FaultyFs : public FileSystem {
 public:
  // kMkdir: mkdirat (the private folder, when the output folder exists); kCreate: openat of a
  // staged file; kRename: renameat of a staged file over its target.
  enum class Call { kNone, kMkdir, kCreate, kWrite, kRename };
  FaultyFs(Call call, int nth, int err) : call_(call), nth_(nth), err_(err) {}

  int mkdirat(int d, const char* p, mode_t m) override {
    return hit(Call::kMkdir) ? -1 : FileSystem::mkdirat(d, p, m);
  }
  int openat(int d, const char* p, int f, mode_t m) override {
    return (f & O_CREAT) && hit(Call::kCreate) ? -1 : FileSystem::openat(d, p, f, m);
  }
  ssize_t write(int fd, const void* d, size_t n) override {
    return hit(Call::kWrite) ? -1 : FileSystem::write(fd, d, n);
  }
  int renameat(int fd, const char* a, int td, const char* b) override {
    auto old = [](std::string_view n) { return n.size() > 4 && n.substr(n.size() - 4) == ".old"; };
    if (!old(a) && !old(b) && hit(Call::kRename)) return -1;
    return FileSystem::renameat(fd, a, td, b);
  }

 private:
  bool hit(Call c) {
    if (c != call_ || ++count_ != nth_) return false;
    errno = err_;
    return true;
  }
  Call call_;
  int nth_;
  int err_;
  int count_ = 0;
};

// Runs `swap` once, just before the first call of one kind: the folder changes mid-run.
class SwappingFs : public FileSystem {
 public:
  enum class When { kCreate, kRename };
  SwappingFs(When when, std::function<void()> swap) : when_(when), swap_(std::move(swap)) {}
  int openat(int d, const char* p, int f, mode_t m) override {
    if ((f & O_CREAT) && when_ == When::kCreate) once();
    return FileSystem::openat(d, p, f, m);
  }
  int renameat(int fd, const char* a, int td, const char* b) override {
    if (when_ == When::kRename) once();
    return FileSystem::renameat(fd, a, td, b);
  }

 private:
  void once() {
    if (swap_) std::exchange(swap_, nullptr)();
  }
  When when_;
  std::function<void()> swap_;
};

using Files = std::vector<std::pair<std::string, std::string>>;

class OutDir : public hintkit::testing::TempDirTest {
 protected:
  // The folder's entries and their contents (symlinks as "-> target").
  std::map<std::string, std::string> snapshot() {
    std::map<std::string, std::string> out;
    for (const auto& e : fs::directory_iterator(dir_ / "out")) {
      const std::string name = e.path().filename().string();
      if (e.is_symlink()) {
        out[name] = "-> " + fs::read_symlink(e.path()).string();
      } else if (e.is_directory()) {
        out[name] = "<dir>";
      } else {
        out[name] = slurp(e.path());
      }
    }
    return out;
  }
  std::string out() const { return (dir_ / "out").string(); }
  const Files files_ = {{"api", "a: new\n"}, {"web", "w: new\n"}, {"db", "d: new\n"}};
};

TEST_F(OutDir, WritesEveryFileAndLeavesNothingElse) {
  write("out/api.yaml", "a: old\n");
  FileSystem real;
  ASSERT_TRUE(write_all(out(), files_, real).ok());
  EXPECT_EQ(snapshot(),
            (std::map<std::string, std::string>{
                {"api.yaml", "a: new\n"}, {"web.yaml", "w: new\n"}, {"db.yaml", "d: new\n"}}));
}

struct Fault {
  FaultyFs::Call call;
  int nth;
  int err;
  std::string_view want;  // in the message, with strerror of the failing call
};

TEST_F(OutDir, EveryFailureLeavesTheFolderAsItWas) {
  const Fault faults[] = {
      {FaultyFs::Call::kWrite, 2, ENOSPC, "cannot write"},                   // the disk fills up
      {FaultyFs::Call::kMkdir, 1, EROFS, "cannot create a private folder"},  // read-only
      {FaultyFs::Call::kMkdir, 1, EACCES, "cannot create a private folder"},
      {FaultyFs::Call::kCreate, 3, EDQUOT, "cannot create"},
      {FaultyFs::Call::kRename, 2, EXDEV, "cannot replace"},  // after api.yaml was replaced
      {FaultyFs::Call::kRename, 3, EIO, "cannot replace"},    // after two were placed
  };
  for (const Fault& f : faults) {
    SCOPED_TRACE(std::string(f.want) + " " + std::strerror(f.err));
    fs::remove_all(dir_ / "out");
    write("out/api.yaml", "a: old\n");
    write("out/web.yaml", "w: old\n");
    write("out/keep.txt", "mine\n");
    const auto before = snapshot();
    FaultyFs faulty(f.call, f.nth, f.err);
    auto r = write_all(out(), files_, faulty);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(has(r.error().message, std::string(f.want))) << r.error().message;
    EXPECT_TRUE(has(r.error().message, std::strerror(f.err))) << r.error().message;
    EXPECT_FALSE(has(r.error().message, "Success")) << r.error().message;
    EXPECT_EQ(snapshot(), before);  // no new file, old contents back, no private folder left
  }
}

TEST_F(OutDir, ADirectoryInTheWayStopsBeforeAnythingMoves) {
  write("out/api.yaml", "a: old\n");
  fs::create_directories(dir_ / "out/web.yaml");
  const auto before = snapshot();
  FileSystem real;
  auto r = write_all(out(), files_, real);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(has(r.error().message, "web.yaml: Is a directory")) << r.error().message;
  EXPECT_EQ(snapshot(), before);
}

TEST_F(OutDir, APlantedSymlinkIsReplacedNotFollowed) {
  write("victim.txt", "precious\n");
  fs::create_directories(dir_ / "out");
  fs::create_symlink(dir_ / "victim.txt", dir_ / "out/api.yaml");
  FileSystem real;
  ASSERT_TRUE(write_all(out(), files_, real).ok());
  EXPECT_EQ(slurp(dir_ / "victim.txt"), "precious\n");
  EXPECT_FALSE(fs::is_symlink(dir_ / "out/api.yaml"));
  EXPECT_EQ(slurp(dir_ / "out/api.yaml"), "a: new\n");
}

TEST_F(OutDir, AFileWhereTheFolderShouldBeIsAnError) {
  write("out", "not a folder\n");
  FileSystem real;
  auto r = write_all(out(), files_, real);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(has(r.error().message, "Not a directory")) << r.error().message;
  EXPECT_EQ(slurp(dir_ / "out"), "not a folder\n");
}

TEST_F(OutDir, FilesAreTheOwnersOnlyAndNewFoldersPrivate) {
  FileSystem real;
  ASSERT_TRUE(write_all((dir_ / "new/out").string(), files_, real).ok());
  struct stat st {};
  ASSERT_EQ(::stat((dir_ / "new/out/api.yaml").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);  // values from 1Password: no one else may read them
  ASSERT_EQ(::stat((dir_ / "new/out").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
  ASSERT_EQ(::stat((dir_ / "new").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
}

// The folder is opened once; swapping it for a symbolic link while files are staged or
// placed sends nothing to the link's target: every file lands in the folder that was opened.
TEST_F(OutDir, AFolderSwappedForASymbolicLinkMidRunIsNotFollowed) {
  for (auto when : {SwappingFs::When::kCreate, SwappingFs::When::kRename}) {
    SCOPED_TRACE(when == SwappingFs::When::kCreate ? "while staging" : "while placing");
    fs::remove_all(dir_);
    write("out/api.yaml", "a: old\n");
    fs::create_directories(dir_ / "other");
    SwappingFs swapping(when, [&] {
      fs::rename(dir_ / "out", dir_ / "out.real");
      fs::create_directory_symlink(dir_ / "other", dir_ / "out");
    });
    ASSERT_TRUE(write_all(out(), files_, swapping).ok());
    EXPECT_TRUE(fs::is_empty(dir_ / "other"));
    EXPECT_EQ(slurp(dir_ / "out.real/api.yaml"), "a: new\n");
    EXPECT_EQ(slurp(dir_ / "out.real/db.yaml"), "d: new\n");
    size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_ / "out.real")) ++entries;
    EXPECT_EQ(entries, 3u);  // no private folder left behind
  }
}

// A symbolic link anywhere on the way to the folder is refused before anything is written.
TEST_F(OutDir, ASymbolicLinkOnTheWayIsRefused) {
  fs::create_directories(dir_ / "real/out");
  fs::create_directory_symlink(dir_ / "real", dir_ / "link");
  for (const std::string& path : {(dir_ / "link/out").string(), (dir_ / "link").string()}) {
    SCOPED_TRACE(path);
    FileSystem real;
    auto r = write_all(path, files_, real);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(has(r.error().message, (dir_ / "link").string() + " on the way"))
        << r.error().message;
    EXPECT_TRUE(has(r.error().message, "symbolic link")) << r.error().message;
    EXPECT_TRUE(fs::is_empty(dir_ / "real/out"));
  }
}

}  // namespace
}  // namespace hintkit::plugin
