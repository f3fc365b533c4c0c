// Fuzzes resolution: a hint file and the values given for it, in one input split at the first
// line `#values` (before: the hint; after: the values, YAML or JSON). A clean hint resolves the
// values; the result prints as YAML and JSON. Never a crash, whatever the two texts are.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "diag/diag.h"
#include "hintfile/hintfile.h"
#include "plugin/values_io.h"
#include "resolver/resolver.h"
#include "yaml/yaml.h"

using namespace hintkit;

namespace {
constexpr std::string_view kSeparator = "\n#values\n";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t cut = input.find(kSeparator);
  std::string_view hint_text = input.substr(0, cut);
  std::string_view values_text =
      cut == std::string_view::npos ? std::string_view() : input.substr(cut + kSeparator.size());

  diag::Diagnostics diags;
  hintfile::HintFile hint = hintfile::parse(hint_text, hintfile::kFileName, diags);
  if (diags.has_errors()) return 0;
  // Values are read as `hintkit resolve --values -` reads them.
  std::istringstream in{std::string(values_text)};
  auto values = plugin::load_values("-", in, diags, /*show_values=*/false);
  if (!values.ok() || diags.has_errors()) return 0;
  for (bool show_values : {true, false}) {
    diag::Diagnostics found;
    yaml::Node resolved = resolver::resolve(&hint, *values, found,
                                            {.values_label = "stdin", .show_values = show_values});
    std::ostringstream out;
    plugin::write_values(out, resolved, "yaml");
    plugin::write_values(out, resolved, "json");
    diag::render(out, diag::Format::kText, found);
  }
  // Without a hint the values pass through.
  diag::Diagnostics found;
  (void)resolver::resolve(nullptr, *values, found);
  return 0;
}
