// Fuzzes the YAML loader (both parser paths: the fast parser and yaml-cpp behind it) and the
// emitters: any bytes must load into documents plus diagnostics, never crash, and what loads
// cleanly must print as YAML and JSON.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "diag/diag.h"
#include "yaml/yaml.h"

using namespace hintkit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view source(reinterpret_cast<const char*>(data), size);
  for (bool keep_comments : {false, true}) {
    diag::Diagnostics diags;
    auto docs = yaml::load(source, "fuzz.yaml", diags, {.keep_comments = keep_comments});
    if (diags.has_errors()) continue;
    for (const auto& doc : docs) {
      (void)yaml::emit_yaml(doc.root);
      (void)yaml::emit_json(doc.root, 2);
    }
  }
  return 0;
}
