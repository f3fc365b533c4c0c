// fileio: whole-file reads with a size limit, for every module that reads its inputs (hint
// files, values, tazuna.yaml, helmfile templates, ytt's files, the language server's
// workspace). Where to start: `read_file(path, max_bytes, kinds)`.
//
// Reads in progress share one process-wide budget, so `lint -j N` over N endless inputs holds
// a few limits' worth of memory, not N.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "diag/diag.h"

namespace hintkit::fileio {

// Named limits; each breach is a diagnostic, never a crash.
inline constexpr size_t kMaxFileBytes = 64u << 20;  // 64 MiB: config files, not data dumps
// Reads in progress at once hold at most this much (`read_file` waits for room): parallel
// reads of endless inputs cost two limits of memory, not one per thread.
inline constexpr size_t kMaxBytesInFlight = 2 * kMaxFileBytes;

// What `read_file` reads besides regular files. The CLI reads named pipes and devices too
// (`--values <(cmd)`, `/dev/stdin`): the user named them. A long-running reader of files
// nobody named (the language server's workspace) reads regular files only: a pipe there can
// block it for good, a device never ends, and `/dev/stdin` would be its own input.
enum class FileKinds : uint8_t { kAny, kRegularOnly };

// Reads a whole file. Unreadable, a directory, larger than `max_bytes`, or (with
// kRegularOnly) not a regular file once symlinks are followed -> `Error`.
diag::Result<std::string> read_file(const std::string& path, size_t max_bytes = kMaxFileBytes,
                                    FileKinds kinds = FileKinds::kAny);

}  // namespace hintkit::fileio
