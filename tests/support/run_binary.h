// Test support: run the built hintkit binary the way a user or helmfile would, capturing
// exit code, stdout and stderr.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace hintkit::testing {

struct RunResult {
  int rc = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The white-space-separated words of a `cmd` or `env` file.
inline std::vector<std::string> words(const std::string& text) {
  std::istringstream ss(text);
  std::vector<std::string> out;
  std::string w;
  while (ss >> w) out.push_back(w);
  return out;
}

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `HINTKIT_BINARY args...` in `cwd` with stdin from `stdin_file` (default /dev/null).
// `env` entries are passed to env(1) first: "NAME=value" sets, "-u NAME" unsets.
inline RunResult run_hintkit(const std::vector<std::string>& args, const std::string& cwd = ".",
                             const std::string& stdin_file = "/dev/null",
                             const std::vector<std::string>& env = {}) {
  static int counter = 0;
  auto tmp = std::filesystem::temp_directory_path() /
             ("hintkit-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(tmp);
  std::string cmd = "cd " + shell_quote(cwd) + " && env";
  for (const auto& e : env) {  // env(1) wants its options before the assignments
    if (e.rfind("-u ", 0) == 0) cmd += " -u " + shell_quote(e.substr(3));
  }
  for (const auto& e : env) {
    if (e.rfind("-u ", 0) != 0) cmd += " " + shell_quote(e);
  }
  cmd += " " + shell_quote(HINTKIT_BINARY);
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " <" + shell_quote(stdin_file) + " >" + shell_quote((tmp / "out").string()) + " 2>" +
         shell_quote((tmp / "err").string());
  int status = std::system(cmd.c_str());
  RunResult r;
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(tmp / "out");
  r.err = slurp(tmp / "err");
  std::filesystem::remove_all(tmp);
  return r;
}

}  // namespace hintkit::testing
