// `--out-dir` is all or nothing: faults injected through the FileSystem seam (a full disk, a
// read-only folder, a failing rename) and real ones (a directory in the way, a planted
// symlink). After every failure the folder holds exactly what it held before.
#include "plugin/out_dir.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>

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
  enum class Call { kNone, kMkdtemp, kOpen, kWrite, kRename };
  FaultyFs(Call call, int nth, int err) : call_(call), nth_(nth), err_(err) {}

  char* mkdtemp(char* p) override { return hit(Call::kMkdtemp) ? nullptr : FileSystem::mkdtemp(p); }
  int open(const char* p, int f, mode_t m) override {
    return hit(Call::kOpen) ? -1 : FileSystem::open(p, f, m);
  }
  ssize_t write(int fd, const void* d, size_t n) override {
    return hit(Call::kWrite) ? -1 : FileSystem::write(fd, d, n);
  }
  int rename(const char* a, const char* b) override {
    if (a != nullptr && std::string(a).find(".hintkit-") != std::string::npos &&
        std::string(a).size() > 4 && std::string(a).substr(std::string(a).size() - 4) != ".old" &&
        hit(Call::kRename)) {
      return -1;
    }
    return FileSystem::rename(a, b);
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
      {FaultyFs::Call::kWrite, 2, ENOSPC, "cannot write"},                     // the disk fills up
      {FaultyFs::Call::kMkdtemp, 1, EROFS, "cannot create a private folder"},  // read-only
      {FaultyFs::Call::kMkdtemp, 1, EACCES, "cannot create a private folder"},
      {FaultyFs::Call::kOpen, 3, EDQUOT, "cannot create"},
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

}  // namespace
}  // namespace hintkit::plugin
