// Fuzzes the values engine: the input is one template file given to `hintkit values -f`,
// run in process through the whole pipeline (YAML, templating and Starlark, schema, data
// values, overlays, validations, output), and then to `hintkit values fmt -f` (the tree with
// every comment, printed again). Any text must end with output or ytt's error, never a crash.
#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "ytt/cmd/cmd.h"
#include "starlark/starlark.h"

using namespace hintkit;

namespace {

// The engine reads files by name: one private folder per fuzzing process, in memory when
// /dev/shm is there (rewriting a file on disk for every input cost an eighth of the run in
// the file system's writeback when it is truncated).
// The folder and the file, removed at exit.
char folder[64];
char file[80];

const char* template_path() {
  if (file[0] == '\0') {
    const char* tmp = getenv("TMPDIR");
    std::string dir = (tmp                             ? tmp
                       : access("/dev/shm", W_OK) == 0 ? "/dev/shm"
                                                       : "/tmp") +
                      std::string("/hk-fuzz-XXXXXX");
    if (dir.size() >= sizeof folder || !mkdtemp(dir.data())) abort();
    std::snprintf(folder, sizeof folder, "%s", dir.c_str());
    std::snprintf(file, sizeof file, "%s/template.yaml", folder);
    // Plain arrays: the handler runs after static objects are destroyed.
    atexit([] {
      unlink(file);
      rmdir(folder);
    });
  }
  return file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  {
    std::ofstream out(template_path(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) abort();
  }
  ytt::Options options;
  options.files = {template_path()};
  // Smaller budgets than ytt-compatible runs get, as fuzz_starlark has: the limits' paths are
  // the same, and an input that spends the whole default budget (50,000 nested calls, 10M
  // steps) takes seconds under the sanitizers without finding anything more.
  options.max_starlark_steps = 1'000'000;
  options.max_starlark_call_depth = 5'000;
  (void)ytt::run(options);
  options.command = ytt::Command::kFmt;
  (void)ytt::run(options);
  // Every module env goes with the run: one the collector cannot free stays reachable from its
  // registry, out of LeakSanitizer's sight, so it is checked here.
  if (size_t left = starlark::live_modules()) {
    std::fprintf(stderr, "fuzz_values: %zu Starlark module env(s) outlived the run\n", left);
    abort();
  }
  return 0;
}
