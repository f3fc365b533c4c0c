#include "types/types.h"

namespace hintkit::types {

std::string_view to_string(Kind k) {
  switch (k) {
    case Kind::kAny:
      return "any";
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
    case Kind::kScalar:
      return "scalar";
    case Kind::kMap:
      return "map";
    case Kind::kArray:
      return "array";
  }
  return "any";
}

long Type::field_index(std::string_view key) const {
  if (index_) {
    // heterogeneous lookup arrives with C++20's unordered containers only in g++ 13's library
    auto it = index_->find(std::string(key));
    return it == index_->end() ? -1 : static_cast<long>(it->second);
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].key == key) return static_cast<long>(i);
  }
  return -1;
}

const Field* Type::field(std::string_view key) const {
  const long i = field_index(key);
  return i < 0 ? nullptr : &fields[static_cast<size_t>(i)];
}

void Type::index_fields() {
  if (fields.size() <= kIndexFieldsAbove) {
    index_.reset();
    return;
  }
  auto index = std::make_shared<std::unordered_map<std::string, uint32_t>>();
  index->reserve(fields.size());
  for (size_t i = 0; i < fields.size(); ++i)
    index->emplace(fields[i].key, static_cast<uint32_t>(i));
  index_ = std::move(index);
}

Type make(Kind kind, diag::Span declared) {
  Type t;
  t.kind = kind;
  t.declared = std::move(declared);
  return t;
}

Type make_array(Type item, diag::Span declared) {
  Type t = make(Kind::kArray, std::move(declared));
  t.item = std::make_shared<const Type>(std::move(item));
  return t;
}

Type make_open_map(diag::Span declared) {
  Type t = make(Kind::kMap, std::move(declared));
  t.open = true;
  return t;
}

std::string a_kind(yaml::Kind k) {
  const std::string_view name = yaml::to_string(k);
  const bool vowel =
      !name.empty() && std::string_view("aeiou").find(name[0]) != std::string_view::npos;
  return std::string(vowel ? "an " : "a ") + std::string(name);
}

std::string join_path(std::string_view parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  std::string s(parent);
  s += '.';
  s += key;
  return s;
}

std::string index_path(std::string_view parent, size_t index) {
  std::string s(parent);
  s += '[' + std::to_string(index) + ']';
  return s;
}

std::string path_text(std::string_view base, const std::vector<PathStep>& steps) {
  std::string s(base);
  for (const PathStep& st : steps) {
    if (st.is_index) {
      s += '[' + std::to_string(st.index) + ']';
    } else {
      if (!s.empty()) s += '.';
      s += st.key;
    }
  }
  return s;
}

namespace detail {

bool kind_accepts(Kind expected, yaml::Kind actual) {
  switch (expected) {
    case Kind::kAny:
      return true;
    case Kind::kNull:
      return actual == yaml::Kind::kNull;
    case Kind::kBool:
      return actual == yaml::Kind::kBool;
    case Kind::kInt:
      return actual == yaml::Kind::kInt;
    case Kind::kFloat:
      return actual == yaml::Kind::kFloat || actual == yaml::Kind::kInt;
    case Kind::kString:
      return actual == yaml::Kind::kString;
    case Kind::kScalar:
      return actual == yaml::Kind::kBool || actual == yaml::Kind::kInt ||
             actual == yaml::Kind::kFloat || actual == yaml::Kind::kString;
    case Kind::kMap:
      return actual == yaml::Kind::kMap;
    case Kind::kArray:
      return actual == yaml::Kind::kArray;
  }
  return false;
}

}  // namespace detail

std::vector<Mismatch> check(const yaml::Node& value, const Type& type, std::string_view path,
                            Order order) {
  std::vector<Mismatch> out;
  check_each(
      YamlView{&value}, type,
      [&](MismatchReason reason, const YamlView& at, const Type& t,
          const std::vector<PathStep>& steps) {
        Mismatch m;
        m.reason = reason;
        m.path = path_text(path, steps);
        m.found = std::string(yaml::to_string(at.node->kind));
        m.expected = t.kind;
        m.declared = t.declared;
        m.type = &t;
        if (reason == MismatchReason::kUnknownKey) {
          m.key = std::string(steps.back().key);
          m.value_span = at.key_node ? at.key_node->span : at.node->span;
          for (const Field& f : t.fields) m.known_keys.push_back(f.key);
        } else {
          m.value_span = at.node->span;
        }
        out.push_back(std::move(m));
        return true;
      },
      order);
  return out;
}

bool fits(const yaml::Node& value, const Type& type) {
  return check_each(YamlView{&value}, type,
                    [](MismatchReason, const YamlView&, const Type&, const std::vector<PathStep>&) {
                      return false;
                    });
}

}  // namespace hintkit::types
