// The `@ytt:*` library modules, one builder per module; `ytt_module()` (internal.h) picks one.
// ytt_modules.cpp: struct, data, overlay and the dispatcher; ytt_assert.cpp: assert;
// ytt_codec.cpp: json, yaml, regexp.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "schema/internal.h"

namespace hintkit::schema {

sl::Value assert_module(Files& files);  // try_to does not catch refusals
sl::Value json_module();
sl::Value yaml_module();
sl::Value regexp_module();
sl::Value base64_module();  // ytt_hashes.cpp: base64, md5, sha256
sl::Value md5_module();
sl::Value sha256_module();
sl::Value url_module();  // ytt_url_ip.cpp: url, ip
sl::Value ip_module();
sl::Value math_module(Files& files);  // ytt_math.cpp (warns through `files`)
sl::Value version_module();           // ytt_version.cpp
sl::Value toml_module(Files& files);  // ytt_toml.cpp (a refusal is recorded in `files`)

// Helpers shared by the module files.
// "name: got N arguments, want M" when the count of positional arguments is outside
// [min, max] (max < 0: no upper bound), as starlark-go's argument unpacking words it.
std::optional<sl::Error> check_arg_count(const sl::Call& c, size_t min, int max);
// ytt's core.ErrWrapper: the builtin's name, then the message ("md5.sum: expected ...").
sl::Error ytt_fail(const sl::Call& c, std::string_view message);
// Go's %T of a Starlark value, as ytt's messages print it ("starlark.Int", "*starlark.Dict").
std::string go_type_name(const sl::Value& v);
// ytt's core.StarlarkValue.AsString: sets `out`, or returns "expected a string, but was T".
std::optional<sl::Error> want_string(const sl::Call& c, const sl::Value& v, std::string_view& out);
// A value of a ytt module type ("url.value", "ip.addr", ...): `fields` are its attributes and
// methods; `type()` says "@ytt:<type>". Such values have no YAML or JSON form.
sl::Value make_module_value(std::string type,
                            std::vector<std::pair<std::string, sl::Value>> fields);
// ytt's conversion hint when `v` is or holds a module value ("@ytt:url.value does not
// automatically encode (hint: use .string())"), else nullopt.
std::optional<std::string> conversion_hint(const sl::Value& v, int depth = 0);
// The hint of `v` itself (not of what it holds): what ytt's AsGoValue stops at when its walk
// reaches `v`.
std::optional<std::string> own_conversion_hint(const sl::Value& v);
// An assertion object of @ytt:assert (what assert.min(...) etc. return).
bool is_assertion(const sl::Value& v);
// What ytt's AsGoValue stops at first in `v`, walking it in order: a panic (ranges, functions,
// ints beyond 64 bits, ...) as ytt's ErrWrapper returns it ("(p) ..."), or a value's conversion
// hint ("Unable to convert value: ...", given the builtin's name `fn` first); else nullopt.
std::optional<sl::Error> go_value_panic(const sl::Value& v, std::string_view fn = {});
// ytt's YAML encoding of a Starlark value (`yaml.encode`, `assert.equals`).
sl::Result<std::string> yaml_text(const sl::Value& v);

}  // namespace hintkit::schema
