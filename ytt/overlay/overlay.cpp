// ytt's overlay engine (pkg/yttlibrary/overlay), the one engine behind every overlay: data
// values and schema documents, `#@overlay/match` documents over template output, and
// `overlay.apply` of `@ytt:overlay`. A right-hand node names one operation (merge by default,
// remove, replace, insert, append, assert); its `#@overlay/match` picks the left nodes it acts
// on (by key, by a `by=` matcher) and checks how many it found (`expects`, `missing_ok`,
// `when`, with `#@overlay/match-child-defaults` filling in what an item leaves unsaid).
// Failures are `OverlayError`s holding ytt's flat message ("Document on line a.yml:3: Map
// item (key 'b') on line ...: Expected ..."); `multi_line_error` lays it out as ytt prints it.
#include "ytt/overlay/overlay.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <unordered_map>
#include <variant>

#include "gocompat/gocompat.h"

namespace hintkit::ytt {

namespace {

// A failure inside the engine. `conditional`: a count check that failed under `when=`, which
// the operation takes as "do nothing" rather than as an error.
struct Fail {
  std::string message;
  bool conditional = false;
  bool unsupported = false;  // ytt itself crashes here: hintkit refuses (exit 2)
};

// Where ytt v0.48.0 panics, hintkit names the case and stops with exit 2 instead.
Fail unsupported(const std::string& what) {
  return Fail{what + " is not supported by hintkit (ytt v0.48.0 crashes on it); use ytt", false,
              true};
}

const Files* g_files = nullptr;  // names files in positions while an overlay runs
// Matchers and `via` functions running: their fragments are views of the overlay's own nodes
// (ytt's too), which an `overlay.apply` inside them may edit as ytt does.
thread_local int g_overlay_callbacks = 0;
struct InOverlayCallback {
  InOverlayCallback() { ++g_overlay_callbacks; }
  ~InOverlayCallback() { --g_overlay_callbacks; }
  InOverlayCallback(const InOverlayCallback&) = delete;
  InOverlayCallback& operator=(const InOverlayCallback&) = delete;
};

// ytt's Position.AsCompactString: "file:line", "file:?" when the line is unknown.
std::string compact(const diag::Span& s) {
  std::string file = s.file;
  if (g_files) {
    if (const SourceFile* f = g_files->find(s.file); f && !f->label.empty()) file = f->label;
  }
  std::string prefix = file.empty() ? "" : file + ":";
  return prefix + (s.begin.line > 0 ? std::to_string(s.begin.line) : "?");
}

bool callable(const sl::Value& v) { return v.is(sl::Kind::kFunction) || v.is(sl::Kind::kBuiltin); }

// yamlmeta.TypeName of a value.
std::string type_name(const DNode& n) { return std::string(ytt_type_name(n.kind)); }

bool is_overlay_ann(const Ann& a) { return a.name.rfind("overlay/", 0) == 0; }

std::vector<Ann> without_overlay_anns(const std::vector<Ann>& anns) {
  std::vector<Ann> out;
  for (const auto& a : anns)
    if (!is_overlay_ann(a)) out.push_back(a);
  return out;
}

const std::vector<Ann>& anns_of(const DEntry& e) { return e.anns.get(); }

// ---- Counting matches (match_annotation_expects_kwarg.go) --------------------------------

struct Expects {
  std::optional<sl::Value> expects, missing_ok, when;

  void fill(const Expects& d) {
    if (!expects) expects = d.expects;
    if (!missing_ok) missing_ok = d.missing_ok;
    if (!when) when = d.when;
  }
};

std::string positions_text(const std::vector<const diag::Span*>& matches) {
  if (matches.empty()) return "";
  std::vector<std::string> lines;
  for (const auto* m : matches) lines.push_back(compact(*m));
  std::sort(lines.begin(), lines.end());
  std::string out = " (lines: ";
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? ", " : "") + lines[i];
  return out + ")";
}

class Counter {
 public:
  Counter(const Expects& e, sl::Thread& t) : e_(e), thread_(t) {}

  // Throws Fail when the number of matches is not what the annotation expects.
  void check(const std::vector<const diag::Span*>& matches) {
    auto only_one = [](const char* a, const char* b) {
      throw Fail{std::string("Expected only one of keyword arguments ('") + a + "', '" + b +
                 "') specified"};
    };
    if (e_.missing_ok && e_.expects) only_one("missing_ok", "expects");
    if (e_.missing_ok && e_.when) only_one("missing_ok", "when");
    if (e_.when && e_.expects) only_one("when", "expects");
    std::optional<Fail> f;
    if (e_.missing_ok) {
      if (!e_.missing_ok->is_bool()) {
        throw Fail{"Expected keyword argument 'missing_ok' to be a boolean"};
      }
      // missing_ok=True is expects=[0, 1] (whose failure is the one of 1); False is 1
      if (!(e_.missing_ok->as_bool() && matches.empty())) {
        f = check_value(sl::Value::from_int(1), "missing_ok", matches);
      }
    } else if (e_.when) {
      f = check_value(*e_.when, "when", matches);
    } else if (e_.expects) {
      f = check_value(*e_.expects, "expects", matches);
    } else {
      f = check_value(sl::Value::from_int(1), "", matches);
    }
    if (f) throw *f;
  }

