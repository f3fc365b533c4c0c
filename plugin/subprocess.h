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

// Looks `argv[0]` up on PATH. Failing to start or timing out is an `Error`.
diag::Result<ProcessResult> run_process(const std::vector<std::string>& argv,
                                        std::chrono::milliseconds timeout);

}  // namespace hintkit::plugin
