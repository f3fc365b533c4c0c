// Validations: `@schema/validation` rules run over the final data values in pre-order, named
// rules in ytt's fixed order (not_null first, then custom rules, min_len, max_len, min, max,
// one_not_null, one_of), `when=` predicates with `(v)` or `(v, ctx)`.
#include <algorithm>
#include <cmath>
#include <optional>

#include "ytt/template/template.h"
#include "ytt/validations/validations.h"

namespace hintkit::ytt {

namespace {
// Starlark's type name of a YAML scalar as ytt decodes it.
std::string_view starlark_scalar_type(yaml::Kind k) {
  switch (k) {
    case yaml::Kind::kString:
      return "string";
    case yaml::Kind::kInt:
      return "int";
    case yaml::Kind::kFloat:
      return "float";
    case yaml::Kind::kBool:
      return "bool";
    default:
      return "NoneType";
  }
}
}  // namespace

namespace {

const char* kHelpers =
    "def ge(a, b):\n  return a >= b\nend\n"
    "def le(a, b):\n  return a <= b\nend\n"
    "def length(v):\n  return len(v)\nend\n"
    "def contains(l, v):\n  return v in l\nend\n";

struct Helpers {
  sl::Value ge, le, length, contains;
};

// ytt's validate.go: a rule's error is shown without a leading "fail: ", then without a
// leading "check: " (assertion objects' check functions say so).
std::string strip_fail(std::string m) {
  if (m.rfind("fail: ", 0) == 0) m = m.substr(6);
  if (m.rfind("check: ", 0) == 0) m = m.substr(7);
  return m;
}

// ---- Native answers for the named rules ------------------------------------------------------
// The rules are defined by the Starlark helpers above; for the common cases (numbers against
// numbers, lengths of strings and collections, a string in a list of strings) the answer is
// computed here instead, which is the same and saves a Starlark call per rule per value. Any
// other case, including every one that fails, still goes through the helpers, so messages stay
// exactly Starlark's.

struct Number {
  bool is_int = true;
  int64_t i = 0;
  double f = 0.0;
};

std::optional<Number> number_of(const DNode& v) {
  if (v.kind == yaml::Kind::kInt && !v.scalar.is_unsigned) return Number{true, v.scalar.int_value};
  if (v.kind == yaml::Kind::kFloat && !std::isnan(v.scalar.float_value))
    return Number{false, 0, v.scalar.float_value};
  return std::nullopt;
}

std::optional<Number> number_of(const sl::Value& v) {
  if (v.is_small_int()) return Number{true, v.as_small_int()};
  if (v.is_float() && !std::isnan(v.as_float())) return Number{false, 0, v.as_float()};
  return std::nullopt;
}

// a >= b, when both are ints or both are floats (mixed kinds compare exactly in Starlark).
std::optional<bool> native_ge(const std::optional<Number>& a, const std::optional<Number>& b) {
  if (!a || !b || a->is_int != b->is_int) return std::nullopt;
  return a->is_int ? a->i >= b->i : a->f >= b->f;
}

// len(v) for strings (bytes, as Starlark counts), maps and arrays.
std::optional<int64_t> native_length(const DNode& v) {
  if (v.kind == yaml::Kind::kString) return static_cast<int64_t>(v.scalar.text.size());
  if (v.is_map() || v.is_array()) return static_cast<int64_t>(v.entries.size());
  return std::nullopt;
}

// v in allowed, for a string v and a list or tuple of strings.
std::optional<bool> native_one_of(const DNode& v, const sl::Value& allowed) {
  if (v.kind != yaml::Kind::kString ||
      !(allowed.is(sl::Kind::kList) || allowed.is(sl::Kind::kTuple)))
    return std::nullopt;
  bool found = false;
  for (const sl::Value& item : allowed.items()) {
    if (!item.is(sl::Kind::kString)) return std::nullopt;
    found = found || item.as_string() == v.scalar.text;
  }
  return found;
}

struct Failure {
  std::string must_be;
  std::optional<std::string> found;
  diag::Span by;
};

class Validator {
 public:
  Validator(sl::Thread& t, const Files& files) : thread_(t), files_(files) {}

  sl::Result<sl::Value> call(const sl::Value& f, std::vector<sl::Value> args) {
    auto r = thread_.call(f, args);
    // ytt runs rules outside any recover: such a panic ends ytt itself with a Go stack trace
    if (!r.ok() && r.error().go_panic) throw Unsupported{"a rule that makes ytt panic"};
    return r;
  }

