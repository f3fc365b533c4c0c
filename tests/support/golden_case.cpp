// Runs one golden CLI case; tests/CMakeLists.txt makes one CTest test of it per case folder.
//
//   golden_case CASE_DIR [PREFIX...]
//
// A case folder holds `cmd` (the arguments, split at white space) and `expected/{rc,stdout,
// stderr}`; optionally `stdin` (standard input, else /dev/null) and `env` (words: `NAME=value`
// sets, `-u NAME` unsets; `$CASE_DIR` in them is the case's absolute folder, e.g.
// `PATH=$CASE_DIR/bin:/usr/bin:/bin`). The case runs as `hintkit PREFIX... <cmd>` inside its
// folder; exit code, stdout and stderr must equal the expected files, with the repository's
// absolute path in any output read as @SOURCE_DIR@ (SARIF names it).
//
// HINTKIT_UPDATE=1 in the environment rewrites hintkit's own expectations instead, for review
// in the diff. A case with a file `oracle` was recorded from the reference (ytt v0.48.0,
// fixtures/ytt/record-from-oracle.sh writes it): the update switch never rewrites it, only
// compares, so hintkit's output cannot become the reference's expectation.
//
// Exit status: 0 the case passes (or was rewritten), 1 it differs, 2 the case is malformed or
// hintkit could not be started.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "tests/support/run_binary.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using hintkit::testing::slurp;
using hintkit::testing::words;

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

bool write_file(const fs::path& p, const std::string& text) {
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  std::FILE* f = std::fopen(p.c_str(), "wb");
  if (f == nullptr) return false;
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  return std::fclose(f) == 0 && ok;
}

// The whole content of an unlinked temporary file the child wrote.
std::string read_back(std::FILE* f) {
  std::string out;
  std::rewind(f);
  char buf[65536];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
  return out;
}

struct Outcome {
  int rc = -1;
  std::string out, err;
};

// This process's environment with the case's `env` words applied, as env(1) applies them.
std::vector<std::string> child_environment(const std::vector<std::string>& case_env,
                                           const std::string& case_dir) {
  std::map<std::string, std::string> vars;
  std::vector<std::string> order;
  auto set = [&](const std::string& entry) {
    std::string name = entry.substr(0, entry.find('='));
    if (!vars.count(name)) order.push_back(name);
    vars[name] = entry;
  };
  for (char** e = environ; *e != nullptr; ++e) set(*e);
  set("PWD=" + case_dir);  // as a shell's `cd` into the case folder leaves it
  for (size_t i = 0; i < case_env.size(); ++i) {
    if (case_env[i] == "-u" && i + 1 < case_env.size()) {
      vars.erase(case_env[++i]);
      continue;
    }
    std::string entry = case_env[i];
    replace_all(entry, "$CASE_DIR", case_dir);
    set(entry);
  }
  std::vector<std::string> out;
  for (const std::string& name : order) {
    if (auto it = vars.find(name); it != vars.end()) out.push_back(it->second);
  }
  return out;
}

// Runs HINTKIT_BINARY with `args` in `dir`; false if it could not be started.
bool run(const std::vector<std::string>& args, const fs::path& dir, const fs::path& stdin_file,
         const std::vector<std::string>& env, Outcome& got) {
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  if (out == nullptr || err == nullptr) return false;
  std::vector<std::string> argv_s = {HINTKIT_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv, envp;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_s = env;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    int in = open(stdin_file.c_str(), O_RDONLY);
    if (chdir(dir.c_str()) != 0 || in < 0 || dup2(in, 0) < 0 || dup2(fileno(out), 1) < 0 ||
        dup2(fileno(err), 2) < 0) {
      _exit(127);
    }
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return false;
  }
  got.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  got.out = read_back(out);
  got.err = read_back(err);
  std::fclose(out);
  std::fclose(err);
  return true;
}

// Prints a differing expectation: both texts, and the first line where they part.
void report(const std::string& what, const std::string& want, const std::string& got) {
  size_t at = 0, line = 1;
  while (at < want.size() && at < got.size() && want[at] == got[at]) {
    if (want[at++] == '\n') ++line;
  }
  std::cout << what << " differs from line " << line << ":\n--- expected/" << what << "\n"
            << want << (want.empty() || want.back() == '\n' ? "" : "\\ (no newline at end)\n")
            << "+++ hintkit's " << what << "\n"
            << got << (got.empty() || got.back() == '\n' ? "" : "\\ (no newline at end)\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: golden_case CASE_DIR [PREFIX...]\n";
    return 2;
  }
  const fs::path dir = fs::absolute(argv[1]).lexically_normal();
  if (!fs::is_regular_file(dir / "cmd")) {
    std::cerr << "golden_case: no file " << (dir / "cmd") << "\n";
    return 2;
  }
  std::vector<std::string> args(argv + 2, argv + argc);
  for (auto& w : words(slurp(dir / "cmd"))) args.push_back(w);
  std::vector<std::string> case_env;
  if (fs::exists(dir / "env")) case_env = words(slurp(dir / "env"));
  const fs::path stdin_file = fs::exists(dir / "stdin") ? dir / "stdin" : fs::path("/dev/null");

  Outcome got;
  if (!run(args, dir, stdin_file, child_environment(case_env, dir.string()), got)) {
    std::cerr << "golden_case: could not run " << HINTKIT_BINARY << ": " << std::strerror(errno)
              << "\n";
    return 2;
  }
  if (got.rc == 127) std::cout << "(exit 127: hintkit may not have started)\n";
  for (std::string* text : {&got.out, &got.err}) replace_all(*text, HINTKIT_SOURCE_DIR, "@SOURCE_DIR@");

  const std::string rc = std::to_string(got.rc) + "\n";
  if (std::getenv("HINTKIT_UPDATE") != nullptr && !fs::exists(dir / "oracle")) {
    bool ok = write_file(dir / "expected" / "rc", rc) &&
              write_file(dir / "expected" / "stdout", got.out) &&
              write_file(dir / "expected" / "stderr", got.err);
    if (!ok) std::cerr << "golden_case: could not write " << (dir / "expected") << "\n";
    return ok ? 0 : 2;
  }
  bool pass = true;
  const std::pair<std::string, const std::string*> parts[] = {
      {"rc", &rc}, {"stdout", &got.out}, {"stderr", &got.err}};
  for (const auto& [what, text] : parts) {
    const fs::path want_file = dir / "expected" / what;
    if (!fs::exists(want_file)) {
      std::cout << "missing " << want_file.string() << "\n";
      pass = false;
      continue;
    }
    const std::string want = slurp(want_file);
    if (want != *text) {
      report(what, want, *text);
      pass = false;
    }
  }
  std::cout << (pass ? "pass: " : "FAIL: ") << dir.string() << "\n";
  return pass ? 0 : 1;
}
