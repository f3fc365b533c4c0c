// `@ytt:assert`: fail, equals, try_to, and the named-rule constructors (min, max, min_len,
// max_len, not_null, one_not_null, one_of). As in ytt, a constructor returns an assertion
// object (type "@ytt:assert.assertion", a struct with `check`) whose `.check(value)` fails with
// the rule's message. Most checks are one-line Starlark lambdas compiled under the
// constructor's name ("assert.max"), so their failures show the frame ytt shows
// (`assert.max:1 | (unavailable)`) and comparisons fail with the interpreter's own messages.

#include <cmath>
#include <map>
#include <mutex>

#include "ytt/yttlibrary/yttlibrary.h"

namespace hintkit::ytt {

namespace {

sl::Value assertion(sl::Value check) {
  return sl::make_struct("@ytt:assert.assertion", "assertion", {{"check", std::move(check)}});
}

// An assertion whose check is the lambda `src`, evaluated with the names of `env` bound.
sl::Result<sl::Value> assertion_from_source(sl::Thread& thread, const std::string& name,
                                            std::string_view src, sl::Predeclared env) {
  static std::map<std::string, sl::Program> programs;  // by constructor: one source each
  static std::mutex mu;
  std::unique_lock lock(mu);
  auto it = programs.find(name);
  if (it == programs.end()) {
    sl::CompileOptions co;
    for (const auto& [n, v] : env) co.predeclared.push_back(n);
    auto prog = sl::compile(name, "__check = " + std::string(src), co);
    if (!prog.ok()) return sl::fail_error(name + ": internal check failed to compile");
    it = programs.emplace(name, *prog).first;
  }
  const sl::Program program = it->second;
  lock.unlock();
  auto module = thread.exec(program, env);
  if (!module.ok()) return module.error();
  auto check = module->get("__check");
  if (!check) return sl::fail_error(name + ": internal check missing");
  return assertion(*check);
}

// ytt's yaml.decode(yaml.encode(v)): the plain Starlark value a YAML round trip gives.
sl::Result<sl::Value> yaml_round_trip(sl::Thread& thread, const sl::Value& v) {
  static const sl::Value decode = *yaml_module().attr("decode");
  if (auto hint = conversion_hint(v)) return sl::fail_error(*hint);
  auto text = yaml_text(v);
  if (!text.ok()) return text.error();
  return thread.call(decode, std::vector<sl::Value>{sl::Value::from_string(text.value())});
}

bool is_callable(const sl::Value& v) {
  return v.is(sl::Kind::kFunction) || v.is(sl::Kind::kBuiltin);
}

bool is_sequence(const sl::Value& v) {
  return v.is(sl::Kind::kList) || v.is(sl::Kind::kTuple) || v.is(sl::Kind::kSet);
}

// min/max/one_of: the lambda of ytt's source, with `yaml` and the rule's value bound.
sl::Value value_rule(std::string rule, std::string var, std::string src) {
  return sl::make_builtin(
      "assert." + rule, [rule, var, src](const sl::Call& c) -> sl::Result<sl::Value> {
        if (auto e = check_arg_count(c, 1, 1)) return *e;
        return assertion_from_source(c.thread, "assert." + rule, src,
                                     {{var, c.args[0]}, {"yaml", yaml_module()}});
      });
}

// min_len/max_len: the bound must be a number (a float is truncated, as NumberToInt does).
sl::Value length_rule(std::string rule, std::string var, std::string src) {
  return sl::make_builtin(
      "assert." + rule, [rule, var, src](const sl::Call& c) -> sl::Result<sl::Value> {
        if (auto e = check_arg_count(c, 1, 1)) return *e;
        sl::Value bound = c.args[0];
        if (bound.is(sl::Kind::kFloat)) {
          const double d = bound.as_float();
          if (!std::isfinite(d) || std::fabs(d) >= 9.2e18) {
            return ytt_fail(c, "cannot convert float " + bound.repr() + " to integer");
          }
          bound = sl::Value::from_int(static_cast<int64_t>(d));
        } else if (!bound.is(sl::Kind::kInt)) {
          return ytt_fail(
              c, "expected value to be an number, but was " + std::string(bound.type_name()));
        }
        return assertion_from_source(c.thread, "assert." + rule, src, {{var, bound}});
      });
}

// one_not_null's check (a builtin, so its errors carry no prefix but the "check: " it writes).
sl::Value one_not_null_check(std::optional<sl::Value> keys) {
  return sl::make_builtin(
      "assert.one_not_null", [keys](const sl::Call& k) -> sl::Result<sl::Value> {
        if (k.args.size() != 1) {
          return sl::fail_error("check: got " + std::to_string(k.args.size()) +
                                " arguments, want 1");
        }
        auto val = yaml_round_trip(k.thread, k.args[0]);
        if (!val.ok()) return val.error();
        if (!val->is(sl::Kind::kDict)) {
          return sl::fail_error("check: value must be a map or dict, but was '" +
                                std::string(val->type_name()) + "'");
        }
        const auto items = val->dict_items();
        std::vector<sl::Value> to_check;
        if (!keys) {
          for (const auto& [ik, iv] : items) to_check.push_back(ik);
        } else {
          for (const auto& key : keys->items()) {
            auto kv = yaml_round_trip(k.thread, key);
            if (!kv.ok()) return kv.error();
            to_check.push_back(*kv);
          }
        }
        std::vector<sl::Value> not_nulls;
        for (const auto& key : to_check) {
          bool null = true;
          for (const auto& [ik, iv] : items) {
            if (ik == key) {
              null = iv.is_none();
              break;
            }
          }
          if (!null) not_nulls.push_back(key);
        }
        if (not_nulls.empty()) {
          return sl::fail_error(items.empty() ? "check: value is empty"
                                              : "check: all values are null");
        }
        if (not_nulls.size() > 1) {
          return sl::fail_error("check: " + sl::make_list(not_nulls).repr() + " are not null");
        }
        return sl::Value::from_bool(true);
      });
}

// ytt compares the YAML encodings, so a dict equals a yamlfragment of the same content.
sl::Result<sl::Value> equals(const sl::Call& c) {
  if (c.args.size() != 2) {
    return ytt_fail(c, "got " + std::to_string(c.args.size()) + " arguments, want 2");
  }
  for (const auto& v : c.args) {
    if (is_callable(v)) {
      return ytt_fail(c, "expected argument not to be a function, but was " + go_type_name(v));
    }
  }
  for (const auto& v : c.args) {
    if (auto hint = conversion_hint(v)) return ytt_fail(c, *hint);
  }
  auto want_text = yaml_text(c.args[0]), got_text = yaml_text(c.args[1]);
  if (!want_text.ok()) return ytt_fail(c, want_text.error().message);
  if (!got_text.ok()) return ytt_fail(c, got_text.error().message);
  const std::string &want = want_text.value(), &got = got_text.value();
  if (want == got) return sl::Value::none();
  return ytt_fail(c, "Not equal:\n(expected type: " + std::string(c.args[0].type_name()) + ")\n" +
                         want + "\n\n(was type: " + std::string(c.args[1].type_name()) + ")\n" +
                         got);
}

}  // namespace

sl::Value assert_module(Files& files) {
  auto fail = sl::make_builtin("assert.fail", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.size() != 1) {
      return ytt_fail(c, "got " + std::to_string(c.args.size()) + " arguments, want 1");
    }
    std::string_view msg;
    if (auto e = want_string(c, c.args[0], msg)) return *e;
    return ytt_fail(c, "fail: " + std::string(msg));
  });
  auto try_to =
      sl::make_builtin("assert.try_to", [&files](const sl::Call& c) -> sl::Result<sl::Value> {
        if (c.args.size() != 1) {
          return ytt_fail(c, "got " + std::to_string(c.args.size()) + " arguments, want 1");
        }
        if (!is_callable(c.args[0])) {
          return ytt_fail(c,
                          "expected argument to be a function, but was " + go_type_name(c.args[0]));
        }
        auto r = c.thread.call(c.args[0]);
        if (r.ok()) return sl::make_tuple({*r, sl::Value::none()});
        if (r.error().kind == sl::ErrorKind::kLimit) return r.error();  // runaway code stays fatal
        if (!files.unsupported.empty()) return r.error();  // so does what hintkit refuses
        // A Go panic in ytt: its message holds a Go backtrace hintkit cannot give (and one
        // outside an ErrWrapper'd builtin escapes try_to altogether).
        const std::string& m = r.error().message;
        if (m.rfind("(p) ", 0) == 0 || m.find(": (p) ") != std::string::npos) {
          files.unsupported = "assert.try_to of what makes ytt panic (" + m + ")";
          return r.error();
        }
        return sl::make_tuple({sl::Value::none(), sl::Value::from_string(m)});
      });
  auto not_null =
      sl::make_builtin("assert.not_null", [](const sl::Call& c) -> sl::Result<sl::Value> {
        if (c.args.size() > 1) {
          return ytt_fail(c, "got " + std::to_string(c.args.size()) + " arguments, want at most 1");
        }
        auto a =
            assertion_from_source(c.thread, "assert.not_null",
                                  R"(lambda value: value != None or fail("value is null"))", {});
        if (!a.ok() || c.args.empty()) return a;
        // the shorthand assert.not_null(value) checks at once
        auto r = c.thread.call(*a->attr("check"), c.args);
        if (!r.ok()) return ytt_fail(c, r.error().message);
        return r;
      });
  auto one_not_null =
      sl::make_builtin("assert.one_not_null", [](const sl::Call& c) -> sl::Result<sl::Value> {
        if (c.args.size() > 1) {
          return ytt_fail(c, "got " + std::to_string(c.args.size()) + " arguments, want 1");
        }
        if (c.args.empty()) return assertion(one_not_null_check(std::nullopt));
        const sl::Value& keys = c.args[0];
        if (keys.is(sl::Kind::kBool)) {
          if (keys.as_bool()) return assertion(one_not_null_check(std::nullopt));
          return ytt_fail(c, "one_not_null() cannot be False");
        }
        if (!is_sequence(keys) && !keys.is(sl::Kind::kDict)) {
          return ytt_fail(
              c, "expected a sequence of keys, but was a '" + std::string(keys.type_name()) + "'");
        }
        return assertion(one_not_null_check(keys));
      });
  auto one_of = sl::make_builtin("assert.one_of", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.empty()) return ytt_fail(c, "got 0 arguments, want at least 1");
    sl::Value vals =
        c.args.size() == 1 ? c.args[0] : sl::make_tuple({c.args.begin(), c.args.end()});
    if (!is_sequence(vals) && !vals.is(sl::Kind::kDict)) {
      return ytt_fail(c, "expected a sequence, but was a '" + std::string(vals.type_name()) + "'");
    }
    return assertion_from_source(
        c.thread, "assert.one_of",
        R"(lambda val: yaml.decode(yaml.encode(val)) in yaml.decode(yaml.encode(enum)) or fail("not one of allowed values"))",
        {{"enum", vals}, {"yaml", yaml_module()}});
  });
  return sl::make_struct(
      "module", "assert",
      {{"equals", sl::make_builtin("assert.equals", equals)},
       {"fail", fail},
       {"max",
        value_rule(
            "max", "max",
            R"(lambda val: yaml.decode(yaml.encode(val)) <= yaml.decode(yaml.encode(max)) or fail("value > {}".format(yaml.decode(yaml.encode(max)))))")},
       {"max_len",
        length_rule(
            "max_len", "maximum",
            R"(lambda sequence: True if len(sequence) <= maximum else fail ("length = {}".format(len(sequence))))")},
       {"min",
        value_rule(
            "min", "min",
            R"(lambda val: yaml.decode(yaml.encode(val)) >= yaml.decode(yaml.encode(min)) or fail("value < {}".format(yaml.decode(yaml.encode(min)))))")},
       {"min_len",
        length_rule(
            "min_len", "minimum",
            R"(lambda sequence: True if len(sequence) >= minimum else fail ("length = {}".format(len(sequence))))")},
       {"not_null", not_null},
       {"one_not_null", one_not_null},
       {"one_of", one_of},
       {"try_to", try_to}});
}

}  // namespace hintkit::ytt
