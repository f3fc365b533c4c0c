// The type checker shared by hint files and ytt-style schemas.
//
// A `Type` describes what a value may be: a scalar kind, a map (closed: known keys, each with
// its own type; or open: any keys, optionally with one value type), an array of one item type,
// `any`, and whether null is allowed. `check(value, type, path)` walks a `yaml::Node` and
// returns every `Mismatch` found (it never stops at the first), leaving the wording to the
// front door: hint files say `expected slice, found string`, ytt says `found: string` /
// `expected: array`.
//
// Hint-file types map onto it with `hint_type()`: `string` = any non-null scalar (helmfile
// hands values over typed), `slice` = array of anything, `map` = open map of anything.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diag.h"
#include "yaml/yaml.h"

namespace hintkit::types {

enum class Kind {
  kAny,     // anything, including null
  kNull,    // only null
  kBool,
  kInt,
  kFloat,   // accepts ints too, as ytt does
  kString,
  kScalar,  // any of bool, int, float, string
  kMap,
  kArray,
};
std::string_view to_string(Kind k);

struct Field;

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

  const Field* field(std::string_view key) const;
};

struct Field {
  std::string key;
  Type type;
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
  std::string path;        // data path of the offending value, e.g. "db.ports[2]"
  std::string found;       // kind of the value: "string", "map", ... (yaml::to_string)
  Kind expected = Kind::kAny;
  std::string key;         // kUnknownKey: the key
  diag::Span value_span;   // where the value is
  diag::Span declared;     // where the expected type was declared
  std::vector<std::string> known_keys;  // kUnknownKey: candidates for did-you-mean
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
