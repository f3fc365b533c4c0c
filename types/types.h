// The type checker shared by hint files and the ytt engine.
//
// A `Type` describes what a value may be: a scalar kind, a map (closed: known keys, each with
// its own type; or open: any keys, optionally with one value type), an array of one item type,
// `any`, and whether null is allowed. `check_each(view, type, on_mismatch, order)` walks a
// value against a type and reports every mismatch (it never stops at the first unless told
// to), as a `MismatchReason` at a place in the value, leaving the wording to the front door:
// hint files say `expected slice, found string`, ytt says `found: string` / `expected: array`.
//
// One checker, two front doors, no copies: the walk is a template over a small *node view*
// (see `YamlView` for the shape), so the hint side checks `yaml::Node` trees (`check` and
// `fits` below) and the ytt engine checks its own compact value tree (ytt/schema/infer.cpp's
// `DView`) with the same code. The front doors differ only in the `Order` they ask for: hint
// files report in document order, ytt in its two passes (shapes of maps and arrays first, then
// keys and scalars). The ytt engine's schema types are `Type`s too (schema's `SType` derives
// from `Type`, and its `origin` points back at it for defaults, validations and documentation),
// so one type algebra is walked for both.
//
// Child types are shared (`shared_ptr<const Type>`), so a front door can build a type
// bottom-up without copying subtrees; big closed maps get a hash index (`index_fields()`), so
// a field lookup does not scan every key. A closed map's field keys are plain strings; a front
// door whose keys are not all strings spells them apart (the ytt engine's `checker_key`) and
// its view's `key()` spells value keys the same way.
//
// Hint-file types map onto it with `hintfile::Var::checker_type()`: `string` = any non-null scalar
// (helmfile hands values over typed), `slice` = array of anything, `map` = open map of anything.
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
  bool open = false;      // kMap: any key is accepted (each value checked against `item`)
  // kMap, closed: the keys it accepts, each with its value's type.
  std::vector<Field> fields;
  // kArray: the type of every element; kMap (open): the type of every value. Null = any.
  std::shared_ptr<const Type> item;
  diag::Span declared;  // where the type was declared, for "declared here"
  // The front door's own record for this type (the ytt engine points it at the `SType` this
  // `Type` is part of, to word messages and fill defaults); the checker never looks at it.
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

// The order a walk reports mismatches in; both orders find the same values wrong when the
// first pass of `kShapesFirst` finds nothing.
enum class Order {
  // One pre-order pass in document order: each map item's unknown key where the item stands,
  // a map or array of the wrong kind where it stands (hint files).
  kDocument,
  // ytt's two passes (its AssignTypeTo, then CheckNode). First, depth first, every map or
  // array whose type wants another kind; it enters declared fields only, and reports no
  // scalar, null or unknown key. Only when that finds nothing, the second pass: pre-order,
  // each map's unknown keys before any of its items' values, and each scalar and null
  // against its type.
  kShapesFirst,
};

namespace detail {
bool kind_accepts(Kind expected, yaml::Kind actual);

// The walk behind check/fits/check_each. `on(reason, at, type, steps)` is called for every
// mismatch (for kUnknownKey `at` is the offending item's value and steps.back() its key);
// it returns whether to keep going.
template <class View, class On>
class Walker {
 public:
  Walker(On& on, Order order) : on_(on), order_(order) {}

  bool run(const View& v, const Type& t) {
    if (order_ == Order::kShapesFirst) {
      if (!shapes(v, t)) return false;
      keys_first_ = true;
    }
    return visit(v, t);
  }

 private:
  // The document-order pass (with `keys_first_`: ytt's second pass).
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
      for (size_t i = 0; i < n && !stopped_; ++i) {
        steps_.push_back({{}, i, true});
        ok = visit(v.child(i), *t.item) && ok;
        steps_.pop_back();
      }
    } else if (t.kind == Kind::kMap) {
      const size_t n = v.size();
      std::string scratch;
      if (keys_first_ && !t.open) {
        for (size_t i = 0; i < n && !stopped_; ++i) {
          const std::string_view key = v.key(i, scratch);
          if (t.field_index(key) >= 0) continue;
          steps_.push_back({key, 0, false});
          ok = report(MismatchReason::kUnknownKey, v.child(i), t) && ok;
          steps_.pop_back();
        }
      }
      for (size_t i = 0; i < n && !stopped_; ++i) {
        const std::string_view key = v.key(i, scratch);
        steps_.push_back({key, 0, false});
        if (t.open) {
          if (t.item) ok = visit(v.child(i), *t.item) && ok;
        } else if (const Field* f = t.field(key)) {
          ok = visit(v.child(i), f->type()) && ok;
        } else if (!keys_first_) {
          ok = report(MismatchReason::kUnknownKey, v.child(i), t) && ok;
        }
        steps_.pop_back();
      }
    }
    return ok;
  }

  // ytt's first pass: maps and arrays against the kinds their types want.
  bool shapes(const View& v, const Type& t) {
    if (t.kind == Kind::kAny) return true;
    const yaml::Kind vk = v.kind();
    if (vk != yaml::Kind::kMap && vk != yaml::Kind::kArray) return true;  // the second pass's
    if (!kind_accepts(t.kind, vk)) return report(MismatchReason::kWrongType, v, t);
    bool ok = true;
    const size_t n = v.size();
    if (vk == yaml::Kind::kArray) {
      if (!t.item) return true;
      for (size_t i = 0; i < n && !stopped_; ++i) {
        steps_.push_back({{}, i, true});
        ok = shapes(v.child(i), *t.item) && ok;
        steps_.pop_back();
      }
      return ok;
    }
    std::string scratch;
    for (size_t i = 0; i < n && !stopped_; ++i) {
      const std::string_view key = v.key(i, scratch);
      const Type* ft = nullptr;
      if (t.open) {
        ft = t.item.get();
      } else if (const Field* f = t.field(key)) {
        ft = &f->type();
      }
      if (!ft) continue;  // an unknown key is the second pass's
      steps_.push_back({key, 0, false});
      ok = shapes(v.child(i), *ft) && ok;
      steps_.pop_back();
    }
    return ok;
  }

  bool report(MismatchReason reason, const View& at, const Type& t) {
    if (!on_(reason, at, t, steps_)) stopped_ = true;
    return false;
  }

  On& on_;
  const Order order_;
  bool keys_first_ = false;
  bool stopped_ = false;
  std::vector<PathStep> steps_;
};
}  // namespace detail

// Checks any tree through its view, in `order`; `on(reason, at, type, steps) -> bool` as
// above. Returns whether the value fits (under kShapesFirst, false as soon as the first pass
// found something: the second does not run).
template <class View, class On>
bool check_each(const View& value, const Type& type, On&& on, Order order = Order::kDocument) {
  detail::Walker<View, std::remove_reference_t<On>> w(on, order);
  return w.run(value, type);
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

// Every mismatch of `value` against `type`, in `order`. `path` is the value's own path.
std::vector<Mismatch> check(const yaml::Node& value, const Type& type, std::string_view path = {},
                            Order order = Order::kDocument);

// Does a single value's shape fit, without collecting details (fast path for resolvers).
bool fits(const yaml::Node& value, const Type& type);

// "a string", "an int", "an array": how messages name the kind of a value found.
std::string a_kind(yaml::Kind k);

// Data-path helpers: "a" + "b" -> "a.b", "a" + [3] -> "a[3]".
std::string join_path(std::string_view parent, std::string_view key);
std::string index_path(std::string_view parent, size_t index);

}  // namespace hintkit::types
