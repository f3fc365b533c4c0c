// What crosses between Starlark and the tree (ytt's template/core and yamltemplate's
// fragments): conversions both ways, the `yamlfragment` value ytt hands to code, Go's type names
// of Starlark values, and the module values (url.value, ip.addr, ...) with no YAML form.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <unordered_set>

#include "diag/stack.h"
#include "gocompat/gocompat.h"
#include "ytt/template/template.h"

namespace hintkit::ytt {

// ---- yamlfragment ------------------------------------------------------------------------

namespace {

// Maps as dicts and arrays as lists; with `only_from_code`, only those a template line set from
// Starlark data (ytt keeps them as Go data), YAML nodes below staying fragments.
sl::Value plain_value(const DPtr& n, bool only_from_code) {
  if (n->is_scalar() || (only_from_code && !n->from_code)) return to_starlark(n);
  if (n->is_array()) {
    std::vector<sl::Value> items;
    items.reserve(n->entries.size());
    for (const auto& e : n->entries) items.push_back(plain_value(e.value, only_from_code));
    return sl::make_list(std::move(items));
  }
  std::vector<std::pair<sl::Value, sl::Value>> items;
  for (const auto& e : n->entries) {
    auto k = std::make_shared<DNode>();
    k->kind = e.key.kind;
    k->scalar = e.key;
    items.emplace_back(to_starlark(k), plain_value(e.value, only_from_code));
  }
  auto d = sl::make_dict(std::move(items));
  return d.ok() ? *d : sl::Value::none();
}

// A value inside a fragment as Starlark sees it. A map or array comes back as a fragment over
// the same node (ytt's too), which is then part of two trees: see DNode::viewed.
sl::Value read_back(const DPtr& n) {
  if (!n->is_scalar() && !n->from_code) n->viewed = true;
  return plain_value(n, true);
}

class Fragment : public sl::HostObject {
 public:
  explicit Fragment(DPtr n, bool docset = false) : node_(std::move(n)), docset_(docset) {}
  std::string_view type_name() const override { return "yamlfragment"; }
  std::optional<std::string> hash_error() const override {
    return std::string("unhashable type: yamlfragment");
  }
  std::string repr() const override {
    if (docset_) return "yamlfragment(*yamlmeta.DocumentSet)";
    if (node_->is_null()) return "yamlfragment(<nil>)";
    return node_->is_map() ? "yamlfragment(*yamlmeta.Map)" : "yamlfragment(*yamlmeta.Array)";
  }
  std::optional<size_t> len() const override { return node_->entries.size(); }
  bool truth() const override { return !node_->entries.empty(); }
  // Indexing is Starlark's mapping lookup (ytt's fragment is a Mapping first).
  sl::Result<sl::Value> index(const sl::Value& key) const override {
    if (auto e = key_conversion_error(key)) return *e;
    auto found = get(key);
    if (!found.ok()) return found.error();
    if (!*found) return sl::fail_error("key " + key.repr() + " not in yamlfragment");
    return **found;
  }
  std::optional<bool> contains(const sl::Value& key) const override {
    if (key_conversion_error(key)) return false;  // Starlark's `in` ignores Get's errors
    auto found = get(key);
    return found.ok() && found->has_value();
  }
  // ytt's StarlarkFragment.Get first turns the key into a Go value: a key ytt panics on (a
  // range, a function, an int beyond 64 bits) unwinds the evaluation; a url or ip value fails
  // with its hint.
  static std::optional<sl::Error> key_conversion_error(const sl::Value& key) {
    auto why = unconvertible_to_yaml(key);
    if (!why) return std::nullopt;
    if (why->rfind("(p) ", 0) == 0) sl::throw_go_panic(*why);
    return sl::fail_error(*why);
  }
  // ytt's StarlarkFragment.Get: arrays and document sets by int index (no negative ones),
  // maps by a key equal in Go type and value (YAML int keys are Go ints, Starlark ints are
  // int64: they never match).
  sl::Result<std::optional<sl::Value>> get(const sl::Value& key) const {
    if (node_->is_array()) {
      auto i = key.to_int64();
      if (!key.is(sl::Kind::kInt) || !i) {
        if (docset_) {
          return sl::fail_error(key.str() +
                                ".Get: Expected document set index to be an int64, but was "
                                "yamlfragment");
        }
        return sl::fail_error("yamlfragment.Get: Expected array index to be an int64, but was " +
                              go_value_type(key));
      }
      if (*i < 0 || *i >= static_cast<int64_t>(node_->entries.size())) {
        return std::optional<sl::Value>();
      }
      return std::optional<sl::Value>(read_back(node_->entries[static_cast<size_t>(*i)].value));
    }
    for (const auto& e : node_->entries) {
      if (key_matches(e.key, key)) return std::optional<sl::Value>(read_back(e.value));
    }
    return std::optional<sl::Value>();
  }
  std::optional<std::vector<sl::Value>> iterate() const override {
    std::vector<sl::Value> out;
    out.reserve(node_->entries.size());
    for (const auto& e : node_->entries) {
      if (node_->is_map()) {
        auto k = std::make_shared<DNode>();
        k->kind = e.key.kind;
        k->scalar = e.key;
        out.push_back(to_starlark(k));
      } else {
        out.push_back(read_back(e.value));
      }
    }
    return out;
  }
  sl::Result<bool> equals(const sl::HostObject&) const override {
    return sl::fail_error("yamlfragment.CompareSameType: Not implemented");
  }
  // ytt's StarlarkFragment has a SetKey that always fails; starlark-go tries it first for
  // every item assignment, index or key.
  std::optional<sl::Error> set_index_error() const override {
    return sl::fail_error("yamlfragment.SetKey: Not implemented");
  }
  std::optional<std::string> slice_panic() const override {
    return "(p) yamlfragment.Slice: Not implemented";
  }
  // ytt's StarlarkFragment.Items: a map's items; nothing for a nil fragment; ytt panics on
  // any other fragment.
  sl::Result<std::optional<Pairs>> mapping_items() const override {
    Pairs out;
    if (docset_ || node_->is_array()) {
      sl::Error panic = sl::fail_error(
          std::string("(p) yamlfragment.Items: Expected value to be a map, but was ") +
          (docset_ ? "*yamlmeta.DocumentSet" : "*yamlmeta.Array"));
      panic.go_panic = true;
      return panic;
    }
    for (const auto& e : node_->entries) {
      auto k = std::make_shared<DNode>();
      k->kind = e.key.kind;
      k->scalar = e.key;
      out.emplace_back(to_starlark(k), read_back(e.value));
    }
    return std::optional<Pairs>(std::move(out));
  }
  static bool key_matches(const Scalar& k, const sl::Value& key) {
    switch (k.kind) {
      case yaml::Kind::kString:
        return key.is(sl::Kind::kString) && key.as_string() == k.text;
      case yaml::Kind::kInt:
        return false;  // Go int (from YAML) vs int64 (from Starlark)
      case yaml::Kind::kFloat:
        return key.is_float() && key.as_float() == k.float_value;
      case yaml::Kind::kBool:
        return key.is_bool() && key.as_bool() == k.bool_value;
      case yaml::Kind::kNull:
        return key.is_none();
      default:
        return false;
    }
  }
  DPtr node_;
  bool docset_;
  std::vector<DDoc> docs_;  // a docset: the documents with their annotations
};

}  // namespace

std::string go_value_type(const sl::Value& v) {
  switch (v.kind()) {
    case sl::Kind::kNone:
      return "<nil>";
    case sl::Kind::kBool:
      return "bool";
    case sl::Kind::kInt:
      return v.to_int64() ? "int64" : "uint64";
    case sl::Kind::kFloat:
      return "float64";
    case sl::Kind::kString:
      return "string";
    case sl::Kind::kDict:
    case sl::Kind::kStruct:
      return gocompat::kOrderedMapType;
    case sl::Kind::kList:
    case sl::Kind::kTuple:
    case sl::Kind::kSet:
      return gocompat::kSliceType;
    default:
      break;
  }
  if (is_docset(v)) return "*yamlmeta.DocumentSet";
  if (auto n = fragment_node(v)) {
    if (n->is_null()) return "<nil>";
    return n->is_map() ? "*yamlmeta.Map" : "*yamlmeta.Array";
  }
  return std::string(v.type_name());
}

std::string yaml_type_name(const sl::Value& v) {
  static constexpr std::pair<std::string_view, std::string_view> kNames[] = {
      {"*yamlmeta.DocumentSet", "document set"},
      {"*yamlmeta.Map", "map"},
      {"*yamlmeta.Array", "array"},
      {"int64", "integer"},
      {"uint64", "integer"},
      {"float64", "float"},
      {"bool", "boolean"},
      {"<nil>", "null"}};
  std::string go = go_value_type(v);
  for (const auto& [type, name] : kNames)
    if (go == type) return std::string(name);
  return go;
}

sl::Value make_fragment(DPtr node) { return sl::Value(new Fragment(std::move(node))); }

sl::Value make_nil_fragment() { return sl::Value(new Fragment(make_node(yaml::Kind::kNull))); }

sl::Value make_docset_fragment(std::vector<DDoc> docs) {
  // Seen as a value (indexing, defaults), a docset is the array of its documents' values.
  auto arr = make_node(yaml::Kind::kArray);
  for (const auto& d : docs) {
    DEntry e;
    e.value = d.value ? d.value : make_node(yaml::Kind::kNull);
    e.span = d.span;
    arr->entries.push_back(std::move(e));
  }
  auto* f = new Fragment(std::move(arr), true);
  f->docs_ = std::move(docs);
  return sl::Value(f);
}

const std::vector<DDoc>* fragment_docs(const sl::Value& v) {
  if (!v.is(sl::Kind::kHost)) return nullptr;
  auto* f = dynamic_cast<Fragment*>(v.object());
  return f && f->docset_ ? &f->docs_ : nullptr;
}

DPtr fragment_node(const sl::Value& v) {
  if (!v.is(sl::Kind::kHost)) return nullptr;
  auto* f = dynamic_cast<Fragment*>(v.object());
  return f ? f->node_ : nullptr;
}

bool is_docset(const sl::Value& v) {
  if (!v.is(sl::Kind::kHost)) return false;
  auto* f = dynamic_cast<Fragment*>(v.object());
  return f && f->docset_;
}

sl::Value to_starlark(const DPtr& n) {
  switch (n->kind) {
    case yaml::Kind::kNull:
      return sl::Value::none();
    case yaml::Kind::kBool:
      return sl::Value::from_bool(n->scalar.bool_value);
    case yaml::Kind::kInt:
      if (n->scalar.is_unsigned) {
        auto v = sl::Value::parse_int(std::to_string(static_cast<uint64_t>(n->scalar.int_value)));
        return v ? *v : sl::Value::none();
      }
      return sl::Value::from_int(n->scalar.int_value);
    case yaml::Kind::kFloat:
      return sl::Value::from_float(n->scalar.float_value);
    case yaml::Kind::kString:
      return sl::Value::from_string(n->scalar.text);
    case yaml::Kind::kMap:
    case yaml::Kind::kArray:
      return make_fragment(n);
  }
  return sl::Value::none();
}

sl::Value to_plain(const DPtr& n) { return plain_value(n, false); }

sl::Value to_struct_value(const DPtr& n) {
  if (n->is_map()) {
    std::vector<std::pair<std::string, sl::Value>> fields;
    fields.reserve(n->entries.size());
    for (const auto& e : n->entries) fields.emplace_back(key_text(e.key), to_struct_value(e.value));
    return sl::make_struct("struct", "struct", std::move(fields));
  }
  if (n->is_array()) {
    std::vector<sl::Value> items;
    items.reserve(n->entries.size());
    for (const auto& e : n->entries) items.push_back(to_struct_value(e.value));
    return sl::make_list(std::move(items));
  }
  return to_starlark(n);
}

namespace {
yaml::Node yaml_key_from_starlark(const sl::Value& k) {
  switch (k.kind()) {
    case sl::Kind::kString:
      return yaml::make_string(std::string(k.as_string()));
    case sl::Kind::kInt:
      return yaml::make_int(k.to_int64().value_or(0));
    case sl::Kind::kBool:
      return yaml::make_bool(k.as_bool());
    case sl::Kind::kFloat:
      return yaml::make_float(k.as_float());
    case sl::Kind::kNone:
      return yaml::make_null();
    default:
      return yaml::make_string(k.str());
  }
}

Scalar key_from_starlark(const sl::Value& k) {
  Scalar s = scalar_of(yaml_key_from_starlark(k));
  s.from_code = true;
  return s;
}
}  // namespace

// An int above int64's range that fits uint64, or nullopt.
std::optional<uint64_t> uint64_of(const sl::Value& v) {
  const std::string digits = v.int_text();
  constexpr std::string_view kMaxUint64 = "18446744073709551615";
  if (digits.empty() || digits[0] == '-') return std::nullopt;
  if (digits.size() > kMaxUint64.size() ||
      (digits.size() == kMaxUint64.size() && digits > kMaxUint64))
    return std::nullopt;
  return std::stoull(digits);
}

std::string ValuePath::path_to(size_t depth) const {
  std::string p;
  for (size_t i = 0; i < depth; ++i) p += path_[i].where;
  return p;
}

bool ValuePath::enter(const sl::Value& v) {
  if (error_) return false;
  const void* c = v.object();
  std::string_view kind = v.type_name();
  if (on_path_.contains(c)) {  // the cycle closes here
    size_t first = 0;
    while (path_[first].container != c) ++first;
    std::string here = path_to(path_.size());
    std::string there =
        first == 0 ? "the value itself" : "the " + std::string(kind) + " at " + path_to(first);
    error_ = "value contains a reference cycle: the " + std::string(kind) + " at " + here + " is " +
             there + " (a value that contains itself cannot be encoded)";
    return false;
  }
  if (path_.size() >= static_cast<size_t>(kMaxValueDepth)) {
    error_ = "value is nested more than " + std::to_string(path_.size()) + " levels deep (limit " +
             std::to_string(kMaxValueDepth) + ")";
    return false;
  }
  if (diag::stack_exhausted()) {
    error_ = "value is nested more than " + std::to_string(path_.size()) +
             " levels deep: " + diag::stack_exhausted_reason() + " before the limit of " +
             std::to_string(kMaxValueDepth) + " levels";
    return false;
  }
  path_.push_back({c, kind, ""});
  on_path_.insert(c);
  return true;
}

void ValuePath::leave() {
  on_path_.erase(path_.back().container);
  path_.pop_back();
}

namespace {

// Turns a Starlark value into a tree, refusing values that contain themselves (ytt's answer to
// those is a crash) and nesting beyond `kMaxValueDepth` (see `ValuePath`).
class StarlarkConverter {
 public:
  // The value itself takes `span`; what Starlark built inside it takes `span` too or no place
  // in a file (ytt shows such positions as "?"), as `inner` says.
  StarlarkConverter(const diag::Span& span, InnerSpan inner, bool placing = false)
      : span_(span),
        inner_span_(inner == InnerSpan::kSame ? span : diag::Span{}),
        placing_(placing) {}

