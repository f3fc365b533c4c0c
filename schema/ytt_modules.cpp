// The `@ytt:*` modules schema files use: data, assert, struct, overlay.
#include "schema/internal.h"

namespace hintkit::schema {

namespace {

sl::Module module_of(std::vector<std::pair<std::string, sl::Value>> globals) {
  sl::Module m;
  m.globals_ = std::move(globals);
  return m;
}

sl::Value struct_make() {
  return sl::make_builtin("struct.make", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (!c.args.empty()) return sl::fail_error("make: unexpected positional arguments");
    std::vector<std::pair<std::string, sl::Value>> fields;
    for (const auto& kw : c.kwargs) fields.emplace_back(std::string(kw.name), kw.value);
    return sl::make_struct("struct", "struct", std::move(fields));
  });
}

// assert.min_len(n) etc: a callable that fails with ytt's "found" text.
sl::Value assertion(std::string name, std::function<std::optional<std::string>(const sl::Value&, const sl::Value&)> check) {
  return sl::make_builtin("assert." + name, [name, check](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.empty()) return sl::fail_error("expected one argument");
    sl::Value arg = c.args.size() == 1 ? c.args[0] : sl::make_tuple({c.args.begin(), c.args.end()});
    return sl::make_builtin("assert." + name, [arg, check](const sl::Call& c2) -> sl::Result<sl::Value> {
      if (c2.args.size() != 1) return sl::fail_error("expected one argument");
      if (auto msg = check(c2.args[0], arg)) return sl::fail_error(*msg);
      return sl::Value::from_bool(true);
    });
  });
}

}  // namespace

