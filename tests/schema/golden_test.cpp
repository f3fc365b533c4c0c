// Golden cases for `hintkit values`: every folder under fixtures/schema with a `cmd` file is
// run as `hintkit values <cmd>` in that folder (with the KEY=VALUE lines of an optional `env`
// file); exit code, stdout and stderr must equal expected/{rc,stdout,stderr}, recorded from
// ytt v0.48.0 with "ytt: " replaced by "hintkit: ". HINTKIT_UPDATE=1 rewrites expectations.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/run_binary.h"

namespace fs = std::filesystem;
using hintkit::testing::run_hintkit;
using hintkit::testing::slurp;

namespace {

std::vector<fs::path> cases() {
  std::vector<fs::path> out;
  fs::path root = fs::path(HINTKIT_SOURCE_DIR) / "fixtures" / "schema";
  if (!fs::exists(root)) return out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().filename() == "cmd") out.push_back(e.path().parent_path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream ss(text);
  std::vector<std::string> out;
  std::string w;
  while (ss >> w) out.push_back(w);
  return out;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

TEST(SchemaGolden, EveryCaseMatchesYttsOutput) {
  const bool update = std::getenv("HINTKIT_UPDATE") != nullptr;
  auto all = cases();
  ASSERT_FALSE(all.empty()) << "no golden cases under fixtures/schema";
  for (const fs::path& dir : all) {
    SCOPED_TRACE(dir.string());
    std::vector<std::string> args = {"values"};
    for (auto& w : words(slurp(dir / "cmd"))) args.push_back(w);
    std::vector<std::string> env;
    if (fs::exists(dir / "env")) env = words(slurp(dir / "env"));
    auto r = run_hintkit(args, dir.string(), "/dev/null", env);
    if (update) {
      write(dir / "expected" / "rc", std::to_string(r.rc) + "\n");
      write(dir / "expected" / "stdout", r.out);
      write(dir / "expected" / "stderr", r.err);
      continue;
    }
    EXPECT_EQ(std::to_string(r.rc) + "\n", slurp(dir / "expected" / "rc"));
    EXPECT_EQ(r.out, slurp(dir / "expected" / "stdout"));
    EXPECT_EQ(r.err, slurp(dir / "expected" / "stderr"));
  }
}