 private:
  Fail count_fail(std::string message) const {
    return Fail{std::move(message), e_.when.has_value()};
  }

  std::optional<Fail> check_value(const sl::Value& v, const std::string& kwarg,
                                  const std::vector<const diag::Span*>& matches) {
    int64_t n = static_cast<int64_t>(matches.size());
    if (v.is(sl::Kind::kInt)) {
      auto want = v.to_int64();
      if (want && *want == n) return std::nullopt;
      return count_fail("Expected number of matched nodes to be " + v.int_text() + ", but was " +
                        std::to_string(n) + positions_text(matches));
    }
    if (v.is(sl::Kind::kString)) {
      std::string s(v.as_string());
      auto bad = Fail{"Expected '" + s + "' to be in format 'i+' where i is an integer"};
      if (s.empty() || s.back() != '+') return bad;
      std::string digits = s.substr(0, s.size() - 1);
      const char* b = digits.data();
      if (!digits.empty() && digits[0] == '+') ++b;  // Go's Atoi takes a sign
      int64_t at_least = 0;
      auto [p, ec] = std::from_chars(b, digits.data() + digits.size(), at_least);
      if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size()) return bad;
      if (n < at_least) {
        return count_fail("Expected number of matched nodes to be >= " + std::to_string(at_least) +
                          ", but was " + std::to_string(n) + positions_text(matches));
      }
      return std::nullopt;
    }
    if (v.is(sl::Kind::kList)) {
      std::optional<Fail> last;
      for (const auto& item : v.items()) {
        last = check_value(item, kwarg, matches);
        if (!last) return std::nullopt;
      }
      return last;
    }
    if (callable(v)) {
      std::vector<sl::Value> args = {sl::Value::from_int(n)};
      auto r = thread_.call(v, args);
      if (!r.ok()) throw Fail{r.error().message};
      if (!r->is_bool()) {
        throw Fail{"Expected keyword argument '" + kwarg +
                   "' to have a function that returns a boolean"};
      }
      if (!r->as_bool()) return count_fail("Expectation of number of matched nodes failed");
      return std::nullopt;
    }
    throw Fail{"Expected 'overlay/match' annotation keyword argument '" + kwarg +
               "' to be either int, string or function, but was " + go_type_name(v)};
  }

  Expects e_;
  sl::Thread& thread_;
};

// `#@overlay/match-child-defaults`: what the children of a node leave unsaid.
Expects child_defaults(const std::vector<Ann>& anns, const Expects& parent) {
  Expects d;
  if (const Ann* a = find_ann(anns, "overlay/match-child-defaults")) {
    for (const auto& [name, v] : a->kwargs) {
      if (name == "expects") {
        d.expects = v;
      } else if (name == "missing_ok") {
        d.missing_ok = v;
      } else if (name == "when") {
        d.when = v;
      } else {
        throw Fail{"Unknown 'overlay/match-child-defaults' annotation keyword argument '" + name +
                   "'"};
      }
    }
  }
  d.fill(parent);
  return d;
}

enum class Target { kMapItem, kArrayItem, kDocument };

struct Match {
  std::optional<sl::Value> by;
  Expects expects;
  bool unannotated = false;  // an array item without `#@overlay/match`: appended
};

Match parse_match(const std::vector<Ann>& anns, const Expects& defaults, Target t, bool exact) {
  Match m;
  const Ann* a = find_ann(anns, "overlay/match");
  if (t == Target::kArrayItem && !a) {
    m.expects.expects = sl::Value::from_int(0);
    m.unannotated = true;
    return m;
  }
  size_t n = a ? a->kwargs.size() : 0;
  if (n == 0 && (t == Target::kArrayItem || (t == Target::kDocument && !exact))) {
    throw Fail{
        "Expected 'overlay/match' annotation to have at least one keyword argument (by=..., "
        "expects=...)"};
  }
  if (a) {
    for (const auto& [name, v] : a->kwargs) {
      if (name == "by") {
        m.by = v;
      } else if (name == "expects") {
        m.expects.expects = v;
      } else if (name == "missing_ok") {
        m.expects.missing_ok = v;
      } else if (name == "when") {
        m.expects.when = v;
      } else {
        throw Fail{"Unknown 'overlay/match' annotation keyword argument '" + name + "'"};
      }
    }
  }
  m.expects.fill(defaults);
  return m;
}

// ---- Comparing values (compare.go), for `subset`, `map_key` and `assert` -------------------

bool leaf_equal(const DNode& a, const DNode& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case yaml::Kind::kNull:
      return true;
    case yaml::Kind::kBool:
      return a.scalar.bool_value == b.scalar.bool_value;
    case yaml::Kind::kInt:
      return a.scalar.int_value == b.scalar.int_value &&
             (a.scalar.is_unsigned == b.scalar.is_unsigned || a.scalar.int_value >= 0);
    case yaml::Kind::kFloat:
      return a.scalar.float_value == b.scalar.float_value;
    case yaml::Kind::kString:
      return a.scalar.text == b.scalar.text;
    default:
      return false;
  }
}