  // Pre-order over the values (ytt's WalkWithParent): each node's schema rule, then the
  // `@assert/validate` rules that stayed on it through the overlays. `t` is null below an
  // `any` type or without a schema. The data path is kept as steps, spelled only for messages.
  void walk(const DPtr& v, const TypeRules* t, const diag::Span& from, const DPtr& parent,
            const DPtr& root, const std::vector<Ann>* own = nullptr) {
    if (const Ann* rule = t ? t->rule() : nullptr) run_rules(v, *rule, from, parent, root);
    if (own) {
      for (const auto& a : *own)
        if (a.name == "assert/validate") run_rules(v, a, from, parent, root);
    }
    if (t && t->accepts_any()) t = nullptr;
    if (v->is_map()) {
      for (const auto& e : v->entries) {
        const TypeRules* ft = t ? t->field_rules(e.key) : nullptr;
        steps_.push_back({&e.key, 0});
        walk(e.value, ft, e.span, v, root, &e.anns.get());
        steps_.pop_back();
      }
    } else if (v->is_array()) {
      const TypeRules* it = t ? t->item_rules() : nullptr;
      for (size_t i = 0; i < v->entries.size(); ++i) {
        const auto& e = v->entries[i];
        steps_.push_back({nullptr, i});
        walk(e.value, it, e.span, v, root, &e.anns.get());
        steps_.pop_back();
      }
    }
  }

  // ytt checks every `@assert/validate` of the final values before it runs any rule.
  static void check_assert_annotations(const DNode& v) {
    for (const auto& e : v.entries) {
      if (const Ann* a = find_ann(e.anns.get(), "assert/validate")) {
        if (auto problem = validation_args_problem(*a)) {
          throw YttError{"Invalid @assert/validate annotation - " + *problem};
        }
      }
      check_assert_annotations(*e.value);
    }
  }

  // "(document)", "a.b[2].c": how ytt names the value being validated.
  std::string path_name() const {
    std::string out;
    for (const Step& s : steps_) {
      if (s.key) {
        if (!out.empty()) out += '.';
        out += go_key_text(*s.key);
      } else {
        out += '[' + std::to_string(s.index) + ']';
      }
    }
    return out.empty() ? "(document)" : out;
  }

  // ytt's `when=`: called with (value) or (value, ctx) by how many parameters it declares.
  bool when_holds(const sl::Value& when, const sl::Value& val, const DPtr& parent,
                  const DPtr& root) {
    auto sig = sl::signature(when);
    if (!sig) throw Unsupported{"a `when=` that is not a def or lambda"};
    const int params = static_cast<int>(sig->names.size()) + (sig->has_varargs ? 1 : 0) +
                       (sig->has_kwargs ? 1 : 0);
    std::vector<sl::Value> args = {val};
    if (params == 2) {
      args.push_back(sl::make_struct("struct", "struct",
                                     {{"parent", parent ? to_starlark(parent) : sl::Value::none()},
                                      {"root", to_starlark(root)}}));
    } else if (params != 1) {
      throw YttError{"Validating " + path_name() +
                     ": Failed to evaluate when=: function must accept 1 or 2 arguments (" +
                     std::to_string(params) + " given)"};
    }
    auto r = call(when, args);
    if (!r.ok()) {
      throw YttError{"Validating " + path_name() +
                     ": Failure evaluating when=: " + r.error().message};
    }
    if (!r->is_bool()) {
      throw YttError{"Validating " + path_name() + ": want when= to be bool, got " +
                     std::string(r->type_name())};
    }
    return r->as_bool();
  }

