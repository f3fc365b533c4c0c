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

const Field* Type::field(std::string_view key) const {
  for (const Field& f : fields) {
    if (f.key == key) return &f;
  }
  return nullptr;
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
  const bool vowel = !name.empty() && std::string_view("aeiou").find(name[0]) != std::string_view::npos;
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

namespace {

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

class Checker {
 public:
  explicit Checker(std::vector<Mismatch>* out) : out_(out) {}

  // Returns false as soon as one mismatch is seen when collecting is off (fits()).
  bool visit(const yaml::Node& v, const Type& t, const std::string& path) {
    if (t.kind == Kind::kAny) return true;
    if (v.kind == yaml::Kind::kNull) {
      if (t.nullable || t.kind == Kind::kNull) return true;
      return report(MismatchReason::kNull, v, t, path);
    }
    if (!kind_accepts(t.kind, v.kind)) return report(MismatchReason::kWrongType, v, t, path);
    bool ok = true;
    if (t.kind == Kind::kArray && t.item) {
      for (size_t i = 0; i < v.elements.size(); ++i) {
        ok = visit(v.elements[i], *t.item, out_ ? index_path(path, i) : path) && ok;
        if (!ok && !out_) return false;
      }
    } else if (t.kind == Kind::kMap) {
      for (const yaml::MapItem& item : v.items) {
        const std::string key = item.key.text;
        const std::string child = out_ ? join_path(path, key) : path;
        if (t.open) {
          if (t.item) ok = visit(item.value, *t.item, child) && ok;
        } else if (const Field* f = t.field(key)) {
          ok = visit(item.value, f->type, child) && ok;
        } else {
          ok = false;
          if (out_) {
            Mismatch m;
            m.reason = MismatchReason::kUnknownKey;
            m.path = child;
            m.key = key;
            m.found = std::string(yaml::to_string(item.value.kind));
            m.expected = t.kind;
            m.value_span = item.key.span;
            m.declared = t.declared;
            for (const Field& f2 : t.fields) m.known_keys.push_back(f2.key);
            out_->push_back(std::move(m));
          }
        }
        if (!ok && !out_) return false;
      }
    }
    return ok;
  }

 private:
  bool report(MismatchReason reason, const yaml::Node& v, const Type& t, const std::string& path) {
    if (out_) {
      Mismatch m;
      m.reason = reason;
      m.path = path;
      m.found = std::string(yaml::to_string(v.kind));
      m.expected = t.kind;
      m.value_span = v.span;
      m.declared = t.declared;
      out_->push_back(std::move(m));
    }
    return false;
  }

  std::vector<Mismatch>* out_;
};

}  // namespace

std::vector<Mismatch> check(const yaml::Node& value, const Type& type, std::string_view path) {
  std::vector<Mismatch> out;
  Checker(&out).visit(value, type, std::string(path));
  return out;
}

bool fits(const yaml::Node& value, const Type& type) {
  return Checker(nullptr).visit(value, type, std::string());
}

}  // namespace hintkit::types
