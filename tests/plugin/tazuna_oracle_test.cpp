// Cases recorded from tazuna's own hint code (fixtures/tazuna-oracle/<case>/oracle, written by
// record-from-tazuna.sh, never by the update switch): hintkit must accept what tazuna accepts
// with the same values, and refuse what it refuses. One case per decoding rule.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/run_binary.h"

namespace {

namespace fs = std::filesystem;
using hintkit::testing::RunResult;
using hintkit::testing::slurp;
using hintkit::testing::words;

std::vector<fs::path> recorded_cases() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(HINTKIT_SOURCE_DIR) / "fixtures" /
                                              "tazuna-oracle")) {
    if (e.is_directory() && fs::exists(e.path() / "oracle")) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(TazunaOracle, HintkitAgreesWithEveryRecordedCase) {
  const auto cases = recorded_cases();
  ASSERT_GE(cases.size(), 10u) << "the recorded cases went missing";
  for (const fs::path& dir : cases) {
    SCOPED_TRACE(dir.filename().string());
    const nlohmann::json want = nlohmann::json::parse(slurp(dir / "oracle"));
    std::vector<std::string> args;
    std::string mode;
    if (fs::exists(dir / "tazuna.yaml")) {
      mode = "config";
      args = {"resolve", "--config", "tazuna.yaml", "-o", "json"};
    } else if (fs::exists(dir / "values.yaml")) {
      mode = "resolve";
      args = {"resolve", "--dir", ".", "--values", "values.yaml", "-o", "json"};
    } else {
      mode = "lint";
      args = {"lint", "tazuna.hint.yaml"};
    }
    std::vector<std::string> env;
    if (fs::exists(dir / "env")) env = words(slurp(dir / "env"));
    const RunResult r = hintkit::testing::run_hintkit(args, dir.string(), "/dev/null", env);
    if (!want.at("ok").get<bool>()) {
      EXPECT_EQ(r.rc, 1) << "tazuna refuses (" << want.at("error") << "); hintkit:\n"
                         << r.out << r.err;
      continue;
    }
    ASSERT_EQ(r.rc, 0) << r.err;
    if (mode == "lint") continue;
    const nlohmann::json got = nlohmann::json::parse(r.out);
    if (mode == "resolve") {
      EXPECT_EQ(got, want.at("vars"));
    } else {
      for (const auto& m : want.at("manifests")) {
        EXPECT_EQ(got.at(m.at("name").get<std::string>()), m.at("vars"));
      }
    }
  }
}

}  // namespace
