// The `@ytt:overlay` module (ytt's api.go): overlay.apply, and the matchers the annotations'
// `by=` takes: all, index, map_key, subset, and_op, or_op, not_op.
#include <functional>
#include <variant>

#include "gocompat/gocompat.h"
#include "ytt/overlay/op.h"

namespace hintkit::ytt {

namespace overlay {

namespace {

// overlay.map_key's lookup (ytt's pullOutMapValue): the value under `name`, or why there is none.
std::variant<const DNode*, std::string> pull_out_map_value(std::string_view name, const DNode& n) {
  if (!n.is_map()) return "Expected value to be map, but was " + type_name(n);
  for (const auto& e : n.entries)
    if (e.key.kind == yaml::Kind::kString && e.key.text == name) return e.value.get();
  return "Expected to find map item with key '" + std::string(name) + "', but did not";
}

// What overlay.apply works on: a document set, or a value.
struct Operand {
  bool docset = false;
  std::vector<DDoc> docs;
  DPtr value;
};

Operand operand_of(const sl::Value& v) {
  Operand o;
  if (const std::vector<DDoc>* docs = fragment_docs(v)) {
    o.docset = true;
    o.docs = *docs;
    return o;
  }
  o.value = node_of(v);
  return o;
}

std::string operand_type(const Operand& o) {
  return o.docset ? "document set" : type_name(*o.value);
}

// A matcher builtin: checks for its three arguments, then `fn(index_or_key, left, right)`.
sl::Value matcher(std::string name, std::function<sl::Result<sl::Value>(const sl::Call&)> fn) {
  return sl::make_builtin(name, [name, fn](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.size() != 3) return sl::fail_error(name + ": expected exactly 3 arguments");
    return fn(c);
  });
}

sl::Result<bool> as_bool(const std::string& name, const sl::Value& v) {
  if (!v.is_bool())
    return sl::fail_error(name + ": expected starlark.Bool, but was " + go_type_name(v));
  return v.as_bool();
}

sl::Result<sl::Value> apply_fn(const sl::Call& c, const Files& files) {
  if (c.args.empty()) return sl::fail_error("overlay.apply: expected exactly at least argument");
  g_files = &files;
  Operand left = operand_of(c.args[0]);
  // A fragment on the left is edited in place, as ytt does (see g_apply_in_place); inside a
  // matcher or `via` the fragments are views of the overlay's own nodes, which may be shared
  // with others of hintkit's, so there the left is copied first as everywhere else.
  const bool in_place =
      !left.docset && fragment_node(c.args[0]) && c.args.size() > 1 && g_overlay_callbacks == 0;
  struct InPlace {
    bool saved;
    explicit InPlace(bool on) : saved(g_apply_in_place) { g_apply_in_place = on; }
    ~InPlace() { g_apply_in_place = saved; }
  } in_place_scope(in_place);
  Op op(c.thread, OverlayMode{});
  try {
    for (size_t k = 1; k < c.args.size(); ++k) {
      Operand right = operand_of(c.args[k]);
      if (right.docset) {
        if (!left.docset) throw Fail{"Expected document set, but was " + operand_type(left)};
        std::vector<std::vector<DDoc>*> sets = {&left.docs};
        for (const auto& d : right.docs) op.apply_doc(sets, d, Expects{}, false);
      } else if (right.value->is_map() || right.value->is_array()) {
        if (left.docset) {
          throw Fail{std::string("Expected ") + (right.value->is_map() ? "map" : "array") +
                     ", but was document set"};
        }
        op.apply(left.value, right.value, Expects{});
      }
    }
  } catch (Fail& f) {
    return sl::fail_error("overlay.apply: " + f.message);
  }
  // ytt hands back the result as YAML nodes: data set from dicts and lists is no longer Go data.
  if (left.docset) {
    for (auto& d : left.docs) {
      if (d.value) d.value = yaml_copy(*d.value);
      d.computed = false;
    }
    return make_docset_fragment(std::move(left.docs));
  }
  if (!in_place) return to_starlark(yaml_copy(*left.value));
  // The fragment's own tree, now the result (ytt turns its Go data into nodes in place).
  make_yaml_nodes(*left.value);
  return to_starlark(left.value);
}

}  // namespace

std::variant<bool, std::string> compare_by_map_key(std::string_view name, const DNode& left,
                                                   const DNode& right) {
  auto a = pull_out_map_value(name, left);
  if (auto* why = std::get_if<std::string>(&a)) return *why;
  auto b = pull_out_map_value(name, right);
  if (auto* why = std::get_if<std::string>(&b)) return *why;
  return leaf_equal(*std::get<const DNode*>(a), *std::get<const DNode*>(b));
}

}  // namespace overlay

