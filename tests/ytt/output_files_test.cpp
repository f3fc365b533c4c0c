// `hintkit values --output-files DIR` and `--dangerous-emptied-output-directory DIR`: the
// output files ytt writes (one per template with documents, text results included), the
// "creating:" lines it prints instead of the documents, and its checks before emptying a
// folder. Expected texts are ytt v0.48.0's for the same inputs.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "tests/support/run_binary.h"
#include "tests/support/temp_dir.h"

using hintkit::testing::run_hintkit;

namespace {

class OutputFiles : public hintkit::testing::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    write("in/a.yml", "#@ load(\"@ytt:data\", \"data\")\na: #@ data.values.x\n---\nb: 2\n");
    write("in/values.yml", "#@data/values\n---\nx: 1\n");
    write("in/empty.yml", "--- null\n");
    write("in/ov.yml",
          "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all, "
          "expects=\"1+\"\n---\n"
          "#@overlay/match missing_ok=True\nadded: true\n");
    write("in/sub/deep.yml", "deep: 1\n");
    write("in/t.txt", "hello (@= \"x\" @)\n");
  }
  std::string read(const std::string& rel) { return hintkit::testing::slurp(dir_ / rel); }
};

TEST_F(OutputFiles, WritesTextResultsThenOneFilePerTemplateWithDocuments) {
  auto r = run_hintkit({"values", "-f", "in/", "--output-files", "out/"}, dir_.string());
  EXPECT_EQ(r.rc, 0) << r.err;
  // no file for the template of only a null document, nor for the file of overlays
  EXPECT_EQ(r.out, "creating: out/t.txt\ncreating: out/a.yml\ncreating: out/sub/deep.yml\n");
  EXPECT_EQ(r.err, "");  // no warning about text templates: their results are written
  EXPECT_EQ(read("out/t.txt"), "hello x\n");
  EXPECT_EQ(read("out/a.yml"), "a: 1\nadded: true\n---\nb: 2\nadded: true\n");
  EXPECT_EQ(read("out/sub/deep.yml"), "deep: 1\nadded: true\n");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "out/empty.yml"));
  struct stat st {};
  ASSERT_EQ(::stat((dir_ / "out/a.yml").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);  // ytt's mode for files and folders alike
  ASSERT_EQ(::stat((dir_ / "out/sub").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
}

TEST_F(OutputFiles, OutputFilesKeepsWhatTheFolderHeld) {
  write("out/old.yml", "old: 1\n");
  auto r = run_hintkit({"values", "-f", "in/a.yml", "-f", "in/values.yml", "--output-files", "out"},
                       dir_.string());
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "creating: out/a.yml\n");
  EXPECT_TRUE(std::filesystem::exists(dir_ / "out/old.yml"));
}

TEST_F(OutputFiles, EmptiedOutputDirectoryRemovesWhatTheFolderHeld) {
  write("out/old.yml", "old: 1\n");
  auto r = run_hintkit({"values", "-f", "in/a.yml", "-f", "in/values.yml",
                        "--dangerous-emptied-output-directory", "./out"},
                       dir_.string());
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "creating: out/a.yml\n");  // the path as Go's filepath.Join cleans it
  EXPECT_FALSE(std::filesystem::exists(dir_ / "out/old.yml"));
  EXPECT_EQ(read("out/a.yml"), "a: 1\n---\nb: 2\n");
}

TEST_F(OutputFiles, EmptiedOutputDirectoryRefusesTheCurrentFolder) {
  auto r = run_hintkit({"values", "-f", "in/a.yml", "-f", "in/values.yml",
                        "--dangerous-emptied-output-directory", "."},
                       dir_.string());
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "hintkit: Error: Expected output directory path to not be one of '/', '.', './', ''\n");
  EXPECT_TRUE(std::filesystem::exists(dir_ / "in/a.yml"));
}

// Go's os.RemoveAll refuses a path ending in "/." (rmdir cannot remove ".") before removing
// anything, and ytt reports that error; "$OUT/." with OUT unset is "/.": the whole file system.
TEST_F(OutputFiles, EmptiedOutputDirectoryRefusesAPathEndingInDotBeforeRemovingAnything) {
  write("out/keep.yml", "keep: 1\n");
  for (const std::string& d : {std::string("out/."), (dir_ / "out/.").string(), std::string("./."),
                               std::string("out//.")}) {
    SCOPED_TRACE(d);
    auto r = run_hintkit({"values", "-f", "in/a.yml", "-f", "in/values.yml",
                          "--dangerous-emptied-output-directory", d},
                         dir_.string());
    EXPECT_EQ(r.rc, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "hintkit: Error: RemoveAll " + d + ": invalid argument\n");
    EXPECT_EQ(read("out/keep.yml"), "keep: 1\n");
    EXPECT_EQ(read("in/a.yml").substr(0, 3), "#@ ");
  }
}