  void run_rules(const DPtr& v, const Ann& a, const diag::Span& from, const DPtr& parent,
                 const DPtr& root) {
    // The value as rules see it, made only when a rule needs it.
    std::optional<sl::Value> val_cache, plain_cache;
    auto val_of = [&]() -> const sl::Value& {
      if (!val_cache) val_cache = to_starlark(v);
      return *val_cache;
    };
    auto plain_of = [&]() -> const sl::Value& {
      if (!plain_cache) plain_cache = to_plain(v);
      return *plain_cache;
    };
    const sl::Value* not_null = a.kwarg("not_null");
    const bool nn = not_null && not_null->truth();
    if (v->is_null() && !nn) return;  // ytt: rules see null values only under not_null=True
    if (const sl::Value* when = a.kwarg("when")) {
      if (!when_holds(*when, val_of(), parent, root)) return;
    }
    std::vector<Failure> fails;
    if (v->is_null()) {
      fails.push_back({"not null", "value is null", a.span});
      report(path_name(), from, fails);
      return;
    }
    for (const auto& rule : a.args) {
      auto items = rule.items();
      if (items.size() < 2) continue;
      std::string desc =
          items[0].is(sl::Kind::kString) ? std::string(items[0].as_string()) : items[0].str();
      // an assertion object (@ytt:assert) is called through its `check`
      const sl::Value fn =
          items[1].is(sl::Kind::kStruct) ? items[1].attr("check").value_or(items[1]) : items[1];
      auto r = call(fn, {val_of()});
      if (!r.ok()) {
        fails.push_back({desc, strip_fail(r.error().message), a.span});
      } else if (!(r->is_bool() && r->as_bool())) {
        fails.push_back({desc, std::nullopt, a.span});
      }
    }
    auto len_rule = [&](const char* kw, bool min) {
      const sl::Value* given = a.kwarg(kw);
      if (!given) return;
      // newValidationKwargs reads the bound with starlark.NumberToInt: a float counts as its
      // integer part (validation_args_problem refused anything else).
      const sl::Value bound_int = given->is(sl::Kind::kFloat)
                                      ? sl::int_from_float(given->as_float()).value_or(*given)
                                      : *given;
      const sl::Value* n = &bound_int;
      std::string must = std::string("length ") + (min ? ">= " : "<= ") + n->str();
      if (auto len = native_length(*v)) {
        std::optional<Number> have = Number{true, *len}, bound = number_of(*n);
        if (auto ok = min ? native_ge(have, bound) : native_ge(bound, have)) {
          if (!*ok) fails.push_back({must, "length = " + std::to_string(*len), a.span});
          return;
        }
      }
      auto lr = call(helpers().length, {plain_of()});
      if (!lr.ok()) {
        fails.push_back({must, lr.error().message, a.span});
        return;
      }
      auto cmp = call(min ? helpers().ge : helpers().le, {*lr, *n});
      if (cmp.ok() && !cmp->truth()) fails.push_back({must, "length = " + lr->str(), a.span});
    };
    len_rule("min_len", true);
    len_rule("max_len", false);
    auto cmp_rule = [&](const char* kw, bool min) {
      const sl::Value* n = a.kwarg(kw);
      if (!n) return;
      std::string must = std::string("a value ") + (min ? ">= " : "<= ") + n->repr();
      std::optional<Number> have = number_of(*v), bound = number_of(*n);
      if (auto ok = min ? native_ge(have, bound) : native_ge(bound, have)) {
        if (!*ok)
          fails.push_back({must, std::string("value ") + (min ? "< " : "> ") + n->str(), a.span});
        return;
      }
      // ytt compares yaml.decode(yaml.encode(value)), which is None for an empty map or array.
      const bool empty = (v->is_map() || v->is_array()) && v->entries.empty();
      auto cmp =
          call(min ? helpers().ge : helpers().le, {empty ? sl::Value::none() : plain_of(), *n});
      if (!cmp.ok()) {
        fails.push_back({must, cmp.error().message, a.span});
      } else if (!cmp->truth()) {
        fails.push_back({must, std::string("value ") + (min ? "< " : "> ") + n->str(), a.span});
      }
    };
    cmp_rule("min", true);
    cmp_rule("max", false);
    if (const sl::Value* onn = a.kwarg("one_not_null")) {
      std::vector<std::string> keys;
      bool all = onn->is_bool();
      std::string must;
      if (all) {
        must = "exactly one of all children to be not null";
      } else {
        for (const auto& k : onn->items())
          keys.push_back(k.is(sl::Kind::kString) ? std::string(k.as_string()) : k.str());
        must = "exactly one of " + onn->repr() + " to be not null";
      }
      if (!(all && !onn->as_bool())) {
        if (!v->is_map() || v->entries.empty()) {
          // ytt looks at the value after a YAML round trip: an empty map or array is None.
          std::string_view type = "NoneType";
          if (v->is_array() && !v->entries.empty()) type = "list";
          if (v->is_scalar()) type = starlark_scalar_type(v->kind);
          fails.push_back(
              {must, "value must be a map or dict, but was '" + std::string(type) + "'", a.span});
        } else {
          std::vector<std::string> not_null_keys;
          for (const auto& e : v->entries) {
            bool counted = all;
            if (!all) {
              for (const auto& k : keys)
                if (e.key.kind == yaml::Kind::kString && e.key.text == k) counted = true;
            }
            if (counted && !e.value->is_null()) not_null_keys.push_back(key_text(e.key));
          }
          if (not_null_keys.empty()) {
            fails.push_back({must, "all values are null", a.span});
          } else if (not_null_keys.size() > 1) {
            std::string list = "[";
            for (size_t i = 0; i < not_null_keys.size(); ++i)
              list += (i ? ", \"" : "\"") + not_null_keys[i] + "\"";
            fails.push_back({must, list + "] are not null", a.span});
          }
        }
      }
    }
    if (const sl::Value* one_of = a.kwarg("one_of")) {
      std::string must = "one of " + one_of->repr();
      if (auto in = native_one_of(*v, *one_of)) {
        if (!*in) fails.push_back({must, "not one of allowed values", a.span});
      } else if (auto r = call(helpers().contains, {*one_of, plain_of()}); !r.ok()) {
        fails.push_back({must, r.error().message, a.span});
      } else if (!r->truth()) {
        fails.push_back({must, "not one of allowed values", a.span});
      }
    }
    if (!fails.empty()) report(path_name(), from, fails);
  }

