// Test support: golden CLI cases. Every folder under fixtures/<area> with a `cmd` file is run
// as `hintkit <prefix...> <cmd words>` in that folder, with `stdin` (if present) as standard
// input and the NAME=value words of `env` (if present) in the environment; exit code, stdout
// and stderr must equal expected/{rc,stdout,stderr}. HINTKIT_UPDATE=1 rewrites hintkit's own
// expectations instead, for review in the diff. The repository's absolute path in any output
// reads as @SOURCE_DIR@. A case with a file `oracle` was recorded from
// the reference ytt (fixtures/schema/record-from-oracle.sh writes it): the update switch never
// rewrites it, only compares, so our output cannot become the reference's expectation.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/run_binary.h"

namespace hintkit::testing {

inline std::vector<std::string> words(const std::string& text) {
  std::istringstream ss(text);
  std::vector<std::string> out;
  std::string w;
  while (ss >> w) out.push_back(w);
  return out;
}

inline void write_file(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

inline void replace_all(std::string& text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

// The case folders under fixtures/<area> for each area, sorted.
inline std::vector<std::filesystem::path> golden_cases(const std::vector<std::string>& areas) {
  namespace fs = std::filesystem;
  std::vector<fs::path> out;
  for (const std::string& area : areas) {
    fs::path root = fs::path(HINTKIT_SOURCE_DIR) / "fixtures" / area;
    if (!fs::exists(root)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (e.is_regular_file() && e.path().filename() == "cmd")
        out.push_back(e.path().parent_path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Expectations recorded from the reference ytt, never from hintkit's output.
inline bool is_recorded_from_oracle(const std::filesystem::path& case_dir) {
  return std::filesystem::exists(case_dir / "oracle");
}

inline void run_golden_cases(const std::vector<std::string>& areas,
                             const std::vector<std::string>& prefix = {}) {
  namespace fs = std::filesystem;
  const bool update = std::getenv("HINTKIT_UPDATE") != nullptr;
  auto all = golden_cases(areas);
  ASSERT_FALSE(all.empty()) << "no golden cases found under fixtures/";
  for (const fs::path& dir : all) {
    SCOPED_TRACE(dir.string());
    std::vector<std::string> args = prefix;
    for (auto& w : words(slurp(dir / "cmd"))) args.push_back(w);
    std::vector<std::string> env;
    if (fs::exists(dir / "env")) env = words(slurp(dir / "env"));
    for (std::string& e : env) {  // `$CASE_DIR`: the case's folder (PATH entries are absolute)
      for (size_t at; (at = e.find("$CASE_DIR")) != std::string::npos;) {
        e.replace(at, 9, fs::absolute(dir).string());
      }
    }
    fs::path stdin_file = fs::exists(dir / "stdin") ? dir / "stdin" : fs::path("/dev/null");
    RunResult r = run_hintkit(args, dir.string(), stdin_file.string(), env);
    // Where the repository is checked out is no part of an expectation (SARIF names it).
    for (std::string* text : {&r.out, &r.err}) replace_all(*text, HINTKIT_SOURCE_DIR, "@SOURCE_DIR@");
    if (update && !is_recorded_from_oracle(dir)) {
      write_file(dir / "expected" / "rc", std::to_string(r.rc) + "\n");
      write_file(dir / "expected" / "stdout", r.out);
      write_file(dir / "expected" / "stderr", r.err);
      continue;
    }
    EXPECT_EQ(std::to_string(r.rc) + "\n", slurp(dir / "expected" / "rc"));
    EXPECT_EQ(r.out, slurp(dir / "expected" / "stdout"));
    EXPECT_EQ(r.err, slurp(dir / "expected" / "stderr"));
  }
}

}  // namespace hintkit::testing