  sl::Result<DPtr> run(const sl::Value& v) {
    DPtr out = convert(v, span_);
    if (path_.error()) return sl::fail_error(*path_.error());
    return out;
  }

 private:
  bool enter(const sl::Value& v) { return path_.enter(v); }
  void leave() { path_.leave(); }

  DPtr child(const sl::Value& v, std::string where) {
    path_.at(std::move(where));
    return convert(v, inner_span_);
  }
  bool failed() const { return path_.error().has_value(); }

  DPtr convert(const sl::Value& v, const diag::Span& span) {
    if (failed() || !count(1)) return make_node(yaml::Kind::kNull, span);
    if (auto f = fragment_node(v)) {
      if (!placing_) return count(tree_size(*f)) ? deep_copy(*f) : make_node(yaml::Kind::kNull);
      f->aliased = f->aliased || f->placed || f->viewed;
      f->placed = true;
      return f;
    }
    switch (v.kind()) {
      case sl::Kind::kNone:
        return make_node(yaml::Kind::kNull, span);
      case sl::Kind::kBool: {
        auto n = make_node(yaml::Kind::kBool, span);
        n->scalar.bool_value = v.as_bool();
        return n;
      }
      case sl::Kind::kInt: {
        auto n = make_node(yaml::Kind::kInt, span);
        if (auto i = v.to_int64()) {
          n->scalar.int_value = *i;
        } else if (auto u = uint64_of(v)) {  // ytt converts these through Go's uint64
          n->scalar.int_value = static_cast<int64_t>(*u);
          n->scalar.is_unsigned = true;
        } else {
          n->kind = yaml::Kind::kString;  // beyond int64: keep the digits
          n->scalar.kind = yaml::Kind::kString;
          n->scalar.text = v.int_text();
        }
        return n;
      }
      case sl::Kind::kFloat: {
        auto n = make_node(yaml::Kind::kFloat, span);
        n->scalar.float_value = v.as_float();
        return n;
      }
      case sl::Kind::kString: {
        auto n = make_node(yaml::Kind::kString, span);
        n->scalar.text = std::string(v.as_string());
        return n;
      }
      case sl::Kind::kList:
      case sl::Kind::kTuple:
      case sl::Kind::kSet:
      case sl::Kind::kRange: {
        auto n = make_node(yaml::Kind::kArray, span);
        n->from_code = true;
        if (!enter(v)) return n;
        size_t i = 0;
        for (const auto& it : v.items()) {
          DEntry e;
          e.value = child(it, "[" + std::to_string(i++) + "]");
          e.span = inner_span_;
          n->entries.push_back(std::move(e));
          if (failed()) break;
        }
        leave();
        return n;
      }
      case sl::Kind::kDict: {
        auto n = make_node(yaml::Kind::kMap, span);
        n->from_code = true;
        if (!enter(v)) return n;
        for (const auto& [k, val] : v.dict_items()) {
          DEntry e;
          e.key = key_from_starlark(k);
          e.value = child(val, "[" + k.repr() + "]");
          e.span = inner_span_;
          n->entries.push_back(std::move(e));
          if (failed()) break;
        }
        leave();
        return n;
      }
      case sl::Kind::kStruct: {
        auto n = make_node(yaml::Kind::kMap, span);
        n->from_code = true;
        if (!enter(v)) return n;
        for (const auto& [name, field] : sl::struct_fields(v)) {  // in the order written
          DEntry e;
          e.key = string_scalar(name);
          e.value = child(field, "." + name);
          e.span = inner_span_;
          n->entries.push_back(std::move(e));
          if (failed()) break;
        }
        leave();
        return n;
      }
      default: {
        auto n = make_node(yaml::Kind::kString, span);
        n->scalar.text = v.str();
        return n;
      }
    }
  }