  void report(const std::string& name, const diag::Span& from, const std::vector<Failure>& fails) {
    out_ += "  " + name + "\n    from: " + label(from) + "\n";
    for (const auto& f : fails) {
      out_ += "    - must be: " + f.must_be + " (by: " + pos_text(f.by) + ")\n";
      if (f.found && !f.found->empty())
        out_ += "      found: " + *f.found + "\n";  // as ytt: only a non-empty result
    }
    out_ += "\n";
    // The same as one problem at the value, its rules where they are declared.
    Problem p{place_of(files_, from), name};
    for (size_t i = 0; i < fails.size(); ++i) {
      const Failure& f = fails[i];
      p.message += (i ? "; must be: " : " must be: ") + f.must_be;
      if (f.found && !f.found->empty()) p.message += " (found: " + *f.found + ")";
      if (ErrorPlace by = place_of(files_, f.by); by.line > 0) {
        p.related.push_back({by, "rule: " + f.must_be});
      }
    }
    problems_.push_back(std::move(p));
  }

  std::string label(const diag::Span& s) { return compact_position(files_, s); }

  std::string out_;
  std::vector<Problem> problems_;

 private:
  struct Step {
    const Scalar* key;  // map items; null for array items
    size_t index;
  };
  std::vector<Step> steps_;
  sl::Thread& thread_;
  const Files& files_;
  // The helpers run on this thread, made when a rule first needs them (most values have no
  // rule that does); the program is compiled once per OS thread.
  const Helpers& helpers() {
    if (!h_) {
      thread_local const std::optional<sl::Program> program = [] {
        auto prog = sl::compile("<validations>", kHelpers);
        return prog.ok() ? std::optional<sl::Program>(*prog) : std::nullopt;
      }();
      Helpers h;
      if (program) {
        if (auto m = thread_.exec(*program); m.ok())
          h = Helpers{*m->get("ge"), *m->get("le"), *m->get("length"), *m->get("contains")};
      }
      h_ = std::move(h);
    }
    return *h_;
  }

