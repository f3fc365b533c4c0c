// Internal: run a program without a shell, stdin from /dev/null, capture its output, and kill
// it when it overstays its timeout.
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

// A program's output is an input like a file: it gets the same limit (yaml::kMaxFileBytes).
inline constexpr size_t kMaxProcessOutputBytes = size_t{64} << 20;

// Looks `argv[0]` up on PATH. Output beyond `kMaxProcessOutputBytes` stops the program. Failing to
// start or timing out is an `Error`.
diag::Result<ProcessResult> run_process(const std::vector<std::string>& argv,
                                        std::chrono::milliseconds timeout);

}  // namespace hintkit::plugin
