// Differential fuzz target of the YAML reader (go-yaml v2's scanner and parser, go_scan.cpp):
//
// - Against an independent parser: on text read whole with no diagnostic, yaml-cpp's tree must
//   have the same structure and scalar text (tests/support/yaml_crosscheck.h says what is left
//   out, and why).
// - Every span of the tree lies inside the input.
// Aborts on the first disagreement, printing the input.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tests/support/yaml_crosscheck.h"
#include "yaml/internal.h"
#include "yaml/yaml.h"

namespace {

using hintkit::diag::Diagnostics;
using hintkit::diag::Position;
using hintkit::yaml::Document;
using hintkit::yaml::Node;
namespace internal = hintkit::yaml::internal;

[[noreturn]] void disagree(std::string_view input, const std::string& what) {
  std::fprintf(stderr, "the reader disagrees: %s\ninput (%zu bytes):\n%.*s\n", what.c_str(),
               input.size(), static_cast<int>(input.size()), input.data());
  std::abort();
}

bool inside(const Position& p, const Position& end) {
  return p.line >= 1 && p.column >= 1 && p.line <= end.line;
}

void check_spans(std::string_view text, const Node& n, const Position& end) {
  if (!inside(n.span.begin, end) || !inside(n.span.end, end)) {
    disagree(text, "a span outside the input at line " + std::to_string(n.span.begin.line));
  }
  for (const auto& item : n.items) {
    check_spans(text, item.key, end);
    check_spans(text, item.value, end);
  }
  for (const Node& e : n.elements) check_spans(text, e, end);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  Diagnostics diags;
  std::vector<Document> docs = internal::load_with(text, "in.yaml", diags, {}, nullptr);
  // The last line of the text, as go-yaml counts lines.
  const Position end{internal::text_position(text, text.size()).line, 1};
  for (const Document& d : docs) {
    if (!d.empty) check_spans(text, d.root, end);  // an empty document has no place
  }
  hintkit::yaml::testing::CrossCheck c = hintkit::yaml::testing::cross_check(text);
  if (!c.difference.empty()) disagree(text, "yaml-cpp's tree: " + c.difference);
  return 0;
}