// "out/./" does not end in "/.": Go's RemoveAll empties out through it, then fails to remove
// "." itself (EINVAL from unlinkat), and ytt stops with that error before writing.
TEST_F(OutputFiles, EmptiedOutputDirectoryThroughDotSlashEmptiesThenFailsAsGoDoes) {
  write("out/old.yml", "old: 1\n");
  write("out/sub/older.yml", "older: 1\n");
  auto r = run_hintkit({"values", "-f", "in/a.yml", "-f", "in/values.yml",
                        "--dangerous-emptied-output-directory", "out/./"},
                       dir_.string());
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "hintkit: Error: unlinkat out/.: invalid argument\n");
  EXPECT_TRUE(std::filesystem::is_directory(dir_ / "out"));
  EXPECT_TRUE(std::filesystem::is_empty(dir_ / "out"));
}

// ytt follows a symbolic link on the way to an output file; hintkit opens every folder with
// O_NOFOLLOW from its parent's descriptor and refuses (exit 2) instead of writing elsewhere.
TEST_F(OutputFiles, ASymbolicLinkOnTheOutputPathIsRefusedNotFollowed) {
  namespace fs = std::filesystem;
  write("elsewhere/keep.yml", "keep: 1\n");
  fs::create_directory_symlink(dir_ / "elsewhere", dir_ / "link");
  for (const char* flag : {"--output-files", "--dangerous-emptied-output-directory"}) {
    SCOPED_TRACE(flag);
    auto r = run_hintkit({"values", "-f", "in/a.yml", "-f", "in/values.yml", flag, "link/out"},
                         dir_.string());
    EXPECT_EQ(r.rc, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("through the symbolic link link "), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "elsewhere/out"));
    EXPECT_EQ(read("elsewhere/keep.yml"), "keep: 1\n");
  }
  auto r = run_hintkit(
      {"values", "-f", "in/a.yml", "-f", "in/values.yml", "--output-files", "link"}, dir_.string());
  EXPECT_EQ(r.rc, 2);
  EXPECT_FALSE(fs::exists(dir_ / "elsewhere/a.yml"));
  // A file of the folder that is a link: its target keeps its content.
  write("victim.txt", "precious\n");
  fs::create_directories(dir_ / "out");
  fs::create_symlink(dir_ / "victim.txt", dir_ / "out/a.yml");
  r = run_hintkit({"values", "-f", "in/a.yml", "-f", "in/values.yml", "--output-files", "out"},
                  dir_.string());
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.out, "creating: out/a.yml\n");  // printed before the file is opened, as ytt does
  EXPECT_NE(r.err.find("through the symbolic link out/a.yml "), std::string::npos) << r.err;
  EXPECT_EQ(read("victim.txt"), "precious\n");
  // Emptying removes the link itself (Go's RemoveAll unlinks it), never what it points to.
  fs::remove(dir_ / "out/a.yml");
  fs::remove(dir_ / "out");
  fs::create_directory_symlink(dir_ / "elsewhere", dir_ / "out");
  r = run_hintkit({"values", "-f", "in/a.yml", "-f", "in/values.yml",
                   "--dangerous-emptied-output-directory", "out"},
                  dir_.string());
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_FALSE(fs::is_symlink(dir_ / "out"));
  EXPECT_EQ(read("out/a.yml"), "a: 1\n---\nb: 2\n");
  EXPECT_EQ(read("elsewhere/keep.yml"), "keep: 1\n");
  EXPECT_FALSE(fs::exists(dir_ / "elsewhere/a.yml"));
}

TEST_F(OutputFiles, EmptiedOutputDirectoryRefusesTwoFilesForOnePath) {
  write("out/old.yml", "old: 1\n");
  auto r = run_hintkit(
      {"values", "-f", "in/a.yml", "-f", "in/values.yml", "-f", "in/sub/deep.yml", "--file-mark",
       "deep.yml:path=a.yml", "--dangerous-emptied-output-directory", "out"},
      dir_.string());
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "hintkit: Error: Multiple files have same output destination paths: a.yml\n");
  EXPECT_TRUE(std::filesystem::exists(dir_ / "out/old.yml"));  // checked before emptying
}

TEST_F(OutputFiles, InspectingDataValuesWritesNothing) {
  auto r = run_hintkit({"values", "-f", "in/a.yml", "-f", "in/values.yml", "--output-files", "out",
                        "--data-values-inspect"},
                       dir_.string());
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(std::filesystem::is_directory(dir_ / "out"));
  EXPECT_TRUE(std::filesystem::is_empty(dir_ / "out"));
}

TEST_F(OutputFiles, InspectingFilesEmptiesTheFolderAndWritesNothing) {
  write("out/old.yml", "old: 1\n");
  auto r = run_hintkit(
      {"values", "-f", "in/", "--dangerous-emptied-output-directory", "out", "--files-inspect"},
      dir_.string());
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(std::filesystem::is_directory(dir_ / "out"));
  EXPECT_TRUE(std::filesystem::is_empty(dir_ / "out"));
}

TEST_F(OutputFiles, AFailingRunWritesNothing) {
  write("in/bad.yml", "#@ 1 // 0\nx: 1\n");
  auto r = run_hintkit({"values", "-f", "in/bad.yml", "--output-files", "out"}, dir_.string());
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "out"));
}

}  // namespace
