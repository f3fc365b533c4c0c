// The `@ytt:*` modules: the dispatcher `ytt_module()` plus struct, data, template and module.
// assert lives in assert.cpp; json, yaml and regexp in codec.cpp.
#include "diag/stack.h"
#include "ytt/yttlibrary/yttlibrary.h"

namespace hintkit::ytt {

std::optional<sl::Error> check_arg_count(const sl::Call& c, size_t min, int max) {
  size_t n = c.args.size();
  if (n >= min && (max < 0 || n <= static_cast<size_t>(max))) return std::nullopt;
  std::string want = max < 0                           ? "at least " + std::to_string(min)
                     : min == static_cast<size_t>(max) ? std::to_string(min)
                     : n < min                         ? "at least " + std::to_string(min)
                                                       : "at most " + std::to_string(max);
  return sl::fail_error(std::string(c.name) + ": got " + std::to_string(n) + " arguments, want " +
                        want);
}

sl::Error ytt_fail(const sl::Call& c, std::string_view message) {
  return sl::fail_error(std::string(c.name) + ": " + std::string(message));
}

std::optional<sl::Error> go_value_panic(const sl::Value& v, std::string_view fn) {
  auto why = unconvertible_to_yaml(v);
  if (!why) return std::nullopt;
  // A panic's text stands alone; an error (a value's conversion hint) is the builtin's.
  if (!fn.empty() && why->rfind("(p) ", 0) != 0)
    return sl::fail_error(std::string(fn) + ": " + *why);
  return sl::fail_error(*why);
}

std::optional<sl::Error> want_string(const sl::Call& c, const sl::Value& v, std::string_view& out) {
  if (!v.is(sl::Kind::kString)) {
    return ytt_fail(c, "expected a string, but was " + std::string(v.type_name()));
  }
  out = v.as_string();
  return std::nullopt;
}

namespace {

sl::Module module_of(std::vector<std::pair<std::string, sl::Value>> globals) {
  sl::Module m;
  m.globals_ = std::move(globals);
  return m;
}

sl::Value new_struct(std::vector<std::pair<std::string, sl::Value>> fields) {
  return sl::make_struct("struct", "struct", std::move(fields));
}

using Conversion = sl::Result<sl::Value> (*)(const sl::Value&, ValuePath&);

// A list, tuple or set through struct.encode/decode: Go slices, so every sequence comes back a
// list of its items converted by `convert`.
sl::Result<sl::Value> list_of_converted(const sl::Value& v, ValuePath& path, Conversion convert,
                                        std::string_view what) {
  if (!path.enter(v)) return sl::fail_error(std::string(what) + *path.error());
  std::vector<sl::Value> items;
  for (const auto& it : v.items()) {
    path.at("[" + std::to_string(items.size()) + "]");
    auto converted = convert(it, path);
    if (!converted.ok()) return converted;
    items.push_back(*converted);
  }
  path.leave();
  return sl::make_list(std::move(items));
}

sl::Result<sl::Value> decode_struct(const sl::Value& v, ValuePath& path);

// dict -> struct, recursively (lists and tuples become lists), as struct.encode does. ytt goes
// through its Go-value conversion, which never ends on a value that contains itself; `path`
// stops there with the conversion's error.
sl::Result<sl::Value> encode_struct(const sl::Value& v, ValuePath& path) {
  auto failed = [&] { return sl::fail_error("struct.encode: " + *path.error()); };
  switch (v.kind()) {
    case sl::Kind::kDict: {
      if (!path.enter(v)) return failed();
      std::vector<std::pair<std::string, sl::Value>> fields;
      for (const auto& [k, val] : v.dict_items()) {
        if (!k.is(sl::Kind::kString)) {  // ytt's GoValue panics on such a key
          return sl::fail_error("(p) expected struct key " + k.str() + " to be string");
        }
        path.at("[" + k.repr() + "]");
        auto e = encode_struct(val, path);
        if (!e.ok()) return e;
        fields.emplace_back(k.is(sl::Kind::kString) ? std::string(k.as_string()) : k.str(), *e);
      }
      path.leave();
      return new_struct(std::move(fields));
    }
    case sl::Kind::kList:
    case sl::Kind::kTuple:
    case sl::Kind::kSet:
      return list_of_converted(v, path, encode_struct, "struct.encode: ");
    case sl::Kind::kFunction:
    case sl::Kind::kBuiltin:
      return sl::fail_error("struct.encode: unknown type " + std::string(v.type_name()) +
                            " for conversion to go value");
    default:
      return v;
  }
}

// struct.encode/decode turn the Go value back into Starlark without the YAML conversion ytt's
// templates use: a YAML fragment anywhere inside (a map or array node) makes ytt panic.
// Each container is looked into once (`seen`), so values that contain themselves or share parts
// are walked in linear time.
std::optional<sl::Error> fragment_inside(const sl::Value& v, std::unordered_set<const void*>& seen,
                                         int depth = 0) {
  if (depth > kMaxValueDepth || diag::stack_exhausted()) return std::nullopt;
  const std::string go = go_value_type(v);
  if (go.rfind("*yamlmeta.", 0) == 0) {
    return sl::fail_error("(p) unknown type " + go + " for conversion to starlark value");
  }
  const bool container = v.is(sl::Kind::kDict) || v.is(sl::Kind::kStruct) ||
                         v.is(sl::Kind::kList) || v.is(sl::Kind::kTuple) || v.is(sl::Kind::kSet);
  if (container && !seen.insert(v.object()).second) return std::nullopt;
  switch (v.kind()) {
    case sl::Kind::kDict:
      for (const auto& [k, val] : v.dict_items()) {
        if (auto e = fragment_inside(k, seen, depth + 1)) return e;
        if (auto e = fragment_inside(val, seen, depth + 1)) return e;
      }
      return std::nullopt;
    case sl::Kind::kStruct:
      for (const auto& [name, field] : sl::struct_fields(v)) {
        if (auto e = fragment_inside(field, seen, depth + 1)) return e;
      }
      return std::nullopt;
    case sl::Kind::kList:
    case sl::Kind::kTuple:
    case sl::Kind::kSet:
      for (const auto& it : v.items()) {
        if (auto e = fragment_inside(it, seen, depth + 1)) return e;
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

// struct -> dict, recursively, as struct.decode does (through the same guard as encode).
sl::Result<sl::Value> decode_struct(const sl::Value& v, ValuePath& path) {
  auto failed = [&] { return sl::fail_error("struct.decode: " + *path.error()); };
  switch (v.kind()) {
    case sl::Kind::kStruct: {
      if (!path.enter(v)) return failed();
      std::vector<std::pair<sl::Value, sl::Value>> items;
      for (const auto& [k, val] : sl::struct_fields(v)) {  // in the order they were made
        path.at("." + k);
        auto d = decode_struct(val, path);
        if (!d.ok()) return d;
        items.emplace_back(sl::Value::from_string(k), *d);
      }
      path.leave();
      auto d = sl::make_dict(std::move(items));
      return d.ok() ? *d : sl::Value::none();
    }
    case sl::Kind::kList:
    case sl::Kind::kTuple:
    case sl::Kind::kSet:
      return list_of_converted(v, path, decode_struct, "struct.decode: ");
    case sl::Kind::kDict: {
      if (!path.enter(v)) return failed();
      std::vector<std::pair<sl::Value, sl::Value>> items;
      for (const auto& [k, val] : v.dict_items()) {
        path.at("[" + k.repr() + "]");
        auto d = decode_struct(val, path);
        if (!d.ok()) return d;
        items.emplace_back(k, *d);
      }
      path.leave();
      auto d = sl::make_dict(std::move(items));
      return d.ok() ? *d : sl::Value::none();
    }
    default:
      return v;
  }
}

sl::Value struct_module() {
  auto make = sl::make_builtin("struct.make", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (!c.args.empty()) {
      return sl::fail_error(
          "struct.make: unexpected positional arguments (structs are made from keyword "
          "arguments only)");
    }
    std::vector<std::pair<std::string, sl::Value>> fields;
    for (const auto& kw : c.kwargs) fields.emplace_back(std::string(kw.name), kw.value);
    return new_struct(std::move(fields));
  });
  // bind(fn, *args): fn with leading arguments fixed (ytt ignores keyword arguments here).
  auto bind_fn = [](sl::Value fn, std::vector<sl::Value> bound) {
    return sl::make_builtin("struct.bind_result",
                            [fn, bound](const sl::Call& c) -> sl::Result<sl::Value> {
                              std::vector<sl::Value> args = bound;
                              args.insert(args.end(), c.args.begin(), c.args.end());
                              auto r = c.thread.call(fn, args, c.kwargs);
                              if (!r.ok()) return ytt_fail(c, r.error().message);
                              return r;
                            });
  };
  auto bind =
      sl::make_builtin("struct.bind", [bind_fn](const sl::Call& c) -> sl::Result<sl::Value> {
        if (c.args.size() < 2) return ytt_fail(c, "expected at least two arguments");
        return bind_fn(c.args[0], {c.args.begin() + 1, c.args.end()});
      });
  // make_and_bind(obj, **fields): a struct whose callable fields get `obj` bound first.
  auto make_and_bind = sl::make_builtin(
      "struct.make_and_bind", [bind_fn](const sl::Call& c) -> sl::Result<sl::Value> {
        if (c.args.size() != 1) return ytt_fail(c, "expected at exactly one argument");
        std::vector<std::pair<std::string, sl::Value>> fields;
        for (const auto& kw : c.kwargs) {
          const bool callable = kw.value.is(sl::Kind::kFunction) || kw.value.is(sl::Kind::kBuiltin);
          fields.emplace_back(std::string(kw.name),
                              callable ? bind_fn(kw.value, {c.args[0]}) : kw.value);
        }
        return new_struct(std::move(fields));
      });
  auto encode = sl::make_builtin("struct.encode", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
    if (auto panic = go_value_panic(c.args[0], "struct.encode")) return *panic;
    if (std::unordered_set<const void*> seen; auto panic = fragment_inside(c.args[0], seen))
      return *panic;
    ValuePath path;
    return encode_struct(c.args[0], path);
  });
  auto decode = sl::make_builtin("struct.decode", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
    if (auto panic = go_value_panic(c.args[0], "struct.decode")) return *panic;
    if (std::unordered_set<const void*> seen; auto panic = fragment_inside(c.args[0], seen))
      return *panic;
    ValuePath path;
    return decode_struct(c.args[0], path);
  });
  return sl::make_struct("module", "struct",
                         {{"bind", bind},
                          {"decode", decode},
                          {"encode", encode},
                          {"make", make},
                          {"make_and_bind", make_and_bind}});
}

namespace {

// Paths from '/' start at the root of the library the module was loaded in, whenever the
// functions run (a library file's function may be called from its caller's files).
class RootedAt {
 public:
  RootedAt(Files& files, const std::string& root) : files_(files), saved_(files.library_root) {
    files_.library_root = root;
  }
  ~RootedAt() { files_.library_root = saved_; }

