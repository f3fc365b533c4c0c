// Fuzzes the Go text/template parser: any input parses or fails with a message at a place
// inside the text; a parsed tree prints (Go's String()) and every node's offset is inside the
// text. Never a crash, a hang or unbounded recursion (kMaxNesting).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "gotmpl/gotmpl.h"

using namespace hintkit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (bool check_functions : {false, true}) {
    gotmpl::Options options;
    if (check_functions) options.is_function = gotmpl::is_builtin;
    options.keep_comments = check_functions;
    auto parsed = gotmpl::parse(text, "fuzz", options);
    if (!parsed.ok()) {
      if (parsed.error().offset > size || parsed.error().message.empty()) std::abort();
      continue;
    }
    for (const auto& [name, tree] : parsed->trees) {
      (void)gotmpl::to_string(*tree.root, check_functions);
      gotmpl::walk(*tree.root, [&](const gotmpl::Node& n) {
        if (n.pos > size) std::abort();
        (void)parsed->position(n.pos);
        return true;
      });
    }
  }
  return 0;
}