std::optional<sl::Module> ytt_module(Files& files, std::string_view name) {
  if (name == "@ytt:struct") {
    return module_of({{"struct", sl::make_struct("module", "struct", {{"make", struct_make()}})}});
  }
  if (name == "@ytt:data") {
    sl::Value values = files.data_values ? *files.data_values : sl::make_struct("struct", "struct", {});
    return module_of({{"data", sl::make_struct("module", "data", {{"values", values}})}});
  }
  if (name == "@ytt:assert") {
    auto fail = sl::make_builtin("assert.fail", [](const sl::Call& c) -> sl::Result<sl::Value> {
      std::string msg;
      for (size_t i = 0; i < c.args.size(); ++i) msg += (i ? " " : "") + (c.args[i].is(sl::Kind::kString) ? std::string(c.args[i].as_string()) : c.args[i].str());
      return sl::fail_error(msg);
    });
    auto len_of = [](const sl::Value& v) -> std::optional<int64_t> {
      switch (v.kind()) {
        case sl::Kind::kString: case sl::Kind::kList: case sl::Kind::kTuple: case sl::Kind::kDict:
        case sl::Kind::kSet: case sl::Kind::kHost: return static_cast<int64_t>(v.len());
        default: return std::nullopt;
      }
    };
    auto min_len = assertion("min_len", [len_of](const sl::Value& v, const sl::Value& n) -> std::optional<std::string> {
      auto l = len_of(v);
      if (l && *l < n.to_int64().value_or(0)) return "length = " + std::to_string(*l);
      return std::nullopt;
    });
    auto max_len = assertion("max_len", [len_of](const sl::Value& v, const sl::Value& n) -> std::optional<std::string> {
      auto l = len_of(v);
      if (l && *l > n.to_int64().value_or(0)) return "length = " + std::to_string(*l);
      return std::nullopt;
    });
    // -1 / 0 / 1 for numbers or strings; nullopt when they do not compare
    auto compare = [](const sl::Value& a, const sl::Value& b) -> std::optional<int> {
      if (a.is(sl::Kind::kString) && b.is(sl::Kind::kString)) {
        int c = a.as_string().compare(b.as_string());
        return c < 0 ? -1 : c > 0 ? 1 : 0;
      }
      auto x = a.to_double(), y = b.to_double();
      if (!x || !y || a.is_bool() || b.is_bool()) return std::nullopt;
      return *x < *y ? -1 : *x > *y ? 1 : 0;
    };
    auto min = assertion("min", [compare](const sl::Value& v, const sl::Value& n) -> std::optional<std::string> {
      auto c = compare(v, n);
      if (c && *c < 0) return "value < " + n.str();
      return std::nullopt;
    });
    auto max = assertion("max", [compare](const sl::Value& v, const sl::Value& n) -> std::optional<std::string> {
      auto c = compare(v, n);
      if (c && *c > 0) return "value > " + n.str();
      return std::nullopt;
    });
    auto one_of = assertion("one_of", [](const sl::Value& v, const sl::Value& l) -> std::optional<std::string> {
      for (const auto& x : l.items())
        if (x == v) return std::nullopt;
      return std::string("not one of allowed values");
    });
    auto not_null = sl::make_builtin("assert.not_null", [](const sl::Call& c) -> sl::Result<sl::Value> {
      if (c.args.empty()) {
        return sl::make_builtin("assert.not_null", [](const sl::Call& c2) -> sl::Result<sl::Value> {
          if (!c2.args.empty() && c2.args[0].is_none()) return sl::fail_error("fail: value is null");
          return sl::Value::from_bool(true);
        });
      }
      if (c.args[0].is_none()) return sl::fail_error("assert.not_null: fail: value is null");
      return sl::Value::from_bool(true);
    });
    auto try_to = sl::make_builtin("assert.try_to", [](const sl::Call& c) -> sl::Result<sl::Value> {
      if (c.args.size() != 1) return sl::fail_error("expected one argument");
      auto r = c.thread.call(c.args[0]);
      if (r.ok()) return sl::make_tuple({*r, sl::Value::none()});
      return sl::make_tuple({sl::Value::none(), sl::Value::from_string(r.error().message)});
    });
    return module_of({{"assert", sl::make_struct("module", "assert",
                                                 {{"fail", fail}, {"max", max}, {"max_len", max_len},
                                                  {"min", min}, {"min_len", min_len},
                                                  {"not_null", not_null}, {"one_of", one_of},
                                                  {"try_to", try_to}})}});
  }
  if (name == "@ytt:overlay") {
    auto subset = sl::make_builtin("overlay.subset", [](const sl::Call& c) -> sl::Result<sl::Value> {
      if (c.args.size() != 1) return sl::fail_error("overlay.subset: expected one argument");
      sl::Value want = c.args[0];
      return sl::make_builtin("overlay.subset.matcher", [want](const sl::Call& c2) -> sl::Result<sl::Value> {
        if (c2.args.size() < 2) return sl::fail_error("expected 3 arguments");
        DPtr l = from_starlark(c2.args[1], {});
        DPtr w = from_starlark(want, {});
        if (w->is_map() && l->is_map()) {
          for (const auto& e : w->entries) {
            DEntry* le = l->find(key_text(e.key));
            if (!le || !yaml::equal(to_yaml(*le->value), to_yaml(*e.value))) return sl::Value::from_bool(false);
          }
          return sl::Value::from_bool(true);
        }
        return sl::Value::from_bool(yaml::equal(to_yaml(*l), to_yaml(*w)));
      });
    });
    auto index = sl::make_builtin("overlay.index", [](const sl::Call& c) -> sl::Result<sl::Value> {
      int64_t want = c.args.empty() ? 0 : c.args[0].to_int64().value_or(0);
      return sl::make_builtin("overlay.index.matcher", [want](const sl::Call& c2) -> sl::Result<sl::Value> {
        return sl::Value::from_bool(!c2.args.empty() && c2.args[0].to_int64() == want);
      });
    });
    auto all = sl::make_builtin("overlay.all", [](const sl::Call&) -> sl::Result<sl::Value> {
      return sl::Value::from_bool(true);
    });
    auto map_key = sl::make_builtin("overlay.map_key", [](const sl::Call& c) -> sl::Result<sl::Value> {
      if (c.args.empty()) return sl::fail_error("overlay.map_key: expected one argument");
      return c.args[0];
    });
    return module_of({{"overlay", sl::make_struct("module", "overlay",
                                                  {{"subset", subset}, {"index", index},
                                                   {"all", all}, {"map_key", map_key}})}});
  }
  return std::nullopt;
}

}  // namespace hintkit::schema
