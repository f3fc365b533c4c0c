// Fuzzes hint files: parsing, every lint check, and the four report formats. Any bytes must
// end as a HintFile plus diagnostics that render, never a crash.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "diag/diag.h"
#include "hintfile/hintfile.h"

using namespace hintkit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view source(reinterpret_cast<const char*>(data), size);
  diag::Diagnostics diags;
  hintfile::HintFile hint = hintfile::parse(source, hintfile::kFileName, diags);
  for (const auto& var : hint.vars) (void)hint.find(var.name);
  diags.sort_and_dedupe();
  for (auto format :
       {diag::Format::kText, diag::Format::kJson, diag::Format::kSarif, diag::Format::kGithub}) {
    std::ostringstream out;
    diag::render(out, format, diags);
  }
  return 0;
}
