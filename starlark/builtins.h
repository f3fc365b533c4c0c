// Helpers for writing built-in functions and methods: argument unpacking with starlark-go's
// messages ("len: got 2 arguments, want 1", "int: missing argument for x"). Internal.
#pragma once

#include <initializer_list>
#include <string>

#include "starlark/runtime.h"

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

Value make_bound(std::string_view name, BuiltinFn fn, const Value& recv);
Value make_internal_builtin(std::string name, BuiltinFn fn);

}  // namespace hintkit::starlark
