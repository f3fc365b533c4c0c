// Internal to ytt/overlay (included by its own .cpp files only; the front door is overlay.h):
// the pieces the overlay engine's files share, one file each as in ytt's pkg/yttlibrary/overlay.
// Start at `Op` (op.cpp, ytt's op.go): it walks a right node onto a left one and hands each item
// to map.cpp (map.go), array.cpp (array.go) or document.cpp (document.go), which read the item's
// annotations (match_annotation.cpp: `#@overlay/match`, `expects`, `missing_ok`, `when`,
// `#@overlay/match-child-defaults`; annotations.cpp: which operation, `replace`/`insert`/`assert`
// arguments), find the left items it matches and apply the operation. compare.cpp is ytt's
// compare.go; api.cpp is the `@ytt:overlay` module (api.go); overlay.cpp holds the entry points.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "ytt/overlay/overlay.h"

namespace hintkit::ytt::overlay {

// ---- Shared state and small helpers (op.cpp) -------------------------------------------------

// A failure inside the engine. `conditional`: a count check that failed under `when=`, which
// the operation takes as "do nothing" rather than as an error.
struct Fail {
  std::string message;
  bool conditional = false;
  bool unsupported = false;  // ytt itself crashes here: hintkit refuses (exit 2)
};

// Where ytt v0.48.0 panics, hintkit names the case and stops with exit 2 instead.
Fail unsupported(const std::string& what);

extern const Files* g_files;  // names files in positions while an overlay runs

// Matchers and `via` functions running: their fragments are views of the overlay's own nodes
// (ytt's too), which an `overlay.apply` inside them may edit as ytt does.
extern constinit thread_local int g_overlay_callbacks;
struct InOverlayCallback {
  InOverlayCallback() { ++g_overlay_callbacks; }
  ~InOverlayCallback() { --g_overlay_callbacks; }
  InOverlayCallback(const InOverlayCallback&) = delete;
  InOverlayCallback& operator=(const InOverlayCallback&) = delete;
};

// ytt edits the left side in place: a fragment put in several places (`a: #@ x`, `b: #@ x`)
// is one node there, and an edit through one place shows in all of them. Such a node is
// edited in place here too; any other is copied first when shared (copy-on-write).
// overlay.apply on a fragment (outside matchers and `via`): ytt edits the fragment's own nodes,
// which every holder of them sees (other fragments, places in templates), and what it puts in
// from the right is a deep copy. That is done here too while this is set.
extern constinit thread_local bool g_apply_in_place;

inline DNode& edit_target(DPtr& left) {
  return g_apply_in_place || left->aliased ? *left : own(left);
}

// What the right side puts into the left one: ytt puts a deep copy, so a fragment shared in
// several places on the right is not one node in the places it lands. Shared here otherwise
// (nothing edits it in place), a subtree holding such a node is copied.
DPtr own_identity(DPtr value);

// The tree of a value, to read: a fragment's own tree (no copy; writers go through `own`),
// other values converted.
DPtr node_of(const sl::Value& v);

// ytt's Position.AsCompactString: "file:line", "file:?" when the line is unknown.
std::string compact(const diag::Span& s);

inline bool callable(const sl::Value& v) {
  return v.is(sl::Kind::kFunction) || v.is(sl::Kind::kBuiltin);
}

// yamlmeta.TypeName of a value.
inline std::string type_name(const DNode& n) { return std::string(ytt_type_name(n.kind)); }

inline bool is_overlay_ann(const Ann& a) { return a.name.rfind("overlay/", 0) == 0; }

std::vector<Ann> without_overlay_anns(const std::vector<Ann>& anns);

inline const std::vector<Ann>& anns_of(const DEntry& e) { return e.anns.get(); }

// ---- Matching (match_annotation.cpp) ----------------------------------------------------------

// `expects=`, `missing_ok=`, `when=` (match_annotation_expects_kwarg.go).
struct Expects {
  std::optional<sl::Value> expects, missing_ok, when;

  void fill(const Expects& d) {
    if (!expects) expects = d.expects;
    if (!missing_ok) missing_ok = d.missing_ok;
    if (!when) when = d.when;
  }
};

// Checks the number of matches against an item's Expects.
class Counter {
 public:
  Counter(const Expects& e, sl::Thread& t) : e_(e), thread_(t) {}

  // Throws Fail when the number of matches is not what the annotation expects.
  void check(const std::vector<const diag::Span*>& matches);

 private:
  Fail count_fail(std::string message) const;
  std::optional<Fail> check_value(const sl::Value& v, const std::string& kwarg,
                                  const std::vector<const diag::Span*>& matches);

