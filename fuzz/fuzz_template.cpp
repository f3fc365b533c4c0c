// Fuzzes tazuna.yaml's Go template renderer: the input is the template, the environment is
// fixed. Rendering either succeeds (then rendered positions map back into the source),
// reports diagnostics, or refuses a feature by name; never a crash, a hang or a blow-up (the
// limits on made strings, work, output and variables hold whatever the template repeats).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "diag/diag.h"
#include "resolver/template.h"

using namespace hintkit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view source(reinterpret_cast<const char*>(data), size);
  diag::Diagnostics diags;
  auto rendered =
      resolver::render_template(source, "tazuna.yaml", resolver::TemplateData{"production"}, diags);
  if (!rendered.ok() || diags.has_errors()) return 0;
  const std::string& text = rendered->text;
  // The first 64 KiB are enough: output may be up to the renderer's 64 MiB limit.
  const size_t checked = std::min<size_t>(text.size(), 64 * 1024);
  int line = 1, column = 1;
  for (size_t i = 0; i < checked; ++i) {
    const diag::Position at = rendered->source_position({line, column});
    if (at.line < 1 || at.column < 1) __builtin_trap();
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return 0;
}
