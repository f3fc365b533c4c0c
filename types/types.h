// The type checker shared by hint files and ytt-style schemas.
//
// A `Type` describes what a value may be: a scalar kind, a map (closed: known keys, each with
// its own type; or open: any keys, optionally with one value type), an array of one item type,
// `any`, and whether null is allowed. `check(value, type, path)` walks a value and returns
// every `Mismatch` found (it never stops at the first), leaving the wording to the front door:
// hint files say `expected slice, found string`, ytt says `found: string` /
// `expected: array`.
//
// One checker, two front doors: the walk is a template over a small *node view* (see
// `YamlView` for the shape), so the hint side checks `yaml::Node` trees and the ytt engine
// checks its own compact value tree with the same code and without copying either.
// `check_each(view, type, on_mismatch)` is the generic entry point; `check` and `fits` are
// its `yaml::Node` instantiations. Child types are shared (`shared_ptr<const Type>`), so a
// front door can build a type bottom-up without copying subtrees; big closed maps get a hash
// index (`index_fields()`), so a field lookup does not scan every key.
//
// Hint-file types map onto it with `hint_type()`: `string` = any non-null scalar (helmfile
// hands values over typed), `slice` = array of anything, `map` = open map of anything.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "diag/diag.h"
#include "yaml/yaml.h"

namespace hintkit::types {

enum class Kind {
  kAny,   // anything, including null
  kNull,  // only null
  kBool,
  kInt,
  kFloat,  // accepts ints too, as ytt does
  kString,
  kScalar,  // any of bool, int, float, string
  kMap,
  kArray,
};
std::string_view to_string(Kind k);

struct Field;

// Closed maps with more fields than this get a hash index for key lookups; below it a linear
// scan over a few short keys is faster than hashing.
inline constexpr size_t kIndexFieldsAbove = 8;

struct Type {
  Kind kind = Kind::kAny;
  bool nullable = false;  // null is accepted in addition to `kind`
  // kMap: closed maps list their keys; open maps accept any key, each checked against
  // `item` when set.
  std::vector<Field> fields;
  bool open = false;
  // kArray: the type of every element; kMap (open): the type of every value. Null = any.
  std::shared_ptr<const Type> item;
  diag::Span declared;  // where the type was declared, for "declared here"
  // The front door's own record for this type (the ytt engine points it at its schema node,
  // to word messages and fill defaults); the checker never looks at it.
  const void* origin = nullptr;

  const Field* field(std::string_view key) const;
  // Position of `key` in `fields`, or -1.
  long field_index(std::string_view key) const;
  // Builds the hash index when the map is big enough to need one (call after adding fields).
  void index_fields();

 private:
  std::shared_ptr<const std::unordered_map<std::string, uint32_t>> index_;
};

// A closed map's key and its value type (shared: types are built bottom-up and reused).
struct Field {
  Field(std::string k, Type t)
      : key(std::move(k)), type_ptr(std::make_shared<const Type>(std::move(t))) {}
  Field(std::string k, std::shared_ptr<const Type> t) : key(std::move(k)), type_ptr(std::move(t)) {}
  std::string key;
  std::shared_ptr<const Type> type_ptr;
  const Type& type() const { return *type_ptr; }
};

Type make(Kind kind, diag::Span declared = {});
Type make_array(Type item, diag::Span declared = {});
Type make_open_map(diag::Span declared = {});

enum class MismatchReason {
  kWrongType,   // value is of another kind
  kUnknownKey,  // closed map got a key it does not declare
  kNull,        // null where null is not allowed
};

struct Mismatch {
  MismatchReason reason = MismatchReason::kWrongType;
  std::string path;   // data path of the offending value, e.g. "db.ports[2]"
  std::string found;  // kind of the value: "string", "map", ... (yaml::to_string)
  Kind expected = Kind::kAny;
  std::string key;                      // kUnknownKey: the key
  diag::Span value_span;                // where the value is
  diag::Span declared;                  // where the expected type was declared
  std::vector<std::string> known_keys;  // kUnknownKey: candidates for did-you-mean
  const Type* type = nullptr;  // the type the value was checked against (kUnknownKey: the map)
};

// ---- Node views ----------------------------------------------------------------------------
//
// A view is a cheap copyable handle on one value of some tree, with:
//   yaml::Kind kind() const;                  // of the value
//   size_t size() const;                      // map items / array elements
//   View child(size_t i) const;               // value of item / element i
//   std::string_view key(size_t i, std::string& scratch) const;  // map item i's key as
//                                             // `Field::key` spells it (scratch: storage)
// plus whatever the front door wants to read back in its mismatch callback.

// One step of a data path: a map key or an array index.
struct PathStep {
  std::string_view key;
  size_t index = 0;
  bool is_index = false;
};
// `base` + steps, as join_path/index_path spell it ("db.ports[2]").
std::string path_text(std::string_view base, const std::vector<PathStep>& steps);

namespace detail {
bool kind_accepts(Kind expected, yaml::Kind actual);

// The walk behind check/fits/check_each. `on(reason, at, type, steps)` is called for every
// mismatch (for kUnknownKey `at` is the offending item's value and steps.back() its key);
// it returns whether to keep going.
template <class View, class On>
class Walker {
 public:
  explicit Walker(On& on) : on_(on) {}
  bool stopped = false;