  Expects e_;
  sl::Thread& thread_;
};

// `#@overlay/match-child-defaults`: what the children of a node leave unsaid.
Expects child_defaults(const std::vector<Ann>& anns, const Expects& parent);

enum class Target { kMapItem, kArrayItem, kDocument };

struct Match {
  std::optional<sl::Value> by;
  Expects expects;
  bool unannotated = false;  // an array item without `#@overlay/match`: appended
};

// `#@overlay/match` of a map item, an array item or a document (`exact`: the two-document
// merge of data values, which needs no arguments).
Match parse_match(const std::vector<Ann>& anns, const Expects& defaults, Target t, bool exact);

// ---- The operations' annotations (annotations.cpp) --------------------------------------------

enum class OpKind { kMerge, kRemove, kReplace, kInsert, kAppend, kAssert };

const char* op_name(OpKind k);

// One pass over the annotations (most items have none): the operation named, merge when
// none is; two different ones are an error (the same one twice is not).
OpKind which_op(const std::vector<Ann>& anns);

// `#@overlay/replace via=, or_add=` and `#@overlay/insert before=, after=, via=`.
struct Edit {
  std::optional<sl::Value> via;
  bool or_add = false;
  bool before = false, after = false;
};

Edit parse_replace(const std::vector<Ann>& anns);
Edit parse_insert(const std::vector<Ann>& anns);

// `#@overlay/assert via=`: the function, when given.
std::optional<sl::Value> parse_assert(const std::vector<Ann>& anns);

// ---- Comparing values (compare.cpp, api.cpp) --------------------------------------------------

bool leaf_equal(const DNode& a, const DNode& b);

// Whether `actual` holds everything `expected` says (maps by key, arrays item by item from the
// start, leaves equal); nullopt when it does, else why not.
std::optional<std::string> compare(const DNode& actual, const DNode& expected);

// overlay.map_key(name)'s comparison (ytt's compareByMapKey), also behind `by="name"`: whether
// both maps hold equal values under `name`, or why they cannot be compared.
std::variant<bool, std::string> compare_by_map_key(std::string_view name, const DNode& left,
                                                   const DNode& right);

// ---- The operations (op.cpp, map.cpp, array.cpp, document.cpp) -------------------------------

class Op {
 public:
  Op(sl::Thread& thread, const OverlayMode& mode)
      : thread_(thread), mode_(mode), right_owned_(mode.release_right) {}

  // Applies `right` onto the value in `left`. True when the caller should put `right` in
  // left's place instead (a scalar or null on the right).
  bool apply(DPtr& left, const DPtr& right, const Expects& defaults);

  // Applies one overlay document to the documents of `sets` (ytt keeps each file's documents
  // apart so that they print under their file).
  void apply_doc(std::vector<std::vector<DDoc>*>& sets, const DDoc& doc, const Expects& defaults,
                 bool exact);

 private:
  // Map keys to positions, built for large maps only (a small map is scanned).
  struct MapIndex {
    bool built = false;
    std::unordered_map<std::string, size_t> at;
    static std::string key(const Scalar& k) {
      return std::to_string(static_cast<int>(k.kind)) + ":" + key_text(k);
    }
  };
  using DocIdx = std::pair<size_t, size_t>;

  // op.cpp: what map, array and document items share.
  bool call_matcher(const sl::Value& by, std::vector<sl::Value> args);
  std::vector<size_t> by_matches(const DNode& left, const DEntry& re, const sl::Value& by,
                                 Target t);
  DPtr edited_value(const Edit& e, const DPtr* existing, const DPtr& right);
  void check_assert(const std::vector<Ann>& anns, const DPtr& left, const DPtr& right);
  DEntry copy_of(const DEntry& re, DPtr value) const;
  void take_value(DEntry& le, const DEntry& re);
  void carry_rules(DEntry& le, const DEntry& re);
  void merge_items(DNode& left, const std::vector<size_t>& idx, const DEntry& re,
                   const Expects& child);
  bool replace_items(DNode& left, const std::vector<size_t>& idx, const DEntry& re, const Edit& e);
  void assert_items(DNode& left, const std::vector<size_t>& idx, const DEntry& re,
                    const Expects& child);

  // map.cpp
  std::vector<size_t> map_matches(DNode& left, const DEntry& re, const Match& m, MapIndex& index);
  void map_item(DNode& left, const DEntry& re, const Expects& defaults, MapIndex& index);

  // array.cpp
  std::vector<size_t> array_matches(const DNode& left, const DEntry& re, const Match& m);
  void array_item(DNode& left, const DEntry& re, const Expects& defaults);

  // document.cpp
  std::vector<DocIdx> doc_matches(std::vector<std::vector<DDoc>*>& sets, const DDoc& doc,
                                  const Match& m, bool exact);
  // The documents `doc`'s match annotation selects, into `idx`; false when a `when=`
  // condition skips the operation.
  bool matched_docs(std::vector<std::vector<DDoc>*>& sets, const DDoc& doc, const Expects& defaults,
                    bool exact, std::vector<DocIdx>& idx);
  DDoc doc_copy(const DDoc& doc, DPtr value) const;
  void doc_op(std::vector<std::vector<DDoc>*>& sets, const DDoc& doc, const Expects& defaults,
              bool exact);

  sl::Thread& thread_;
  OverlayMode mode_;
  bool right_owned_ = false;  // the right node being applied is held only through its parents
};

// Runs a match; false when it failed a `when=` condition (the operation is skipped).
template <typename F>
bool matches_or_skip(F&& f) {
  try {
    f();
  } catch (Fail& fail) {
    if (fail.conditional) return false;
    throw;
  }
  return true;
}

// Removes the elements at `idx` (ascending).
template <typename T>
void erase_at(std::vector<T>& v, const std::vector<size_t>& idx) {
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

}  // namespace hintkit::ytt::overlay