  const diag::Span& span_;
  const diag::Span inner_span_;
  ValuePath path_;
  bool placing_ = false;  // see place_starlark
  size_t made_ = 0;       // nodes made so far (kMaxConvertedNodes)

  // Counts `n` more nodes; false (and the walk stopped) beyond the budget.
  bool count(size_t n) {
    made_ += n;
    if (made_ <= kMaxConvertedNodes) return true;
    path_.stop("value is too large to become YAML: more than " +
               std::to_string(kMaxConvertedNodes) +
               " nodes (lists or dicts repeated inside it are written out in full each time)");
    return false;
  }
  // The nodes of a fragment's tree, counted up to just past the budget.
  static size_t tree_size(const DNode& root) {
    size_t n = 0;
    std::vector<const DNode*> todo{&root};
    while (!todo.empty() && n <= kMaxConvertedNodes) {
      const DNode* x = todo.back();
      todo.pop_back();
      ++n;
      for (const auto& e : x->entries)
        if (e.value) todo.push_back(e.value.get());
    }
    return n;
  }
};

}  // namespace

sl::Result<DPtr> convert_starlark(const sl::Value& v, const diag::Span& span, InnerSpan inner) {
  return StarlarkConverter(span, inner).run(v);
}

sl::Result<DPtr> place_starlark(const sl::Value& v, const diag::Span& span) {
  return StarlarkConverter(span, InnerSpan::kNone, /*placing=*/true).run(v);
}

namespace {

// Each container is looked into once: what is inside it does not change with the path that
// reaches it, and shared parts (`c = [c, c]` thirty times over) would otherwise be walked once per
// path. A cycle or runaway depth is left to the converter, which names it.
struct UnconvertibleWalk {
  std::unordered_set<const void*> seen;
  size_t depth = 0;

