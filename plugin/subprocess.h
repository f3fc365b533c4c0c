// Internal: run a program without a shell, stdin from /dev/null, capture its output, and kill
// it when it overstays its timeout or when hintkit is interrupted.
//
// The program is looked up as Go's exec.LookPath looks it up (tazuna and helmfile start `op`
// that way): PATH entries in order, an empty entry meaning ".", and a program found through a
// relative entry is refused (Go's ErrDot) rather than run from the current folder. Only an
// absolute path is ever started. Each program runs in its own process group; while any runs,
// SIGINT and SIGTERM kill every such group before hintkit dies of the signal itself.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "diag/diag.h"

namespace hintkit::plugin {

struct ProcessResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// A program's output is an input like a file: it gets the same limit (fileio::kMaxFileBytes).
inline constexpr size_t kMaxProcessOutputBytes = size_t{64} << 20;

// Go's exec.LookPath(file) on Unix with `path` as $PATH (absent: nullptr): the absolute path
// to run, or an Error saying why there is none ("not found on PATH", or found relative to the
// current folder).
diag::Result<std::string> look_path(const std::string& file, const char* path);

// Looks `argv[0]` up with look_path($PATH). Output beyond `kMaxProcessOutputBytes` stops the
// program. Failing to start or timing out is an `Error`.
diag::Result<ProcessResult> run_process(const std::vector<std::string>& argv,
                                        std::chrono::milliseconds timeout);

}  // namespace hintkit::plugin
