// The builtins: the universe (len, str, sorted, ...: builtins_universe.cpp), the methods and
// attributes of built-in types (builtins_methods.cpp), and the helpers for writing them:
// argument unpacking with starlark-go's messages ("len: got 2 arguments, want 1", "int:
// missing argument for x"). Internal to starlark/.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "starlark/values.h"

namespace hintkit::starlark {

// Throws "<name>: <message>".
[[noreturn]] void bfail(const Call& c, std::string message);

// Positional-only builtins: between `min` and `max` arguments, no keywords.
void unpack_positional(const Call& c, size_t min, size_t max);

// Binds positional and keyword arguments to `names`; a trailing '?' marks optional parameters.
// Parameters not given are left unbound (check with `given`).
void unpack_args(const Call& c, std::initializer_list<std::string_view> names,
                 std::initializer_list<Value*> out);
inline bool given(const Value& v) { return !is_unbound(v); }

// Typed access with "for parameter N: got T, want U" messages (`param` is 1-based).
const std::string& want_string(const Call& c, const Value& v, std::string_view param);
int64_t want_int(const Call& c, const Value& v, std::string_view param);

// Fails with "for parameter P: got T, want iterable" unless `v` can be iterated.
void want_iterable(const Call& c, const Value& v, std::string_view param);

// ---- starlark-go's argument unpacking, slot by slot ----
// What a parameter accepts, with the conversion errors of starlark-go's unpackOneArg:
// "got T, want string", "got T, want int" / "N out of range" (ints must fit 32 bits),
// "got T, want iterable" (strings are not iterable), "got T, want callable".
enum class Want { kAny, kString, kBool, kInt32, kIterable, kCallable };
struct ArgSlot {
  std::string_view name;  // a trailing '?' marks an optional parameter (unpack_args only)
  Value* out;
  Want want = Want::kAny;
};

// The conversion error for `v` against `want`, or empty when it converts.
std::string conversion_error(const Value& v, Want want);
bool is_iterable(const Value& v);
// An int known to fit 32 bits (after a kInt32 conversion).
inline int64_t small_int(const Value& v) { return *v.to_int64(); }

// UnpackPositionalArgs: no keywords ("unexpected keyword arguments"), between `min` and
// params.size() arguments, each converted ("for parameter 2: got T, want int").
void unpack_positional(const Call& c, size_t min, std::initializer_list<ArgSlot> params);
// UnpackArgs: positional then keyword arguments bound to names; conversion errors name the
// parameter ("for parameter sep: ..."); missing required ones: "missing argument for x".
void unpack_args(const Call& c, std::initializer_list<ArgSlot> params);
void unpack_args_v(const Call& c, const std::vector<ArgSlot>& params);

Value make_bound(std::string_view name, BuiltinFn fn, const Value& recv);
Value make_internal_builtin(std::string name, BuiltinFn fn);

// ---- Methods and attributes (builtins_methods.cpp) ----

// Methods of built-in types: a bound builtin or nullopt.
std::optional<Value> builtin_method(const Value& recv, std::string_view name);
std::vector<std::string> builtin_method_names(Kind k);
// The unbound implementation of a built-in type's method, or nullptr.
BuiltinFn find_method(Kind k, std::string_view name);

// dict(...) and dict.update(...): starlark-go's updateDict of the call's arguments into `d`, its
// errors prefixed with the call's name ("update: got 2 arguments, want at most 1").
void dict_update_from(const Call& c, const Value& d);

// x.name: a struct's field, a host value's attribute or a built-in type's bound method.
Value get_attr(const Value& x, std::string_view name);  // throws "T has no .n field or method"
std::vector<std::string> dir_of(const Value& x);
// "T has no .name field or method", with starlark-go's spelling hint from the type's names.
std::string no_attr_message(const Value& x, std::string_view name);

// ---- The universe (builtins_universe.cpp) ----

// The predeclared builtins every program sees, and one of them by name (null: not a builtin).
const std::vector<std::pair<std::string, Value>>& universe();
const Value* universe_value(std::string_view name);

}  // namespace hintkit::starlark