// Whether `actual` holds everything `expected` says (maps by key, arrays item by item from the
// start, leaves equal); nullopt when it does, else why not.
std::optional<std::string> compare(const DNode& actual, const DNode& expected) {
  if (expected.is_map()) {
    if (!actual.is_map()) return "Expected map, but was " + type_name(actual);
    for (const auto& re : expected.entries) {
      bool matched = false;
      for (const auto& le : actual.entries) {
        if (!same_key(le.key, re.key)) continue;
        if (auto why = compare(*le.value, *re.value)) return why;
        matched = true;
      }
      if (!matched) return std::string("Expected at least one map item to match by key");
    }
    return std::nullopt;
  }
  if (expected.is_array()) {
    if (!actual.is_array()) return "Expected array, but was " + type_name(actual);
    for (size_t i = 0; i < expected.entries.size(); ++i) {
      if (i >= actual.entries.size()) {
        return std::string("Expected to have matching number of array items");
      }
      if (auto why = compare(*actual.entries[i].value, *expected.entries[i].value)) return why;
    }
    return std::nullopt;
  }
  if (leaf_equal(actual, expected)) return std::nullopt;
  return "Expected leaf values to match " + type_name(actual) + " " + type_name(expected);
}

// The tree of a value, to read: a fragment's own tree (no copy; writers go through `own`),
// other values converted.
DPtr node_of(const sl::Value& v) {
  if (DPtr n = fragment_node(v)) return n;
  return from_starlark(v, {});
}

// ytt edits the left side in place: a fragment put in several places (`a: #@ x`, `b: #@ x`)
// is one node there, and an edit through one place shows in all of them. Such a node is
// edited in place here too; any other is copied first when shared (copy-on-write).
// overlay.apply on a fragment (outside matchers and `via`): ytt edits the fragment's own nodes,
// which every holder of them sees (other fragments, places in templates), and what it puts in
// from the right is a deep copy. That is done here too while this is set.
thread_local bool g_apply_in_place = false;

DNode& edit_target(DPtr& left) { return g_apply_in_place || left->aliased ? *left : own(left); }

// What the right side puts into the left one: ytt puts a deep copy, so a fragment shared in
// several places on the right is not one node in the places it lands. Shared here otherwise
// (nothing edits it in place), a subtree holding such a node is copied.
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

// ---- The operations (op.go, map.go, array.go, document.go) ---------------------------------

enum class OpKind { kMerge, kRemove, kReplace, kInsert, kAppend, kAssert };

const char* op_name(OpKind k) {
  switch (k) {
    case OpKind::kMerge:
      return "overlay/merge";
    case OpKind::kRemove:
      return "overlay/remove";
    case OpKind::kReplace:
      return "overlay/replace";
    case OpKind::kInsert:
      return "overlay/insert";
    case OpKind::kAppend:
      return "overlay/append";
    case OpKind::kAssert:
      return "overlay/assert";
  }
  return "";
}

// One pass over the annotations (most items have none): the operation named, merge when
// none is; two different ones are an error (the same one twice is not).
OpKind which_op(const std::vector<Ann>& anns) {
  static constexpr OpKind kOps[] = {OpKind::kMerge,  OpKind::kRemove, OpKind::kReplace,
                                    OpKind::kInsert, OpKind::kAppend, OpKind::kAssert};
  std::optional<OpKind> found;
  for (const Ann& a : anns) {
    if (!is_overlay_ann(a)) continue;
    for (OpKind k : kOps) {
      if (a.name != op_name(k)) continue;
      if (found && *found != k) throw Fail{"Expected to find only one overlay operation"};
      found = k;
    }
  }
  return found.value_or(OpKind::kMerge);
}

// `#@overlay/replace via=, or_add=` and `#@overlay/insert before=, after=, via=`.
struct Edit {
  std::optional<sl::Value> via;
  bool or_add = false;
  bool before = false, after = false;
};

bool as_bool_kwarg(const sl::Value& v) {
  if (!v.is_bool()) throw Fail{"expected starlark.Bool, but was " + go_type_name(v)};
  return v.as_bool();
}

Edit parse_replace(const std::vector<Ann>& anns) {
  Edit e;
  if (const Ann* a = find_ann(anns, "overlay/replace")) {
    for (const auto& [name, v] : a->kwargs) {
      if (name == "via") {
        if (!callable(v)) {
          throw Fail{
              "Expected 'overlay/replace' annotation keyword argument 'via' to be function, but "
              "was " +
              go_type_name(v)};
        }
        e.via = v;
      } else if (name == "or_add") {
        e.or_add = as_bool_kwarg(v);
      } else {
        throw Fail{"Unknown 'overlay/replace' annotation keyword argument '" + name + "'"};
      }
    }
  }
  return e;
}