  std::optional<Helpers> h_;
};

}  // namespace

namespace {

// starlark-go's Sequence: iterable with a length.
bool is_sequence(const sl::Value& v) {
  return v.is(sl::Kind::kList) || v.is(sl::Kind::kTuple) || v.is(sl::Kind::kDict) ||
         v.is(sl::Kind::kSet);
}

// starlark-go's HasAttrs among the values an annotation can hold.
bool has_attrs(const sl::Value& v) {
  return v.is(sl::Kind::kString) || v.is(sl::Kind::kList) || v.is(sl::Kind::kDict) ||
         v.is(sl::Kind::kSet) || v.is(sl::Kind::kStruct) || v.is(sl::Kind::kHost);
}

bool is_callable(const sl::Value& v) {
  return v.is(sl::Kind::kFunction) || v.is(sl::Kind::kBuiltin);
}

// starlark.NumberToInt: an int, or a finite float.
bool number_to_int_ok(const sl::Value& v) {
  return v.is(sl::Kind::kInt) || (v.is(sl::Kind::kFloat) && std::isfinite(v.as_float()));
}

}  // namespace

// ytt's NewValidationFromAnn and newValidationKwargs, check by check.
std::optional<std::string> validation_args_problem(const Ann& a) {
  const std::string by = " (by " + pos_text(a.span) + ")";
  const std::string at = " (at " + pos_text(a.span) + ")";
  if (a.args.empty() && a.kwargs.empty()) {
    return "expected annotation to have 2-tuple as argument(s), but found no arguments" + by;
  }
  for (const auto& arg : a.args) {
    if (!arg.is(sl::Kind::kTuple)) {
      return "expected annotation to have 2-tuple as argument(s), but found: " + arg.repr() + by;
    }
    const auto items = arg.items();
    if (items.size() != 2) {
      return "expected 2-tuple, but found tuple with length " + std::to_string(items.size()) + by;
    }
    if (!items[0].is(sl::Kind::kString)) {
      return "expected first item in the 2-tuple to be a string describing a valid value, but "
             "was " +
             std::string(items[0].type_name()) + at;
    }
    const sl::Value& f = items[1];
    if (is_callable(f)) continue;
    if (!has_attrs(f)) {
      return "expected second item in the 2-tuple to be an assertion function, but was " +
             std::string(f.type_name()) + at;
    }
    auto check = f.attr("check");
    if (!check) {
      return "expected second item in tuple to be an assertion function or assertion object, "
             "but was a " +
             std::string(f.type_name()) + at;
    }
    if (!is_callable(*check)) {
      return "expected struct with attribute check(), but was " + std::string(check->type_name()) +
             at;
    }
  }
  for (const auto& [name, v] : a.kwargs) {
    const std::string type(v.type_name());
    if (name == "when") {
      if (!is_callable(v)) {
        return "expected keyword argument \"when\" to be a function, but was " + type + at;
      }
    } else if (name == "min_len" || name == "max_len") {
      if (!number_to_int_ok(v)) {
        return "expected keyword argument \"" + name + "\" to be a number, but was " + type + at;
      }
    } else if (name == "min" || name == "max") {
      // any value: compared when the rule runs
    } else if (name == "not_null") {
      if (!v.is_bool()) {
        return "expected keyword argument \"not_null\" to be a boolean, but was " + type + at;
      }
    } else if (name == "one_not_null") {
      if (v.is_bool()) {
        if (!v.as_bool()) return std::string("one_not_null= cannot be False");
      } else if (!is_sequence(v)) {
        return "expected True or a sequence of keys, but was a '" + type + "'";
      }
    } else if (name == "one_of") {
      if (!is_sequence(v)) {
        return "expected keyword argument one_of to be a sequence, but was " + type;
      }
    } else {
      return "unknown keyword argument \"" + name + "\"" + at;
    }
  }
  return std::nullopt;
}

std::string validate_values(const DPtr& values, const TypeRules* type,
                            const std::vector<Ann>& doc_anns,
                            const diag::Span& doc_span, sl::Thread& thread, const Files& files,
                            std::vector<Problem>* problems) {
  for (const auto& a : doc_anns) {
    if (a.name == "assert/validate") {
      if (auto problem = validation_args_problem(a)) {
        throw YttError{"Invalid @assert/validate annotation - " + *problem};
      }
    }
  }
  // Every `@assert/validate` is written in some input's text: without one, nothing to check.
  if (mentions_assert_validate(files)) Validator::check_assert_annotations(*values);
  Validator v(thread, files);
  v.walk(values, type, doc_span, nullptr, values, &doc_anns);
  if (v.out_.empty()) return {};
  if (problems) *problems = std::move(v.problems_);
  return v.out_ + "\n";
}

bool mentions_assert_validate(const Files& files) {
  Files::TextScan& scan = files.assert_validate_scan;
  for (; !scan.found && scan.checked < files.files.size(); ++scan.checked) {
    scan.found = files.files[scan.checked].text().find("assert/validate") != std::string_view::npos;
  }
  return scan.found || (files.caller && mentions_assert_validate(*files.caller));
}

}  // namespace hintkit::ytt
