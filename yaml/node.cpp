// Node helpers: kind names, builders, lookup and structural equality.
#include <cmath>

#include "yaml/yaml.h"

namespace hintkit::yaml {

std::string_view to_string(Kind k) {
  switch (k) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return "bool";
    case Kind::kInt:
      return "int";
    case Kind::kFloat:
      return "float";
    case Kind::kString:
      return "string";
    case Kind::kMap:
      return "map";
    case Kind::kArray:
      return "array";
  }
  return "unknown";
}

namespace {

// Keys match by their text: string keys by value, other scalar keys by how they were
// written (`n:` is a bool key in YAML 1.1, but `find("n")` still finds it).
bool key_matches(const Node& key, std::string_view want) {
  return key.is_scalar() && key.text == want;
}

}  // namespace

const MapItem* Node::find(std::string_view key) const {
  for (const MapItem& item : items) {
    if (key_matches(item.key, key)) return &item;
  }
  return nullptr;
}

MapItem* Node::find(std::string_view key) {
  for (MapItem& item : items) {
    if (key_matches(item.key, key)) return &item;
  }
  return nullptr;
}

Node make_null() { return Node{}; }

Node make_string(std::string s) {
  Node n;
  n.kind = Kind::kString;
  n.text = std::move(s);
  return n;
}

Node make_bool(bool b) {
  Node n;
  n.kind = Kind::kBool;
  n.bool_value = b;
  n.text = b ? "true" : "false";
  return n;
}

Node make_int(int64_t i) {
  Node n;
  n.kind = Kind::kInt;
  n.int_value = i;
  n.text = std::to_string(i);
  return n;
}

Node make_float(double d) {
  Node n;
  n.kind = Kind::kFloat;
  n.float_value = d;
  return n;
}

Node make_map() {
  Node n;
  n.kind = Kind::kMap;
  n.style = Style::kBlock;
  return n;
}

Node make_array() {
  Node n;
  n.kind = Kind::kArray;
  n.style = Style::kBlock;
  return n;
}

bool equal(const Node& a, const Node& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Kind::kNull:
      return true;
    case Kind::kBool:
      return a.bool_value == b.bool_value;
    case Kind::kInt:
      return a.int_value == b.int_value && a.is_unsigned == b.is_unsigned;
    case Kind::kFloat:
      return a.float_value == b.float_value ||
             (std::isnan(a.float_value) && std::isnan(b.float_value));
    case Kind::kString:
      return a.text == b.text;
    case Kind::kMap:
      if (a.items.size() != b.items.size()) return false;
      for (size_t i = 0; i < a.items.size(); ++i) {
        if (!equal(a.items[i].key, b.items[i].key) || !equal(a.items[i].value, b.items[i].value)) {
          return false;
        }
      }
      return true;
    case Kind::kArray:
      if (a.elements.size() != b.elements.size()) return false;
      for (size_t i = 0; i < a.elements.size(); ++i) {
        if (!equal(a.elements[i], b.elements[i])) return false;
      }
      return true;
  }
  return false;
}

}  // namespace hintkit::yaml
