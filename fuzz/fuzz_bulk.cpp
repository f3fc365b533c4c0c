// Fuzzes ytt's bulk input and output: the input is the JSON text of `hintkit values --bulk-in
// TEXT --bulk-out`, run in process: Go's JSON reading into ytt's BulkFiles, then the files it
// names through the whole pipeline, and the output files or the error printed back as JSON.
// Any text must end with that JSON or Go's error, never a crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "starlark/starlark.h"
#include "ytt/cmd/cmd.h"

using namespace hintkit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ytt::Options options;
  options.bulk_in.assign(reinterpret_cast<const char*>(data), size);
  options.bulk_out = true;
  // fuzz_values' budgets: the limits' paths are the same as with ytt's own.
  options.max_starlark_steps = 1'000'000;
  options.max_starlark_call_depth = 5'000;
  const ytt::Outcome out = ytt::run(options);
  // An empty --bulk-in reads -f (none given here); any other text ends in ytt's JSON or an error.
  if (out.exit_code == 0 && size > 0 && (out.out.empty() || out.out.front() != '{')) abort();
  if (size_t left = starlark::live_modules()) {
    std::fprintf(stderr, "fuzz_bulk: %zu Starlark module env(s) outlived the run\n", left);
    abort();
  }
  return 0;
}