 private:
  Files& files_;
  std::string saved_;
};

}  // namespace

// data.read / data.list see the file set from the folder of the file that loaded the module.
sl::Value data_module(Files& files, const std::string& folder) {
  const std::string root = files.library_root;
  auto own_values = [&files] {
    return files.data_values ? to_struct_value(files.data_values) : new_struct({});
  };
  sl::Value values;
  if (files.running_data_values.empty()) {
    values = own_values();
  } else {
    std::optional<sl::Value>& mine = files.running_data_values.back();
    if (!mine) mine = own_values();
    values = *mine;
  }
  auto read = sl::make_builtin(
      "data.read", [&files, folder, root](const sl::Call& c) -> sl::Result<sl::Value> {
        RootedAt rooted(files, root);
        if (c.args.size() != 1) return sl::fail_error("data.read: expected exactly one argument");
        if (!c.args[0].is(sl::Kind::kString)) {
          return sl::fail_error("data.read: expected a string, but was " +
                                std::string(c.args[0].type_name()));
        }
        std::string error;
        const SourceFile* f = find_file_from(files, folder, c.args[0].as_string(), error);
        if (!f) return sl::fail_error("data.read: " + error);
        if (!f->read_error.empty()) return sl::fail_error("data.read: " + f->read_error);
        return sl::Value::from_string(f->text());
      });
  auto list = sl::make_builtin(
      "data.list", [&files, folder, root](const sl::Call& c) -> sl::Result<sl::Value> {
        RootedAt rooted(files, root);
        if (c.args.size() > 1) {
          return sl::fail_error("data.list: expected exactly zero or one argument");
        }
        std::string_view path;
        if (c.args.size() == 1) {
          if (!c.args[0].is(sl::Kind::kString)) {
            return sl::fail_error("data.list: expected a string, but was " +
                                  std::string(c.args[0].type_name()));
          }
          path = c.args[0].as_string();
        }
        std::string error;
        auto paths = list_files_from(files, folder, path, error);
        if (!error.empty()) return sl::fail_error("data.list: " + error);
        std::vector<sl::Value> out;
        for (const auto& p : paths) out.push_back(sl::Value::from_string(p));
        return sl::make_list(std::move(out));
      });
  return sl::make_struct("module", "data", {{"list", list}, {"read", read}, {"values", values}});
}

// @ytt:template: `replace` acts on the evaluation of the file that loads the module.
sl::Value template_module(Files& files) {
  sl::Value replace;
  if (!files.running.empty()) {
    if (auto it = files.template_replace.find(files.running.back());
        it != files.template_replace.end()) {
      replace = it->second;
    }
  }
  if (replace.is(sl::Kind::kNone)) {
    // ytt panics when a .star file calls it (that file has no evaluation context).
    replace =
        sl::make_builtin("template.replace", [&files](const sl::Call&) -> sl::Result<sl::Value> {
          files.unsupported = "template.replace called from a .star file";
          return sl::fail_error("template.replace: " + files.unsupported);
        });
  }
  return sl::make_struct("module", "template", {{"replace", replace}});
}

// @ytt:module: make(name, **members) builds a module value (starlarkstruct.MakeModule).
sl::Value module_module() {
  auto make = sl::make_builtin("module.make", [](const sl::Call& c) -> sl::Result<sl::Value> {
    const std::string fn = "module.make: module.make";  // ErrWrapper, then the unpacking
    if (c.args.size() != 1) {
      return sl::fail_error(fn + ": got " + std::to_string(c.args.size()) + " arguments, want 1");
    }
    if (!c.args[0].is(sl::Kind::kString)) {
      return sl::fail_error(fn + ": for parameter 1: got " + std::string(c.args[0].type_name()) +
                            ", want string");
    }
    std::vector<std::pair<std::string, sl::Value>> members;
    for (const auto& kw : c.kwargs) members.emplace_back(std::string(kw.name), kw.value);
    return sl::make_struct("module", std::string(c.args[0].as_string()), std::move(members));
  });
  return sl::make_struct("module", "module", {{"make", make}});
}

// What a module builder may need: the file set and the loading file's folder.
struct ModuleContext {
  Files& files;
  const std::string& folder;
};

struct ModuleEntry {
  std::string_view name;  // after "@ytt:"
  sl::Value (*build)(const ModuleContext&);
};

// ytt v0.48.0's standard library (pkg/yttlibrary/all.go and the toml extension).
const ModuleEntry kModules[] = {
    {"assert", [](const ModuleContext& c) { return assert_module(c.files); }},
    {"base64", [](const ModuleContext&) { return base64_module(); }},
    {"data", [](const ModuleContext& c) { return data_module(c.files, c.folder); }},
    {"ip", [](const ModuleContext&) { return ip_module(); }},
    {"json", [](const ModuleContext&) { return json_module(); }},
    {"math", [](const ModuleContext& c) { return math_module(c.files); }},
    {"md5", [](const ModuleContext&) { return md5_module(); }},
    {"module", [](const ModuleContext&) { return module_module(); }},
    {"overlay", [](const ModuleContext& c) { return overlay_module(c.files); }},
    {"regexp", [](const ModuleContext&) { return regexp_module(); }},
    {"sha256", [](const ModuleContext&) { return sha256_module(); }},
    {"struct", [](const ModuleContext&) { return struct_module(); }},
    {"template", [](const ModuleContext& c) { return template_module(c.files); }},
    {"toml", [](const ModuleContext& c) { return toml_module(c.files); }},
    {"url", [](const ModuleContext&) { return url_module(); }},
    {"version", [](const ModuleContext&) { return version_module(); }},
    {"yaml", [](const ModuleContext&) { return yaml_module(); }},
};

// ytt modules hintkit does not implement: loading one is refused (exit 2), not "no such module".
constexpr std::string_view kUnsupportedModules[] = {"library"};

}  // namespace

std::optional<sl::Module> ytt_module(Files& files, std::string_view name,
                                     const std::string& folder) {
  for (const auto& m : kModules) {
    if (m.name == name) return module_of({{std::string(name), m.build({files, folder})}});
  }
  if (name == "library" && files.library_module) {
    return module_of({{"library", files.library_module(folder)}});
  }
  for (auto u : kUnsupportedModules) {
    if (u == name) files.unsupported = "the @ytt:" + std::string(name) + " module";
  }
  return std::nullopt;
}

}  // namespace hintkit::ytt
