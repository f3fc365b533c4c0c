// ytt's overlay engine (pkg/yttlibrary/overlay), the one engine behind every overlay: data
// values and schema documents, `#@overlay/match` documents over template output, and
// `overlay.apply` of `@ytt:overlay`. A right-hand node names one operation (merge by default,
// remove, replace, insert, append, assert); its `#@overlay/match` picks the left nodes it acts
// on (by key, by a `by=` matcher) and checks how many it found (`expects`, `missing_ok`,
// `when`, with `#@overlay/match-child-defaults` filling in what an item leaves unsaid).
// Failures are `OverlayError`s holding ytt's flat message ("Document on line a.yml:3: Map
// item (key 'b') on line ...: Expected ..."); `multi_line_error` lays it out as ytt prints it.
//
// This file holds the entry points; the engine is laid out as ytt's package is, one file each
// (op.h says where to start): op.cpp (op.go), map.cpp (map.go), array.cpp (array.go),
// document.cpp (document.go), match_annotation.cpp (the match annotations and
// match_annotation_expects_kwarg.go), annotations.cpp (annotations.go, replace_annotation.go,
// insert_annotation.go, assert_annotation.go), compare.cpp (compare.go), api.cpp (api.go).
#include "ytt/overlay/overlay.h"

#include "ytt/overlay/op.h"

namespace hintkit::ytt {

using overlay::child_defaults;
using overlay::compact;
using overlay::Expects;
using overlay::Fail;
using overlay::Op;
using overlay::type_name;

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
  overlay::g_files = &files;
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
  overlay::g_files = &files;
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

}  // namespace hintkit::ytt
