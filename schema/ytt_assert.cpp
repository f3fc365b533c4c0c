// `@ytt:assert`: fail, equals, try_to, and the named-rule constructors (min, max, min_len,
// max_len, not_null, one_not_null, one_of). As in ytt, a constructor returns an assertion
// object (type "@ytt:assert.assertion") whose `.check(value)` fails with the rule's message.

#include "schema/ytt_modules.h"

namespace hintkit::schema {

namespace {

// The checks that compare or measure values are written in Starlark, so comparisons and `len`
// fail with the interpreter's own messages ("string >= int not implemented") as ytt's do.
constexpr std::string_view kChecks = R"(
def min(m):
  return lambda val: val >= m or fail("value < " + str(m))
end
def max(m):
  return lambda val: val <= m or fail("value > " + str(m))
end
def min_len(m):
  return lambda val: len(val) >= m or fail("length = " + str(len(val)))
end
def max_len(m):
  return lambda val: len(val) <= m or fail("length = " + str(len(val)))
end
def not_null():
  return lambda val: val != None or fail("value is null")
end
def one_of(vals):
  return lambda val: val in vals or fail("not one of allowed values")
end
)";

const sl::Program& checks_program() {
  static const sl::Program program = [] {
    auto p = sl::compile("@ytt:assert", kChecks);
    return p.ok() ? *p : sl::Program{};
  }();
  return program;
}

// Runs the Starlark constructor `name(args...)`, giving the check function.
sl::Result<sl::Value> make_check_fn(sl::Thread& thread, std::string_view name,
                                    std::vector<sl::Value> args) {
  const sl::Program& program = checks_program();
  if (!program.impl) return sl::fail_error("@ytt:assert: internal checks failed to compile");
  auto module = thread.exec(program);
  if (!module.ok()) return module.error();
  auto ctor = module->get(name);
  if (!ctor) return sl::fail_error("@ytt:assert: no check " + std::string(name));
  return thread.call(*ctor, args);
}

sl::Value assertion(sl::Value check) {
  return sl::make_struct("@ytt:assert.assertion", "assertion", {{"check", std::move(check)}});
}

sl::Value named_rule(std::string name, size_t want_args) {
  return sl::make_builtin("assert." + name,
                          [name, want_args](const sl::Call& c) -> sl::Result<sl::Value> {
                            if (auto e = check_arg_count(c, want_args, static_cast<int>(want_args)))
                              return *e;
                            auto fn = make_check_fn(c.thread, name, {c.args.begin(), c.args.end()});
                            if (!fn.ok()) return fn.error();
                            return assertion(*fn);
                          });
}

std::string prefixed(std::string_view prefix, const sl::Error& e) {
  return std::string(prefix) + ": " + e.message;
}

sl::Value one_not_null() {
  return sl::make_builtin("assert.one_not_null", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (auto e = check_arg_count(c, 0, 1)) return *e;
    std::optional<std::vector<sl::Value>> keys;
    if (!c.args.empty() && !c.args[0].is_none()) keys = c.args[0].items();
    auto check = sl::make_builtin("check", [keys](const sl::Call& k) -> sl::Result<sl::Value> {
      if (auto e = check_arg_count(k, 1, 1)) return *e;
      const sl::Value& v = k.args[0];
      std::vector<std::pair<sl::Value, sl::Value>> items;
      if (v.is(sl::Kind::kDict)) {
        items = v.dict_items();
      } else if (DPtr n = fragment_node(v); n && n->is_map()) {
        items = to_plain(n).dict_items();
      } else {
        return sl::fail_error("check: value must be a map or dict, but was '" +
                              std::string(v.type_name()) + "'");
      }
      auto lookup = [&](const sl::Value& key) -> sl::Value {
        for (const auto& [ik, iv] : items)
          if (ik == key) return iv;
        return sl::Value::none();
      };
      std::vector<sl::Value> set;
      if (keys) {
        for (const auto& key : *keys)
          if (!lookup(key).is_none()) set.push_back(key);
      } else {
        for (const auto& [ik, iv] : items)
          if (!iv.is_none()) set.push_back(ik);
      }
      if (set.empty()) return sl::fail_error("check: all values are null");
      if (set.size() > 1) {
        return sl::fail_error("check: " + sl::make_list(set).repr() + " are not null");
      }
      return sl::Value::from_bool(true);
    });
    return assertion(check);
  });
}

}  // namespace

sl::Value assert_module() {
  auto fail = sl::make_builtin("assert.fail", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (auto e = check_arg_count(c, 1, 1)) return *e;
    if (!c.args[0].is(sl::Kind::kString)) {
      return sl::fail_error("assert.fail: expected a string, but was " +
                            std::string(c.args[0].type_name()));
    }
    return sl::fail_error("assert.fail: fail: " + std::string(c.args[0].as_string()));
  });
  auto equals = sl::make_builtin("assert.equals", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (auto e = check_arg_count(c, 2, 2)) return *e;
    // ytt compares the YAML encodings, so a dict equals a yamlfragment of the same content
    std::string want = yaml_text(c.args[0]), got = yaml_text(c.args[1]);
    if (want == got) return sl::Value::none();
    return sl::fail_error(
        "assert.equals: Not equal:\n(expected type: " + std::string(c.args[0].type_name()) + ")\n" +
        want + "\n\n(was type: " + std::string(c.args[1].type_name()) + ")\n" + got);
  });
  auto try_to = sl::make_builtin("assert.try_to", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (auto e = check_arg_count(c, 1, 1)) return *e;
    if (!c.args[0].is(sl::Kind::kFunction) && !c.args[0].is(sl::Kind::kBuiltin)) {
      return sl::fail_error("assert.try_to: expected argument to be a function, but was " +
                            go_type_name(c.args[0]));
    }
    auto r = c.thread.call(c.args[0]);
    if (r.ok()) return sl::make_tuple({*r, sl::Value::none()});
    if (r.error().kind == sl::ErrorKind::kLimit) return r.error();  // runaway code stays fatal
    return sl::make_tuple({sl::Value::none(), sl::Value::from_string(r.error().message)});
  });
  auto not_null =
      sl::make_builtin("assert.not_null", [](const sl::Call& c) -> sl::Result<sl::Value> {
        if (auto e = check_arg_count(c, 0, 1)) return *e;
        auto fn = make_check_fn(c.thread, "not_null", {});
        if (!fn.ok()) return fn.error();
        if (c.args.empty()) return assertion(*fn);
        auto r = c.thread.call(*fn, c.args);
        if (!r.ok()) return sl::fail_error(prefixed("assert.not_null", r.error()));
        return sl::Value::from_bool(true);
      });
  auto one_of = sl::make_builtin("assert.one_of", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (auto e = check_arg_count(c, 1, -1)) return *e;
    sl::Value vals =
        c.args.size() == 1 ? c.args[0] : sl::make_tuple({c.args.begin(), c.args.end()});
    auto fn = make_check_fn(c.thread, "one_of", {vals});
    if (!fn.ok()) return fn.error();
    return assertion(*fn);
  });
  return sl::make_struct("module", "assert",
                         {{"equals", equals},
                          {"fail", fail},
                          {"max", named_rule("max", 1)},
                          {"max_len", named_rule("max_len", 1)},
                          {"min", named_rule("min", 1)},
                          {"min_len", named_rule("min_len", 1)},
                          {"not_null", not_null},
                          {"one_not_null", one_not_null()},
                          {"one_of", one_of},
                          {"try_to", try_to}});
}

}  // namespace hintkit::schema
