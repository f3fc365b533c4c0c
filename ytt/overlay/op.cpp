// The overlay operation (ytt's op.go): `Op::apply` walks a right map or array onto the left
// one, item by item (map.cpp, array.cpp); `Op::apply_doc` does the same for a document over a
// set of documents (document.cpp). What map, array and document items share lives here: calling
// matchers and `via` functions, the items a match finds by `by=`, the merge, replace and assert
// of matched items, and how right nodes are taken into the left tree.
#include "ytt/overlay/op.h"

#include <algorithm>

namespace hintkit::ytt::overlay {

namespace {

std::string left_type(const DPtr& left) { return left ? type_name(*left) : "null"; }

}  // namespace

const Files* g_files = nullptr;
constinit thread_local int g_overlay_callbacks = 0;
constinit thread_local bool g_apply_in_place = false;

Fail unsupported(const std::string& what) {
  return Fail{what + " is not supported by hintkit (ytt v0.48.0 crashes on it); use ytt", false,
              true};
}

std::string compact(const diag::Span& s) {
  std::string file = s.file;
  if (g_files) {
    if (const SourceFile* f = g_files->find(s.file); f && !f->label.empty()) file = f->label;
  }
  std::string prefix = file.empty() ? "" : file + ":";
  return prefix + (s.begin.line > 0 ? std::to_string(s.begin.line) : "?");
}

std::vector<Ann> without_overlay_anns(const std::vector<Ann>& anns) {
  std::vector<Ann> out;
  for (const auto& a : anns)
    if (!is_overlay_ann(a)) out.push_back(a);
  return out;
}

DPtr node_of(const sl::Value& v) {
  if (DPtr n = fragment_node(v)) return n;
  return from_starlark(v, {});
}

DPtr own_identity(DPtr value) {
  if (!value) return value;
  if (g_apply_in_place) return deep_copy(*value);
  std::vector<const DNode*> todo{value.get()};
  while (!todo.empty()) {
    const DNode* n = todo.back();
    todo.pop_back();
    if (n->aliased) return deep_copy(*value);
    for (const auto& e : n->entries)
      if (e.value) todo.push_back(e.value.get());
  }
  return value;
}

bool Op::apply(DPtr& left, const DPtr& right, const Expects& defaults) {
  // A plain data values file (ytt's AnnotateForPlainMerge): arrays and scalars replace,
  // maps merge.
  if (mode_.plain && right->is_array()) return true;
  // OverlayMode::release_right: a right node that nothing but its parent holds (all the way
  // up) lets go of each item's value once it is merged; what the left took stays shared.
  const bool outer_owned = right_owned_;
  const bool owned = right_owned_ && right.use_count() == 1;
  struct Restore {
    bool& flag;
    bool saved;
    ~Restore() { flag = saved; }
  } restore{right_owned_, outer_owned};
  right_owned_ = owned;
  if (right->is_map()) {
    if (!left || !left->is_map()) throw Fail{"Expected map, but was " + left_type(left)};
    DNode& l = edit_target(left);
    MapIndex index;
    for (auto& re : right->entries) {
      try {
        map_item(l, re, defaults, index);
      } catch (Fail& f) {
        throw Fail{"Map item (key '" + go_key_text(re.key) + "') on line " + compact(re.span) +
                   ": " + f.message};
      }
      if (owned) re.value.reset();
    }
    return false;
  }
  if (right->is_array()) {
    if (!left || !left->is_array()) throw Fail{"Expected array, but was " + left_type(left)};
    DNode& l = edit_target(left);
    // Items appended to an empty array (a schema's default) are all there will be.
    if (l.entries.empty()) l.entries.reserve(right->entries.size());
    for (const auto& re : right->entries) {
      try {
        array_item(l, re, defaults);
      } catch (Fail& f) {
        throw Fail{"Array item on line " + compact(re.span) + ": " + f.message};
      }
    }
    return false;
  }
  return true;
}

void Op::apply_doc(std::vector<std::vector<DDoc>*>& sets, const DDoc& doc, const Expects& defaults,
                   bool exact) {
  try {
    doc_op(sets, doc, defaults, exact);
  } catch (Fail& f) {
    throw Fail{"Document on line " + compact(doc.span) + ": " + f.message, false, f.unsupported};
  }
}

bool Op::call_matcher(const sl::Value& by, std::vector<sl::Value> args) {
  InOverlayCallback callback;
  auto r = thread_.call(by, args);
  if (!r.ok()) throw Fail{r.error().message};
  if (!r->is_bool()) throw Fail{"expected starlark.Bool, but was " + go_type_name(*r)};
  return r->as_bool();
}

// The left items a map or array item's `by=` picks (ytt's MatchNodes of
// map_item_match_annotation.go and array_item_match_annotation.go): a string is
// overlay.map_key(string); a function is called with the left item's key (maps) or index
// (arrays), the left value and the right value.
std::vector<size_t> Op::by_matches(const DNode& left, const DEntry& re, const sl::Value& by,
                                   Target t) {
  std::vector<size_t> idx;
  if (by.is(sl::Kind::kString)) {
    const std::string_view name = by.as_string();
    for (size_t i = 0; i < left.entries.size(); ++i) {
      auto r = compare_by_map_key(name, *left.entries[i].value, *re.value);
      if (auto* why = std::get_if<std::string>(&r)) {
        throw Fail{"overlay.map_key_matcher: " + *why};
      }
      if (std::get<bool>(r)) idx.push_back(i);
    }
  } else if (callable(by)) {
    for (size_t i = 0; i < left.entries.size(); ++i) {
      const DEntry& le = left.entries[i];
      sl::Value first;
      if (t == Target::kMapItem) {
        auto k = make_node(le.key.kind);
        k->scalar = le.key;
        first = to_starlark(k);
      } else {
        first = sl::Value::from_int(static_cast<int64_t>(i));
      }
      if (call_matcher(by, {first, to_starlark(le.value), to_starlark(re.value)})) {
        idx.push_back(i);
      }
    }
  } else {
    throw Fail{
        "Expected 'overlay/match' annotation keyword argument 'by' to be either string (for "
        "map key) or function, but was " +
        go_type_name(by)};
  }
  return idx;
}

// The value a replace or insert puts in: the right node's, or what `via` makes of the old
// and new values.
DPtr Op::edited_value(const Edit& e, const DPtr* existing, const DPtr& right) {
  if (!e.via) return right;
  sl::Value old = existing && *existing ? to_starlark(*existing) : sl::Value::none();
  InOverlayCallback callback;
  auto r = thread_.call(*e.via, std::vector<sl::Value>{old, to_starlark(right)});
  if (!r.ok()) throw Fail{r.error().message};
  return from_starlark(*r, right->span);
}

// `#@overlay/assert`: the left value must hold what the right one says (or pass `via`).
void Op::check_assert(const std::vector<Ann>& anns, const DPtr& left, const DPtr& right) {
  std::optional<sl::Value> via = parse_assert(anns);
  DPtr l = left ? left : make_node(yaml::Kind::kNull);
  if (!via) {
    if (auto why = compare(*l, *right)) {
      throw Fail{"Expected objects to equal, but did not: " + *why};
    }
    return;
  }
  if (!callable(*via)) {
    throw Fail{
        "Expected 'overlay/assert' annotation keyword argument 'via' to be function, but was " +
        go_type_name(*via)};
  }
  InOverlayCallback callback;
  auto r = thread_.call(*via, std::vector<sl::Value>{to_starlark(l), to_starlark(right)});
  if (!r.ok()) throw Fail{r.error().message};
  if (r->is_none()) return;
  if (r->is_bool()) {
    if (!r->as_bool()) throw Fail{"Expected via invocation to return true, but was false"};
    return;
  }
  if (r->is(sl::Kind::kTuple) || r->is(sl::Kind::kList)) {
    auto items = r->items();
    if (items.size() == 2 && items[0].is_bool() && items[1].is(sl::Kind::kString)) {
      if (!items[0].as_bool()) {
        throw Fail{"Expected via invocation to return true, but was false with message: " +
                   std::string(items[1].as_string())};
      }
      return;
    }
  }
  throw Fail{
      "Expected via invocation to return NoneType, Bool or Tuple(Bool,String), but returned "
      "neither of those"};
}

DEntry Op::copy_of(const DEntry& re, DPtr value) const {
  DEntry ne;
  ne.key = re.key;
  ne.key_node = re.key_node;
  ne.anns = without_overlay_anns(anns_of(re));
  ne.span = re.span;
  ne.value = own_identity(std::move(value));
  return ne;
}

// A merge that keeps the left item and takes the right value: data values also take the
// right item's validation rules along.
void Op::take_value(DEntry& le, const DEntry& re) {
  le.value = re.value;
  le.span = re.span;
  carry_rules(le, re);
}

void Op::carry_rules(DEntry& le, const DEntry& re) {
  if (!mode_.carry_validations) return;
  for (const auto& a : anns_of(re)) {
    if (a.name == "schema/validation" || a.name == "assert/validate") le.anns.push_back(a);
  }
}

// A merge onto the matched items (ytt's mergeMapItem, mergeArrayItem): a collection on both
// sides merges, anything else takes the right value. A plain data values file replaces a
// map item whole unless it holds a map (its arrays never reach here: `apply` replaces them).
void Op::merge_items(DNode& left, const std::vector<size_t>& idx, const DEntry& re,
                     const Expects& child) {
  for (size_t i : idx) {
    DEntry& le = left.entries[i];
    bool replace = true;
    if (le.value && !le.value->is_null()) replace = apply(le.value, re.value, child);
    if (replace && mode_.plain && !re.value->is_map()) {
      le = copy_of(re, re.value);  // replaced whole, the left item's rules too
    } else if (replace) {
      take_value(le, re);
    } else {
      carry_rules(le, re);  // a merged collection keeps its own position
    }
  }
}

// `#@overlay/replace` of the matched items (ytt's replaceMapItem, replaceArrayItem); with
// `or_add=True` and no match, the item is appended. True when it was.
bool Op::replace_items(DNode& left, const std::vector<size_t>& idx, const DEntry& re,
                       const Edit& e) {
  for (size_t i : idx) {
    DEntry& le = left.entries[i];
    DPtr v = edited_value(e, &le.value, re.value);
    // The right item takes the left one's place whole: the left item's rules
    // (`@assert/validate` on a data value) go with it, as in ytt.
    le = copy_of(re, v);
  }
  if (!idx.empty() || !e.or_add) return false;
  left.entries.push_back(copy_of(re, edited_value(e, nullptr, re.value)));
  return true;
}

// `#@overlay/assert` on the matched items (ytt's assertMapItem, assertArrayItem): each must
// hold what the right item says; their children are then checked by the right's.
void Op::assert_items(DNode& left, const std::vector<size_t>& idx, const DEntry& re,
                      const Expects& child) {
  for (size_t i : idx) {
    check_assert(anns_of(re), left.entries[i].value, re.value);
    if (left.entries[i].value) apply(left.entries[i].value, re.value, child);
  }
}

}  // namespace hintkit::ytt::overlay
