// yttlibrary: the `@ytt:*` library modules (ytt's pkg/yttlibrary). Start at `ytt_module()`
// (modules.cpp), which picks a module by name; one builder per module follows. modules.cpp: the
// dispatcher, struct, data, template and module; assert.cpp: assert; codec.cpp: json, yaml,
// regexp; hashes.cpp: base64, md5, sha256; url_ip.cpp: url, ip; math.cpp, toml.cpp, version.cpp.
// `@ytt:overlay` is the overlay module's; `@ytt:library` the workspace's (Files::library_module).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ytt/files/files.h"
#include "ytt/overlay/overlay.h"
#include "ytt/template/template.h"
#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::ytt {

// @ytt:* modules.
// `name` without its "@ytt:" prefix; `folder`: where the loading file is (data.read looks
// there). nullopt: ytt has no such module.
std::optional<sl::Module> ytt_module(Files& files, std::string_view name,
                                     const std::string& folder);

sl::Value assert_module(Files& files);  // try_to does not catch refusals
sl::Value json_module();
sl::Value yaml_module();
sl::Value regexp_module();
sl::Value base64_module();  // hashes.cpp: base64, md5, sha256
sl::Value md5_module();
sl::Value sha256_module();
sl::Value url_module();  // url_ip.cpp: url, ip
sl::Value ip_module();
sl::Value math_module(Files& files);  // math.cpp (warns through `files`)
sl::Value version_module();           // version.cpp
sl::Value toml_module(Files& files);  // toml.cpp (a refusal is recorded in `files`)

// Helpers shared by the module files.
// "name: got N arguments, want M" when the count of positional arguments is outside
// [min, max] (max < 0: no upper bound), as starlark-go's argument unpacking words it.
std::optional<sl::Error> check_arg_count(const sl::Call& c, size_t min, int max);
// ytt's core.ErrWrapper: the builtin's name, then the message ("md5.sum: expected ...").
sl::Error ytt_fail(const sl::Call& c, std::string_view message);
// ytt's core.StarlarkValue.AsString: sets `out`, or returns "expected a string, but was T".
std::optional<sl::Error> want_string(const sl::Call& c, const sl::Value& v, std::string_view& out);
// What ytt's AsGoValue stops at first in `v`, walking it in order: a panic (ranges, functions,
// ints beyond 64 bits, ...) as ytt's ErrWrapper returns it ("(p) ..."), or a value's conversion
// hint ("Unable to convert value: ...", given the builtin's name `fn` first); else nullopt.
std::optional<sl::Error> go_value_panic(const sl::Value& v, std::string_view fn = {});
// ytt's YAML encoding of a Starlark value (`yaml.encode`, `assert.equals`).
sl::Result<std::string> yaml_text(const sl::Value& v);

}  // namespace hintkit::ytt
