// sigs.k8s.io/yaml's YAML -> JSON conversion (yaml.go: yamlToJSONTarget,
// convertToJSONableObject), as tazuna's decoding of tazuna.yaml and hint files goes through
// it: what it refuses, and what a value bound for an `any` looks like afterwards.
#include <cmath>
#include <optional>
#include <unordered_map>

#include "gocompat/gocompat.h"
#include "yaml/yaml.h"

namespace hintkit::yaml {

const GoType* GoType::other() {
  static const GoType t{};
  return &t;
}

const GoType* GoType::string() {
  static const GoType t{.kind = Kind::kString, .fields = {}, .elem = nullptr};
  return &t;
}

namespace {

// The Go spelling of a key, or why the conversion refuses it ("unsupported map key of type").
std::optional<std::string> key_string(const Node& key, std::string& why) {
  switch (key.kind) {
    case Kind::kNull:
      why = "is null";
      return std::nullopt;
    case Kind::kInt:
      // go-yaml v2 reads an integer above INT64_MAX as uint64, a key type the conversion
      // has no case for.
      if (key.is_unsigned) {
        why = "is an integer past 2^63-1 (go-yaml's uint64)";
        return std::nullopt;
      }
      return go_key_string(key);
    case Kind::kMap:
    case Kind::kArray:
      why = "is a " + std::string(to_string(key.kind));
      return std::nullopt;
    default:
      return go_key_string(key);
  }
}

// ASCII case-insensitive equality: encoding/json's fallback match of field names.
bool equal_fold(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// The type a map item's value is decoded into (nullptr: no target).
const GoType* field_type(const GoType* target, std::string_view key) {
  if (!target) return nullptr;
  if (target->kind == GoType::Kind::kMap) return target->elem;
  if (target->kind != GoType::Kind::kStruct) return nullptr;
  const GoType* folded = nullptr;
  for (const GoType::Field& f : target->fields) {
    if (f.name == key) return f.type;
    if (!folded && equal_fold(f.name, key)) folded = f.type;
  }
  return folded;
}

class Checker {
 public:
  Checker(std::string_view what, diag::Diagnostics& diags) : what_(what), diags_(diags) {}

  void walk(const Node& n, const GoType* target) {
    if (n.kind == Kind::kMap) {
      std::unordered_map<std::string, const Node*> seen;
      for (const MapItem& item : n.items) {
        std::string why;
        const std::optional<std::string> key = key_string(item.key, why);
        if (!key) {
          refuse(item.key.span, "key " + shown(item.key) + " " + why,
                 "unsupported map key of type " + go_type_name(item.key));
          walk(item.value, target && target->kind == GoType::Kind::kMap ? target->elem : nullptr);
          continue;
        }
        auto [it, fresh] = seen.emplace(*key, &item.key);
        if (!fresh) {
          auto& d = diags_.error("HK002", item.key.span,
                                 "keys " + shown(*it->second) + " and " + shown(item.key) +
                                     " both become " + diag::in_quotes(*key) + " in " + what_ +
                                     " as tazuna reads it, which keeps one of them at random");
          d.related.push_back({it->second->span, "the other key"});
        }
        walk(item.value, field_type(target, *key));
      }
      return;
    }
    if (n.kind == Kind::kArray) {
      const GoType* elem =
          target && target->kind == GoType::Kind::kSlice ? target->elem : nullptr;
      for (const Node& e : n.elements) walk(e, elem);
      return;
    }
    // A scalar bound for a string becomes its spelling; anywhere else an infinity or NaN
    // reaches encoding/json, which has no spelling for it.
    if (target && target->kind == GoType::Kind::kString) return;
    if (n.kind == Kind::kFloat && !std::isfinite(n.float_value)) {
      refuse(n.span, shown(n) + " has no JSON spelling",
             std::string("json: unsupported value: ") +
                 (std::isnan(n.float_value) ? "NaN" : n.float_value > 0 ? "+Inf" : "-Inf"));
    }
  }

 private:
  static std::string shown(const Node& n) {
    if (n.kind == Kind::kString) return diag::in_quotes(n.text);
    if (n.is_scalar()) return n.text.empty() ? std::string(to_string(n.kind)) : n.text;
    return std::string(to_string(n.kind));
  }

  static std::string go_type_name(const Node& key) {
    switch (key.kind) {
      case Kind::kNull:
        return "<nil>";
      case Kind::kInt:
        return "uint64";
      case Kind::kMap:
        return "map[interface {}]interface {}";
      default:
        return gocompat::kSliceType;
    }
  }

  void refuse(const diag::Span& span, const std::string& what, const std::string& go_error) {
    auto& d = diags_.error("HK005", span,
                           what + ": tazuna's YAML-to-JSON conversion refuses " + what_ + " (" +
                               go_error + ")");
    d.hints.push_back("quote it to make it text");
  }

  std::string what_;
  diag::Diagnostics& diags_;
};

}  // namespace

void check_go_json(const Node& value, const GoType& target, std::string_view what,
                   diag::Diagnostics& diags) {
  Checker(what, diags).walk(value, &target);
}

Node go_json_any(const Node& value, bool keep_ints) {
  if (value.kind == Kind::kMap) {
    Node out = value;
    out.items.clear();
    out.items.reserve(value.items.size());
    std::unordered_map<std::string, size_t> seen;
    for (const MapItem& item : value.items) {
      std::string why;
      const std::optional<std::string> key = key_string(item.key, why);
      if (!key || !seen.emplace(*key, out.items.size()).second) continue;
      MapItem converted;
      converted.key = make_string(*key);
      converted.key.span = item.key.span;
      converted.value = go_json_any(item.value, keep_ints);
      converted.span = item.span;
      out.items.push_back(std::move(converted));
    }
    return out;
  }
  if (value.kind == Kind::kArray) {
    Node out = value;
    for (Node& e : out.elements) e = go_json_any(e, keep_ints);
    return out;
  }
  if (value.kind == Kind::kInt && !keep_ints) {
    // encoding/json decodes every number into an `any` as a float64.
    Node out = value;
    out.kind = Kind::kFloat;
    out.float_value = value.is_unsigned ? static_cast<double>(static_cast<uint64_t>(value.int_value))
                                        : static_cast<double>(value.int_value);
    out.int_value = 0;
    out.is_unsigned = false;
    return out;
  }
  return value;
}

}  // namespace hintkit::yaml
