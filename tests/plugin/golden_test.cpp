// Golden CLI cases: every folder under fixtures/{lint,resolve,describe} with a `cmd` file is
// run as `hintkit <cmd>` in that folder; exit code, stdout and stderr must equal
// expected/{rc,stdout,stderr}. HINTKIT_UPDATE=1 rewrites the expectations for review.
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
  for (const char* area : {"lint", "resolve", "describe"}) {
    fs::path root = fs::path(HINTKIT_SOURCE_DIR) / "fixtures" / area;
    if (!fs::exists(root)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (e.is_regular_file() && e.path().filename() == "cmd") out.push_back(e.path().parent_path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> split_args(const std::string& line) {
  std::istringstream ss(line);
  std::vector<std::string> args;
  std::string a;
  while (ss >> a) args.push_back(a);
  return args;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

TEST(Golden, EveryCaseMatchesItsExpectedOutput) {
  const bool update = std::getenv("HINTKIT_UPDATE") != nullptr;
  auto all = cases();
  ASSERT_FALSE(all.empty()) << "no golden cases found under fixtures/";
  for (const fs::path& dir : all) {
    SCOPED_TRACE(dir.string());
    auto args = split_args(slurp(dir / "cmd"));
    fs::path stdin_file = fs::exists(dir / "stdin") ? dir / "stdin" : fs::path("/dev/null");
    auto r = run_hintkit(args, dir.string(), stdin_file.string());
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
