// Fuzzes the Starlark interpreter: scanning, parsing, resolving and evaluating any text under
// small limits (so one input runs in milliseconds), with a `load` that always fails and a
// `print` that discards. Every outcome is a Module or an Error, never a crash or a hang.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "starlark/starlark.h"

using namespace hintkit;

namespace {
void run_one(std::string_view source) {
  auto program = starlark::compile("fuzz.star", source);
  if (!program.ok()) {
    (void)program.error().to_string();
    return;
  }
  starlark::ThreadOptions options;
  options.limits.max_steps = 200'000;
  options.limits.max_string_bytes = size_t{1} << 20;
  options.limits.max_collection_len = size_t{1} << 16;
  options.print = [](std::string_view) {};
  starlark::Thread thread(std::move(options));
  auto module = thread.exec(*program);
  if (!module.ok()) {
    (void)module.error().to_string();
    return;
  }
  // Call every global function with no arguments: their bodies run too.
  for (const auto& [name, value] : module->globals()) {
    if (value.kind() == starlark::Kind::kFunction) (void)thread.call(value);
  }
}
}  // namespace

// Every module env must go with its thread and values: one the collector cannot free stays
// reachable from its registry, out of LeakSanitizer's sight, so it is checked here.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  run_one(std::string_view(reinterpret_cast<const char*>(data), size));
  if (size_t left = starlark::live_modules()) {
    std::fprintf(stderr, "fuzz_starlark: %zu module env(s) outlived the program\n", left);
    std::abort();
  }
  return 0;
}
