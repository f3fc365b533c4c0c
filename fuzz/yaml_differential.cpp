// Differential fuzz target: loads the input through the fast parser alone and through
// yaml-cpp's path alone, and aborts on any disagreement.
//
// - The fast parser took the input: both trees must be equal node by node (values, styles,
//   tags, spans, annotations, comments) with the same diagnostics (code, kind, position).
// - The fast parser found a definite syntax error (or a pre-parse check failed): yaml-cpp's
//   path must report the same first error (code, syntax-error kind, position).
// - The fast parser declined: `load` runs exactly yaml-cpp's path, nothing to compare.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tests/support/yaml_compare.h"
#include "yaml/internal.h"
#include "yaml/yaml.h"

namespace {

using hintkit::diag::Diagnostics;
using hintkit::yaml::LoadOptions;
using hintkit::yaml::internal::load_with;
using hintkit::yaml::internal::ParserChoice;

[[noreturn]] void disagree(std::string_view input, const std::string& what) {
  std::fprintf(stderr, "fast parser and yaml-cpp disagree: %s\ninput (%zu bytes):\n%.*s\n",
               what.c_str(), input.size(), static_cast<int>(input.size()), input.data());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  LoadOptions options;
  options.keep_comments = true;
  Diagnostics fast_diags, slow_diags;
  bool fast_used = false;
  auto fast = load_with(ParserChoice::kFastOnly, text, "in.yaml", fast_diags, options, &fast_used);
  if (!fast_used && fast_diags.empty()) return 0;  // declined: only yaml-cpp's path exists
  auto slow = load_with(ParserChoice::kYamlCppOnly, text, "in.yaml", slow_diags, options, nullptr);
  if (fast_used) {
    std::string tree = hintkit::yaml::testing::TreeDiff().docs(fast, slow);
    if (!tree.empty()) disagree(text, tree);
    std::string a = hintkit::yaml::testing::diags_str(fast_diags);
    std::string b = hintkit::yaml::testing::diags_str(slow_diags);
    if (a != b) disagree(text, "diagnostics:\n" + a + "vs\n" + b);
    return 0;
  }
  // A definite error from the fast parser: yaml-cpp's path must stop at the same one.
  std::string a = hintkit::yaml::testing::first_error_str(fast_diags);
  std::string b = hintkit::yaml::testing::first_error_str(slow_diags);
  if (a != b) disagree(text, "first error: " + a + " vs " + b);
  return 0;
}