  bool visit(const View& v, const Type& t) {
    if (t.kind == Kind::kAny) return true;
    const yaml::Kind vk = v.kind();
    if (vk == yaml::Kind::kNull) {
      if (t.nullable || t.kind == Kind::kNull) return true;
      return report(MismatchReason::kNull, v, t);
    }
    if (!kind_accepts(t.kind, vk)) return report(MismatchReason::kWrongType, v, t);
    bool ok = true;
    if (t.kind == Kind::kArray && t.item) {
      const size_t n = v.size();
      for (size_t i = 0; i < n && !stopped; ++i) {
        steps_.push_back({{}, i, true});
        ok = visit(v.child(i), *t.item) && ok;
        steps_.pop_back();
      }
    } else if (t.kind == Kind::kMap) {
      const size_t n = v.size();
      std::string scratch;
      for (size_t i = 0; i < n && !stopped; ++i) {
        const std::string_view key = v.key(i, scratch);
        steps_.push_back({key, 0, false});
        if (t.open) {
          if (t.item) ok = visit(v.child(i), *t.item) && ok;
        } else if (const Field* f = t.field(key)) {
          ok = visit(v.child(i), f->type()) && ok;
        } else {
          ok = report(MismatchReason::kUnknownKey, v.child(i), t) && ok;
        }
        steps_.pop_back();
      }
    }
    return ok;
  }

 private:
  bool report(MismatchReason reason, const View& at, const Type& t) {
    if (!on_(reason, at, t, steps_)) stopped = true;
    return false;
  }

  On& on_;
  std::vector<PathStep> steps_;
};
}  // namespace detail

// Checks any tree through its view; `on(reason, at, type, steps) -> bool` as above. Returns
// whether the value fits.
template <class View, class On>
bool check_each(const View& value, const Type& type, On&& on) {
  detail::Walker<View, std::remove_reference_t<On>> w(on);
  return w.visit(value, type);
}

// The view of a loaded `yaml::Node` (keys matched by their text, as hint files spell them).
struct YamlView {
  const yaml::Node* node;
  const yaml::Node* key_node = nullptr;  // set on children of maps
  yaml::Kind kind() const { return node->kind; }
  size_t size() const {
    return node->kind == yaml::Kind::kMap ? node->items.size() : node->elements.size();
  }
  YamlView child(size_t i) const {
    if (node->kind == yaml::Kind::kMap) return {&node->items[i].value, &node->items[i].key};
    return {&node->elements[i]};
  }
  std::string_view key(size_t i, std::string&) const { return node->items[i].key.text; }
};

// Every mismatch of `value` against `type`, in document order. `path` is the value's own path.
std::vector<Mismatch> check(const yaml::Node& value, const Type& type, std::string_view path = {});

// Does a single value's shape fit, without collecting details (fast path for resolvers).
bool fits(const yaml::Node& value, const Type& type);

// "a string", "an int", "an array": how messages name the kind of a value found.
std::string a_kind(yaml::Kind k);

// Data-path helpers: "a" + "b" -> "a.b", "a" + [3] -> "a[3]".
std::string join_path(std::string_view parent, std::string_view key);
std::string index_path(std::string_view parent, size_t index);

}  // namespace hintkit::types