  std::optional<std::string> check(const sl::Value& v);
  std::optional<std::string> inside(const sl::Value& v) {
    if (depth >= static_cast<size_t>(kMaxValueDepth) || diag::stack_exhausted() ||
        !seen.insert(v.object()).second)
      return std::nullopt;
    ++depth;
    auto e = check_items(v);
    --depth;
    return e;
  }
  std::optional<std::string> check_items(const sl::Value& v);
};

std::optional<std::string> UnconvertibleWalk::check(const sl::Value& v) {
  if (fragment_node(v)) return std::nullopt;
  auto unknown = [](std::string_view go_type) {
    return "(p) unknown type " + std::string(go_type) + " for conversion to go value";
  };
  if (v.is(sl::Kind::kStruct) && v.type_name() == "module") {
    return unknown("*starlarkstruct.Module");  // a module (@ytt:module's make, a loaded one)
  }
  // ytt's url/ip values and assertions stop the walk with their hint (an error, not a panic)
  if (auto hint = own_conversion_hint(v)) return "Unable to convert value: " + *hint;
  switch (v.kind()) {
    case sl::Kind::kInt: {
      if (v.to_int64() || uint64_of(v)) return std::nullopt;  // beyond int64: uint64 is fine
      return std::string("(p) not sure how to get int");
    }
    case sl::Kind::kRange:
      return unknown("starlark.rangeValue");
    case sl::Kind::kFunction:
      return unknown("*starlark.Function");
    case sl::Kind::kBuiltin:
      return unknown("*starlark.Builtin");
    case sl::Kind::kList:
    case sl::Kind::kTuple:
    case sl::Kind::kSet:
    case sl::Kind::kDict:
    case sl::Kind::kStruct:
      return inside(v);
    case sl::Kind::kHost:
      if (v.type_name() == "elems" || v.type_name() == "codepoints")
        return unknown("starlark.stringIterable");
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

std::optional<std::string> UnconvertibleWalk::check_items(const sl::Value& v) {
  switch (v.kind()) {
    case sl::Kind::kDict:
      for (const auto& [k, val] : v.dict_items()) {
        if (auto e = check(k)) return e;
        // The printer writes such a value as `!!binary` base64, but not such a key.
        if (k.is(sl::Kind::kString) && !gocompat::valid_utf8(k.as_string()))
          throw Unsupported{"a map key that is not valid UTF-8 (ytt writes !!binary)"};
        // ytt writes these keys as YAML complex keys (`? - 1`); hintkit's trees hold scalars.
        if (k.is(sl::Kind::kTuple)) throw Unsupported{"a map key that is a tuple"};
        if (k.is(sl::Kind::kInt) && !k.to_int64())
          throw Unsupported{"a map key beyond 64-bit signed integers"};
        if (auto e = check(val)) return e;
      }
      return std::nullopt;
    case sl::Kind::kStruct:
      for (const auto& [name, field] : sl::struct_fields(v)) {
        if (auto e = check(field)) return e;
      }
      return std::nullopt;
    default:
      for (const auto& it : v.items()) {
        if (auto e = check(it)) return e;
      }
      return std::nullopt;
  }
}

}  // namespace

std::optional<std::string> unconvertible_to_yaml(const sl::Value& v) {
  return UnconvertibleWalk{}.check(v);
}

DPtr from_starlark(const sl::Value& v, const diag::Span& span, InnerSpan inner) {
  // What ytt panics on (functions, ranges, ...) or writes in forms hintkit does not hold.
  if (auto why = unconvertible_to_yaml(v)) throw YttError{*why};
  auto r = convert_starlark(v, span, inner);
  if (!r.ok()) throw YttError{r.error().message};
  return std::move(r).value();
}

std::string go_type_name(const sl::Value& v) {
  return std::string(gocompat::starlark_go_type(v.type_name()));
}

// ---- Module values (url.value, ip.addr, ...) ----------------------------------------------

// ytt's url/ip values embed its StarlarkStruct under their own type name: structs to Starlark
// (fields, iteration over their names, len, `in`, `["name"]`), with no YAML form.
sl::Value make_module_value(std::string type,
                            std::vector<std::pair<std::string, sl::Value>> fields) {
  return sl::make_struct("@ytt:" + type, type, std::move(fields));
}

std::optional<std::string> own_conversion_hint(const sl::Value& v) {
  if (!v.is(sl::Kind::kStruct)) return std::nullopt;
  std::string_view type = v.type_name();
  if (type.rfind("@ytt:", 0) != 0) return std::nullopt;
  if (is_assertion(v))
    return "@ytt:assert.assertion does not encode (did you mean to call check()?)";
  return std::string(type) + " does not automatically encode (hint: use .string())";
}

namespace {
// Each container is looked into once: lists repeating a shared list (`[a] * 1000` three levels
// deep) would otherwise be walked a billion times.
std::optional<std::string> hint_inside(const sl::Value& v, int depth,
                                       std::unordered_set<const void*>& seen) {
  if (depth > 1000) return std::nullopt;  // deeper values fail elsewhere
  if (auto h = own_conversion_hint(v)) return h;
  auto look = [&](const sl::Value& x) -> std::optional<std::string> {
    if (x.is_object() && !seen.insert(x.object()).second) return std::nullopt;
    return hint_inside(x, depth + 1, seen);
  };
  switch (v.kind()) {
    case sl::Kind::kList:
    case sl::Kind::kTuple:
    case sl::Kind::kSet:
      for (const auto& it : v.items())
        if (auto h = look(it)) return h;
      return std::nullopt;
    case sl::Kind::kDict:
      for (const auto& [k, val] : v.dict_items()) {
        if (auto h = look(k)) return h;
        if (auto h = look(val)) return h;
      }
      return std::nullopt;
    case sl::Kind::kStruct:
      for (const auto& [n, val] : sl::struct_fields(v))
        if (auto h = look(val)) return h;
      return std::nullopt;
    default:
      return std::nullopt;
  }
}
}  // namespace

std::optional<std::string> conversion_hint(const sl::Value& v, int depth) {
  std::unordered_set<const void*> seen;
  return hint_inside(v, depth, seen);
}


bool is_assertion(const sl::Value& v) {
  return v.is(sl::Kind::kStruct) && v.type_name() == "@ytt:assert.assertion";
}
}  // namespace hintkit::ytt