Edit parse_insert(const std::vector<Ann>& anns) {
  Edit e;
  const Ann* a = find_ann(anns, "overlay/insert");
  if (!a) throw Fail{"Expected item to have 'overlay/insert' annotation"};
  if (a->kwargs.empty()) {
    throw Fail{
        "Expected 'overlay/insert' annotation to have at least one keyword argument (before=..., "
        "after=...)"};
  }
  for (const auto& [name, v] : a->kwargs) {
    if (name == "before") {
      e.before = as_bool_kwarg(v);
    } else if (name == "after") {
      e.after = as_bool_kwarg(v);
    } else if (name == "via") {
      if (!callable(v)) {
        throw Fail{
            "Expected 'overlay/insert' annotation keyword argument 'via' to be function, but was " +
            go_type_name(v)};
      }
      e.via = v;
    } else {
      throw Fail{"Unknown 'overlay/insert' annotation keyword argument '" + name + "'"};
    }
  }
  return e;
}

class Op {
 public:
  Op(sl::Thread& thread, const OverlayMode& mode)
      : thread_(thread), mode_(mode), right_owned_(mode.release_right) {}

  // Applies `right` onto the value in `left`. True when the caller should put `right` in
  // left's place instead (a scalar or null on the right).
  bool apply(DPtr& left, const DPtr& right, const Expects& defaults) {
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

  // Applies one overlay document to the documents of `sets` (ytt keeps each file's documents
  // apart so that they print under their file).
  void apply_doc(std::vector<std::vector<DDoc>*>& sets, const DDoc& doc, const Expects& defaults,
                 bool exact) {
    try {
      doc_op(sets, doc, defaults, exact);
    } catch (Fail& f) {
      throw Fail{"Document on line " + compact(doc.span) + ": " + f.message, false, f.unsupported};
    }
  }

 private:
  static std::string left_type(const DPtr& left) { return left ? type_name(*left) : "null"; }

  // Map keys to positions, built for large maps only (a small map is scanned).
  struct MapIndex {
    bool built = false;
    std::unordered_map<std::string, size_t> at;
    static std::string key(const Scalar& k) {
      return std::to_string(static_cast<int>(k.kind)) + ":" + key_text(k);
    }
  };

  Match match_of(const DEntry& e, const Expects& defaults, Target t) {
    return parse_match(anns_of(e), defaults, t, false);
  }

  bool call_matcher(const sl::Value& by, std::vector<sl::Value> args) {
    InOverlayCallback callback;
    auto r = thread_.call(by, args);
    if (!r.ok()) throw Fail{r.error().message};
    if (!r->is_bool()) throw Fail{"expected starlark.Bool, but was " + go_type_name(*r)};
    return r->as_bool();
  }

  // `by="name"`: overlay.map_key(name) without the round trip through Starlark.
  static bool map_key_matches(const std::string& name, const DNode& left, const DNode& right) {
    auto pull = [&](const DNode& n) -> const DNode& {
      if (!n.is_map()) {
        throw Fail{"overlay.map_key_matcher: Expected value to be map, but was " + type_name(n)};
      }
      for (const auto& e : n.entries) {
        if (e.key.kind == yaml::Kind::kString && e.key.text == name) return *e.value;
      }
      throw Fail{"overlay.map_key_matcher: Expected to find map item with key '" + name +
                 "', but did not"};
    };
    const DNode& a = pull(left);
    const DNode& b = pull(right);
    return leaf_equal(a, b);
  }

  std::vector<size_t> map_matches(DNode& left, const DEntry& re, const Match& m, MapIndex& index) {
    std::vector<size_t> idx;
    std::vector<const diag::Span*> spans;
    if (!m.by) {
      if (left.entries.size() > 16) {
        if (!index.built) {
          index.at.clear();
          for (size_t i = 0; i < left.entries.size(); ++i) {
            index.at.emplace(MapIndex::key(left.entries[i].key), i);
          }
          index.built = true;
        }
        auto it = index.at.find(MapIndex::key(re.key));
        if (it != index.at.end()) idx.push_back(it->second);
      } else {
        for (size_t i = 0; i < left.entries.size(); ++i)
          if (same_key(left.entries[i].key, re.key)) idx.push_back(i);
      }
    } else if (m.by->is(sl::Kind::kString)) {
      std::string name(m.by->as_string());
      for (size_t i = 0; i < left.entries.size(); ++i)
        if (map_key_matches(name, *left.entries[i].value, *re.value)) idx.push_back(i);
    } else if (callable(*m.by)) {
      for (size_t i = 0; i < left.entries.size(); ++i) {
        const DEntry& le = left.entries[i];
        auto k = make_node(le.key.kind);
        k->scalar = le.key;
        if (call_matcher(*m.by, {to_starlark(k), to_starlark(le.value), to_starlark(re.value)})) {
          idx.push_back(i);
        }
      }
    } else {
      throw Fail{
          "Expected 'overlay/match' annotation keyword argument 'by' to be either string (for "
          "map key) or function, but was " +
          go_type_name(*m.by)};
    }
    for (size_t i : idx) spans.push_back(&left.entries[i].span);
    Counter(m.expects, thread_).check(spans);
    return idx;
  }

  std::vector<size_t> array_matches(const DNode& left, const DEntry& re, const Match& m) {
    std::vector<size_t> idx;
    if (m.unannotated) {
      Counter(m.expects, thread_).check({});
      return idx;
    }
    if (!m.by)
      throw Fail{"Expected 'overlay/match' annotation keyword argument 'by' to be specified"};
    if (m.by->is(sl::Kind::kString)) {
      std::string name(m.by->as_string());
      for (size_t i = 0; i < left.entries.size(); ++i)
        if (map_key_matches(name, *left.entries[i].value, *re.value)) idx.push_back(i);
    } else if (callable(*m.by)) {
      for (size_t i = 0; i < left.entries.size(); ++i) {
        if (call_matcher(*m.by, {sl::Value::from_int(static_cast<int64_t>(i)),
                                 to_starlark(left.entries[i].value), to_starlark(re.value)})) {
          idx.push_back(i);
        }
      }
    } else {
      throw Fail{
          "Expected 'overlay/match' annotation keyword argument 'by' to be either string (for "
          "map key) or function, but was " +
          go_type_name(*m.by)};
    }
    std::vector<const diag::Span*> spans;
    for (size_t i : idx) spans.push_back(&left.entries[i].span);
    Counter(m.expects, thread_).check(spans);
    return idx;
  }

  // The value a replace or insert puts in: the right node's, or what `via` makes of the old
  // and new values.
  DPtr edited_value(const Edit& e, const DPtr* existing, const DPtr& right) {
    if (!e.via) return right;
    sl::Value old = existing && *existing ? to_starlark(*existing) : sl::Value::none();
    InOverlayCallback callback;
    auto r = thread_.call(*e.via, std::vector<sl::Value>{old, to_starlark(right)});
    if (!r.ok()) throw Fail{r.error().message};
    return from_starlark(*r, right->span);
  }

  // `#@overlay/assert`: the left value must hold what the right one says (or pass `via`).
  void check_assert(const std::vector<Ann>& anns, const DPtr& left, const DPtr& right) {
    std::optional<sl::Value> via;
    if (const Ann* a = find_ann(anns, "overlay/assert")) {
      for (const auto& [name, v] : a->kwargs) {
        if (name == "via") {
          via = v;
        } else {
          throw Fail{"Unknown 'overlay/assert' annotation keyword argument '" + name + "'"};
        }
      }
    }
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

  DEntry copy_of(const DEntry& re, DPtr value) const {
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
  void take_value(DEntry& le, const DEntry& re) {
    le.value = re.value;
    le.span = re.span;
    carry_rules(le, re);
  }
  void carry_rules(DEntry& le, const DEntry& re) {
    if (!mode_.carry_validations) return;
    for (const auto& a : anns_of(re)) {
      if (a.name == "schema/validation" || a.name == "assert/validate") le.anns.push_back(a);
    }
  }

  void map_item(DNode& left, const DEntry& re, const Expects& defaults, MapIndex& index) {
    OpKind op = which_op(anns_of(re));
    switch (op) {
      case OpKind::kMerge: {
        Expects child = child_defaults(anns_of(re), defaults);
        Match m = match_of(re, defaults, Target::kMapItem);
        std::vector<size_t> idx;
        if (!matches_or_skip([&] { idx = map_matches(left, re, m, index); })) return;
        if (idx.empty()) {
          left.entries.push_back(copy_of(re, re.value));
          if (index.built) index.at.emplace(MapIndex::key(re.key), left.entries.size() - 1);
          return;
        }
        for (size_t i : idx) {
          DEntry& le = left.entries[i];
          bool replace = true;
          if (le.value && !le.value->is_null()) {
            replace = apply(le.value, re.value, child);
          }
          if (replace && mode_.plain && !re.value->is_map()) {
            le = copy_of(re, re.value);  // replaced whole, the left item's rules too
          } else if (replace) {
            take_value(le, re);
          } else {
            carry_rules(le, re);  // a merged collection keeps its own position
          }
        }
        return;
      }
      case OpKind::kRemove: {
        Match m = match_of(re, defaults, Target::kMapItem);
        std::vector<size_t> idx;
        if (!matches_or_skip([&] { idx = map_matches(left, re, m, index); })) return;
        erase_at(left.entries, idx);
        if (!idx.empty()) index.built = false;
        return;
      }
      case OpKind::kReplace: {
        Match m = match_of(re, defaults, Target::kMapItem);
        Edit e = parse_replace(anns_of(re));
        std::vector<size_t> idx;
        if (!matches_or_skip([&] { idx = map_matches(left, re, m, index); })) return;
        for (size_t i : idx) {
          DEntry& le = left.entries[i];
          DPtr v = edited_value(e, &le.value, re.value);
          // The right item takes the left one's place whole: the left item's rules
          // (`@assert/validate` on a data value) go with it, as in ytt.
          le = copy_of(re, v);
        }
        if (idx.empty() && e.or_add) {
          left.entries.push_back(copy_of(re, edited_value(e, nullptr, re.value)));
          if (index.built) index.at.emplace(MapIndex::key(re.key), left.entries.size() - 1);
        }
        return;
      }
      case OpKind::kAssert: {
        Expects child = child_defaults(anns_of(re), defaults);
        Match m = match_of(re, defaults, Target::kMapItem);
        std::vector<size_t> idx;
        if (!matches_or_skip([&] { idx = map_matches(left, re, m, index); })) return;
        for (size_t i : idx) {
          check_assert(anns_of(re), left.entries[i].value, re.value);
          if (left.entries[i].value) apply(left.entries[i].value, re.value, child);
        }
        return;
      }
      default: {
        std::string name = op_name(op);
        throw Fail{"Found @" + name + " on map item (" + compact(re.span) +
                   "); only array items can be annotated with @" + name};
      }
    }
  }

  void array_item(DNode& left, const DEntry& re, const Expects& defaults) {
    OpKind op = which_op(anns_of(re));
    switch (op) {
      case OpKind::kMerge: {
        Expects child = child_defaults(anns_of(re), defaults);
        Match m = match_of(re, defaults, Target::kArrayItem);
        std::vector<size_t> idx;
        if (!matches_or_skip([&] { idx = array_matches(left, re, m); })) return;
        if (idx.empty()) {
          left.entries.push_back(copy_of(re, re.value));
          return;
        }
        for (size_t i : idx) {
          DEntry& le = left.entries[i];
          bool replace = true;
          if (le.value && !le.value->is_null()) replace = apply(le.value, re.value, child);
          if (replace) {
            take_value(le, re);
          } else {
            carry_rules(le, re);  // a merged collection keeps its own position
          }
        }
        return;
      }
      case OpKind::kRemove: {
        Match m = match_of(re, defaults, Target::kArrayItem);
        std::vector<size_t> idx;
        if (!matches_or_skip([&] { idx = array_matches(left, re, m); })) return;
        erase_at(left.entries, idx);
        return;
      }
      case OpKind::kReplace: {
        Match m = match_of(re, defaults, Target::kArrayItem);
        Edit e = parse_replace(anns_of(re));
        std::vector<size_t> idx;
        if (!matches_or_skip([&] { idx = array_matches(left, re, m); })) return;
        for (size_t i : idx) {
          DPtr v = edited_value(e, &left.entries[i].value, re.value);
          left.entries[i] = copy_of(re, v);
        }
        if (idx.empty() && e.or_add) {
          left.entries.push_back(copy_of(re, edited_value(e, nullptr, re.value)));
        }
        return;
      }
      case OpKind::kInsert: {
        Match m = match_of(re, defaults, Target::kArrayItem);
        std::vector<size_t> idx;
        if (!matches_or_skip([&] { idx = array_matches(left, re, m); })) return;
        Edit e = parse_insert(anns_of(re));
        std::vector<DEntry> out;
        out.reserve(left.entries.size() + idx.size());
        size_t h = 0;
        for (size_t i = 0; i < left.entries.size(); ++i) {
          if (h < idx.size() && idx[h] == i) {
            ++h;
            DEntry ins = copy_of(re, edited_value(e, &left.entries[i].value, re.value));
            if (e.before) out.push_back(ins);
            out.push_back(std::move(left.entries[i]));
            if (e.after) out.push_back(std::move(ins));
          } else {
            out.push_back(std::move(left.entries[i]));
          }
        }
        left.entries = std::move(out);
        return;
      }
      case OpKind::kAppend:
        left.entries.push_back(copy_of(re, re.value));
        return;
      case OpKind::kAssert: {
        Expects child = child_defaults(anns_of(re), defaults);
        Match m = match_of(re, defaults, Target::kArrayItem);
        std::vector<size_t> idx;
        if (!matches_or_skip([&] { idx = array_matches(left, re, m); })) return;
        for (size_t i : idx) {
          check_assert(anns_of(re), left.entries[i].value, re.value);
          if (left.entries[i].value) apply(left.entries[i].value, re.value, child);
        }
        return;
      }
    }
  }

  // Runs a match; false when it failed a `when=` condition (the operation is skipped).
  template <typename F>
  static bool matches_or_skip(F&& f) {
    try {
      f();
    } catch (Fail& fail) {
      if (fail.conditional) return false;
      throw;
    }
    return true;
  }

  template <typename T>
  static void erase_at(std::vector<T>& v, const std::vector<size_t>& idx) {
    if (idx.empty()) return;
    std::vector<T> kept;
    kept.reserve(v.size() - idx.size());
    size_t h = 0;
    for (size_t i = 0; i < v.size(); ++i) {
      if (h < idx.size() && idx[h] == i) {
        ++h;
        continue;
      }
      kept.push_back(std::move(v[i]));
    }
    v = std::move(kept);
  }

  using DocIdx = std::pair<size_t, size_t>;

  std::vector<DocIdx> doc_matches(std::vector<std::vector<DDoc>*>& sets, const DDoc& doc,
                                  const Match& m, bool exact) {
    std::vector<DocIdx> idx;
    std::vector<const diag::Span*> spans;
    if (exact) {
      if (sets.empty() || sets[0]->empty()) {
        throw Fail{"Expected to find exactly one left document when merging exactly two documents"};
      }
      idx.push_back({0, 0});
      spans.push_back(&(*sets[0])[0].span);
    } else {
      if (!m.by) {
        throw Fail{"Expected 'overlay/match' annotation keyword argument 'by'  to be specified"};
      }
      if (!callable(*m.by)) {
        throw Fail{
            "Expected 'overlay/match' annotation keyword argument 'by' to be function, but was " +
            go_type_name(*m.by)};
      }
      int64_t combined = 0;
      sl::Value right = doc.value ? to_starlark(doc.value) : sl::Value::none();
      for (size_t i = 0; i < sets.size(); ++i) {
        for (size_t j = 0; j < sets[i]->size(); ++j) {
          const DDoc& d = (*sets[i])[j];
          sl::Value lv = d.value ? to_starlark(d.value) : sl::Value::none();
          if (call_matcher(*m.by, {sl::Value::from_int(combined), lv, right})) {
            idx.push_back({i, j});
            spans.push_back(&d.span);
          }
          ++combined;
        }
      }
    }
    Counter(m.expects, thread_).check(spans);
    return idx;
  }

  DDoc doc_copy(const DDoc& doc, DPtr value) const {
    DDoc d = doc;
    d.anns = without_overlay_anns(doc.anns);
    d.value = own_identity(std::move(value));
    return d;
  }

  void doc_op(std::vector<std::vector<DDoc>*>& sets, const DDoc& doc, const Expects& defaults,
              bool exact) {
    OpKind op = which_op(doc.anns);
    DPtr right = doc.value ? doc.value : make_node(yaml::Kind::kNull, doc.span);
    switch (op) {
      case OpKind::kMerge: {
        Expects child = child_defaults(doc.anns, defaults);
        Match m = parse_match(doc.anns, defaults, Target::kDocument, exact);
        std::vector<DocIdx> idx;
        if (!matches_or_skip([&] { idx = doc_matches(sets, doc, m, exact); })) return;
        for (auto [i, j] : idx) {
          DDoc& d = (*sets[i])[j];
          bool replace = true;
          if (d.value && !d.value->is_null()) replace = apply(d.value, right, child);
          if (replace) d.value = right;
        }
        return;
      }
      case OpKind::kRemove: {
        Match m = parse_match(doc.anns, defaults, Target::kDocument, exact);
        std::vector<DocIdx> idx;
        if (!matches_or_skip([&] { idx = doc_matches(sets, doc, m, exact); })) return;
        for (size_t i = 0; i < sets.size(); ++i) {
          std::vector<size_t> here;
          for (auto [a, b] : idx)
            if (a == i) here.push_back(b);
          erase_at(*sets[i], here);
        }
        return;
      }
      case OpKind::kReplace: {
        Match m = parse_match(doc.anns, defaults, Target::kDocument, exact);
        Edit e = parse_replace(doc.anns);
        std::vector<DocIdx> idx;
        if (!matches_or_skip([&] { idx = doc_matches(sets, doc, m, exact); })) return;
        for (auto [i, j] : idx) {
          DDoc& d = (*sets[i])[j];
          d = doc_copy(doc, edited_value(e, &d.value, right));
        }
        if (idx.empty() && e.or_add) {
          if (sets.empty()) {
            throw unsupported(
                "Replacing or adding a document (overlay/replace or_add=True) when no document is "
                "left");
          }
          sets[0]->push_back(doc_copy(doc, edited_value(e, nullptr, right)));
        }
        return;
      }
      case OpKind::kInsert: {
        Match m = parse_match(doc.anns, defaults, Target::kDocument, exact);
        std::vector<DocIdx> idx;
        if (!matches_or_skip([&] { idx = doc_matches(sets, doc, m, exact); })) return;
        Edit e = parse_insert(doc.anns);
        for (size_t i = 0; i < sets.size(); ++i) {
          std::vector<DDoc> out;
          for (size_t j = 0; j < sets[i]->size(); ++j) {
            DDoc& d = (*sets[i])[j];
            bool hit = std::find(idx.begin(), idx.end(), DocIdx{i, j}) != idx.end();
            if (!hit) {
              out.push_back(std::move(d));
              continue;
            }
            DDoc ins = doc_copy(doc, edited_value(e, &d.value, right));
            if (e.before) out.push_back(ins);
            out.push_back(std::move(d));
            if (e.after) out.push_back(std::move(ins));
          }
          *sets[i] = std::move(out);
        }
        return;
      }
      case OpKind::kAppend:
        if (sets.empty())
          throw unsupported("Appending a document (overlay/append) when no document is left");
        sets.back()->push_back(doc_copy(doc, right));
        return;
      case OpKind::kAssert: {
        Expects child = child_defaults(doc.anns, defaults);
        Match m = parse_match(doc.anns, defaults, Target::kDocument, exact);
        std::vector<DocIdx> idx;
        if (!matches_or_skip([&] { idx = doc_matches(sets, doc, m, exact); })) return;
        for (auto [i, j] : idx) {
          DDoc& d = (*sets[i])[j];
          check_assert(doc.anns, d.value, right);
          if (d.value) apply(d.value, right, child);
        }
        return;
      }
    }
  }

  sl::Thread& thread_;
  OverlayMode mode_;
  bool right_owned_ = false;  // the right node being applied is held only through its parents
};

}  // namespace

// ---- Entry points --------------------------------------------------------------------------

namespace {

// An overlay operation on the document itself (`#@overlay/replace` above `---`, a match with
// `expects=`...): everything but the default merge of its children.
bool has_document_op(const DDoc& d) {
  for (const auto& a : d.anns) {
    if (a.name.starts_with("overlay/") && a.name != "overlay/match-child-defaults") return true;
  }
  return false;
}

}  // namespace

void overlay_document(DPtr& left, const DDoc& right, sl::Thread& thread, const Files& files,
                      bool default_missing_ok, bool plain, bool schema_merge, diag::Span* left_span,
                      bool release_right) {
  g_files = &files;
  OverlayMode mode;
  mode.plain = plain;
  // Only the plain merge releases, and only a value the document alone holds (a document
  // handed to several libraries shares its tree; a document operation may apply it twice).
  mode.release_right =
      release_right && right.value && right.value.use_count() == 1 && !has_document_op(right);
  // ytt keeps a merged item's own annotations: a data value's rules do not replace the
  // item's ("left side type and metas are preserved").
  (void)schema_merge;
  Op op(thread, mode);
  std::string where = "Document on line " + compact(right.span) + ": ";
  if (has_document_op(right)) {
    // ytt's pre-processing overlay: the one document so far on the left, `right` on the
    // right, exact matching; what comes out first is the result.
    std::vector<DDoc> set(1);
    set[0].value = left;
    if (left_span) set[0].span = *left_span;
    std::vector<std::vector<DDoc>*> sets = {&set};
    Expects root;
    if (default_missing_ok) root.missing_ok = sl::Value::from_bool(true);
    try {
      op.apply_doc(sets, right, root, true);
    } catch (Fail& f) {
      if (f.unsupported)
        throw Unsupported{"an overlay on the data values document that ytt crashes on"};
      throw YttError{" " + f.message};
    }
    if (set.empty()) throw Unsupported{"removing the whole data values document (ytt panics)"};
    left = set[0].value ? set[0].value : make_node(yaml::Kind::kNull, set[0].span);
    if (left_span) *left_span = set[0].span;
    return;
  }
  try {
    Expects root;
    if (default_missing_ok) root.missing_ok = sl::Value::from_bool(true);
    Expects defaults = child_defaults(right.anns, root);
    if (!right.value) {  // an empty document replaces whatever was there (ytt's mergeDocument)
      left = make_node(yaml::Kind::kNull, right.span);
      return;
    }
    const DNode& r = *right.value;
    // The first document is taken as it is (shared, copy-on-write); a scalar (null too)
    // replaces whatever was there (a plain file's array too); collections merge into their
    // own kind.
    if (!left || left->is_null() || r.is_scalar() || (plain && r.is_array())) {
      left = right.value;
      return;
    }
    if (left->kind != r.kind) {
      throw Fail{"Expected " + type_name(r) + ", but was " + type_name(*left)};
    }
    op.apply(left, right.value, defaults);
  } catch (Fail& f) {
    // The caller puts its stage ("Overlaying data values (...):") in front; run() lays the
    // whole message out.
    throw YttError{" " + where + f.message};
  }
}

void overlay_output(std::vector<std::vector<DDoc>>& sets, const std::vector<DDoc>& overlays,
                    const std::vector<std::string>& overlay_files, sl::Thread& thread,
                    const Files& files) {
  g_files = &files;
  Op op(thread, OverlayMode{});
  std::vector<std::vector<DDoc>*> left;
  for (auto& s : sets) left.push_back(&s);
  for (const auto& doc : overlays) {
    try {
      op.apply_doc(left, doc, Expects{}, false);
    } catch (Fail& f) {
      std::string order;
      for (size_t i = 0; i < overlay_files.size(); ++i) order += (i ? ", " : "") + overlay_files[i];
      throw OverlayError{"Overlaying (in following order: " + order + "): " + f.message,
                         f.unsupported};
    }
  }
}

// ---- @ytt:overlay --------------------------------------------------------------------------

namespace {

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

sl::Value overlay_module(const Files& files) {
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
              DPtr l = node_of(m.args[1]);
              DPtr r = node_of(m.args[2]);
              auto pull = [&](const DNode& n) -> std::variant<const DNode*, std::string> {
                if (!n.is_map()) return "Expected value to be map, but was " + type_name(n);
                for (const auto& e : n.entries)
                  if (e.key.kind == yaml::Kind::kString && e.key.text == name) return e.value.get();
                return "Expected to find map item with key '" + name + "', but did not";
              };
              auto a = pull(*l);
              if (auto* s = std::get_if<std::string>(&a))
                return sl::fail_error("overlay.map_key_matcher: " + *s);
              auto b = pull(*r);
              if (auto* s = std::get_if<std::string>(&b))
                return sl::fail_error("overlay.map_key_matcher: " + *s);
              return sl::Value::from_bool(
                  leaf_equal(*std::get<const DNode*>(a), *std::get<const DNode*>(b)));
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