sl::Value overlay_module(const Files& files) {
  using namespace overlay;  // NOLINT(google-build-using-namespace): the module's own helpers
  auto all = sl::make_builtin("overlay.all", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.size() != 3) return sl::fail_error("overlay.all: expected exactly 3 arguments");
    return sl::Value::from_bool(true);
  });
  auto index = sl::make_builtin("overlay.index", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.size() != 1) return sl::fail_error("overlay.index: expected exactly one argument");
    if (!c.args[0].is(sl::Kind::kInt))
      return sl::fail_error("overlay.index: expected starlark.Int");
    auto want = c.args[0].to_int64();
    if (!want) return sl::fail_error("overlay.index: expected int64 value");
    int64_t w = *want;
    return matcher("overlay.index_matcher", [w](const sl::Call& m) -> sl::Result<sl::Value> {
      if (!m.args[0].is(sl::Kind::kInt)) {
        return sl::fail_error("overlay.index_matcher: expected starlark.Int");
      }
      return sl::Value::from_bool(m.args[0].to_int64() == w);
    });
  });
  auto map_key =
      sl::make_builtin("overlay.map_key", [](const sl::Call& c) -> sl::Result<sl::Value> {
        if (c.args.size() != 1)
          return sl::fail_error("overlay.map_key: expected exactly one argument");
        if (!c.args[0].is(sl::Kind::kString)) {
          return sl::fail_error("overlay.map_key: expected a string, but was " +
                                std::string(c.args[0].type_name()));
        }
        std::string name(c.args[0].as_string());
        return matcher(
            "overlay.map_key_matcher", [name](const sl::Call& m) -> sl::Result<sl::Value> {
              // Starlark dicts and lists are not YAML maps to this matcher (ytt names their Go
              // types)
              for (size_t k = 1; k < 3; ++k) {
                const sl::Value& v = m.args[k];
                if (v.is(sl::Kind::kDict) || v.is(sl::Kind::kStruct) || v.is(sl::Kind::kList) ||
                    v.is(sl::Kind::kTuple)) {
                  bool dict = v.is(sl::Kind::kDict) || v.is(sl::Kind::kStruct);
                  return sl::fail_error(
                      std::string("overlay.map_key_matcher: Expected value to be map, but was ") +
                      (dict ? gocompat::kOrderedMapType : gocompat::kSliceType));
                }
              }
              auto r = compare_by_map_key(name, *node_of(m.args[1]), *node_of(m.args[2]));
              if (auto* why = std::get_if<std::string>(&r))
                return sl::fail_error("overlay.map_key_matcher: " + *why);
              return sl::Value::from_bool(std::get<bool>(r));
            });
      });
  auto subset = sl::make_builtin("overlay.subset", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.size() != 1) return sl::fail_error("overlay.subset: expected exactly one argument");
    DPtr w = node_of(c.args[0]);
    return matcher("overlay.subset_matcher", [w](const sl::Call& m) -> sl::Result<sl::Value> {
      DPtr l = node_of(m.args[1]);
      return sl::Value::from_bool(!compare(*l, *w).has_value());
    });
  });
  auto logical = [](std::string name, std::string inner, int kind) {
    return sl::make_builtin(name, [name, inner, kind](const sl::Call& c) -> sl::Result<sl::Value> {
      if (kind == 2 ? c.args.size() != 1 : c.args.empty()) {
        return sl::fail_error(name + (kind == 2 ? ": expected exactly one argument"
                                                : ": expected at least one argument"));
      }
      std::vector<sl::Value> ops(c.args.begin(), c.args.end());
      return matcher(inner, [inner, ops, kind](const sl::Call& m) -> sl::Result<sl::Value> {
        std::vector<sl::Value> args(m.args.begin(), m.args.end());
        for (const auto& f : ops) {
          auto r = m.thread.call(f, args);
          if (!r.ok()) return r.error();
          auto b = as_bool(inner, *r);
          if (!b.ok()) return b.error();
          if (kind == 2) return sl::Value::from_bool(!*b);
          if (kind == 0 && !*b) return sl::Value::from_bool(false);
          if (kind == 1 && *b) return sl::Value::from_bool(true);
        }
        return sl::Value::from_bool(kind == 0);
      });
    });
  };
  const Files* fp = &files;
  auto apply = sl::make_builtin("overlay.apply", [fp](const sl::Call& c) -> sl::Result<sl::Value> {
    return apply_fn(c, *fp);
  });
  return sl::make_struct("module", "overlay",
                         {{"all", all},
                          {"and_op", logical("overlay.and_op", "overlay.and_op", 0)},
                          {"apply", apply},
                          {"index", index},
                          {"map_key", map_key},
                          {"not_op", logical("overlay.not_op", "overlay.or_op", 2)},
                          {"or_op", logical("overlay.or_op", "overlay.or_op", 1)},
                          {"subset", subset}});
}

}  // namespace hintkit::ytt
