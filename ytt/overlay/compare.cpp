// Comparing values (ytt's compare.go), for `overlay.subset`, `overlay.map_key`, `by="key"` and
// `#@overlay/assert`.
#include "ytt/overlay/op.h"

namespace hintkit::ytt::overlay {

bool leaf_equal(const DNode& a, const DNode& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case yaml::Kind::kNull:
      return true;
    case yaml::Kind::kBool:
      return a.scalar.bool_value == b.scalar.bool_value;
    case yaml::Kind::kInt:
      return a.scalar.int_value == b.scalar.int_value &&
             (a.scalar.is_unsigned == b.scalar.is_unsigned || a.scalar.int_value >= 0);
    case yaml::Kind::kFloat:
      return a.scalar.float_value == b.scalar.float_value;
    case yaml::Kind::kString:
      return a.scalar.text == b.scalar.text;
    default:
      return false;
  }
}

// Whether `actual` holds everything `expected` says (maps by key, arrays item by item from the
// start, leaves equal); nullopt when it does, else why not.
std::optional<std::string> compare(const DNode& actual, const DNode& expected) {
  if (expected.is_map()) {
    if (!actual.is_map()) return "Expected map, but was " + type_name(actual);
    for (const auto& re : expected.entries) {
      bool matched = false;
      for (const auto& le : actual.entries) {
        if (!same_key(le.key, re.key)) continue;
        if (auto why = compare(*le.value, *re.value)) return why;
        matched = true;
      }
      if (!matched) return std::string("Expected at least one map item to match by key");
    }
    return std::nullopt;
  }
  if (expected.is_array()) {
    if (!actual.is_array()) return "Expected array, but was " + type_name(actual);
    for (size_t i = 0; i < expected.entries.size(); ++i) {
      if (i >= actual.entries.size()) {
        return std::string("Expected to have matching number of array items");
      }
      if (auto why = compare(*actual.entries[i].value, *expected.entries[i].value)) return why;
    }
    return std::nullopt;
  }
  if (leaf_equal(actual, expected)) return std::nullopt;
  return "Expected leaf values to match " + type_name(actual) + " " + type_name(expected);
}

}  // namespace hintkit::ytt::overlay
