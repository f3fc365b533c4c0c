// Documents (ytt's document.go, and the matching of document_match_annotation.go): each
// operation an overlay document can name (merge, remove, replace, insert, append, assert), over
// the documents of every file that its `by=` matcher picks (or, for data values' two-document
// merge, the one document on the left).
#include <algorithm>

#include "ytt/overlay/op.h"

namespace hintkit::ytt::overlay {

std::vector<Op::DocIdx> Op::doc_matches(std::vector<std::vector<DDoc>*>& sets, const DDoc& doc,
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

DDoc Op::doc_copy(const DDoc& doc, DPtr value) const {
  DDoc d = doc;
  d.anns = without_overlay_anns(doc.anns);
  d.value = own_identity(std::move(value));
  return d;
}

bool Op::matched_docs(std::vector<std::vector<DDoc>*>& sets, const DDoc& doc,
                      const Expects& defaults, bool exact, std::vector<DocIdx>& idx) {
  Match m = parse_match(doc.anns, defaults, Target::kDocument, exact);
  return matches_or_skip([&] { idx = doc_matches(sets, doc, m, exact); });
}

void Op::doc_op(std::vector<std::vector<DDoc>*>& sets, const DDoc& doc, const Expects& defaults,
                bool exact) {
  OpKind op = which_op(doc.anns);
  DPtr right = doc.value ? doc.value : make_node(yaml::Kind::kNull, doc.span);
  switch (op) {
    case OpKind::kMerge: {
      Expects child = child_defaults(doc.anns, defaults);
      std::vector<DocIdx> idx;
      if (!matched_docs(sets, doc, defaults, exact, idx)) return;
      for (auto [i, j] : idx) {
        DDoc& d = (*sets[i])[j];
        bool replace = true;
        if (d.value && !d.value->is_null()) replace = apply(d.value, right, child);
        if (replace) d.value = right;
      }
      return;
    }
    case OpKind::kRemove: {
      std::vector<DocIdx> idx;
      if (!matched_docs(sets, doc, defaults, exact, idx)) return;
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
      std::vector<DocIdx> idx;
      if (!matched_docs(sets, doc, defaults, exact, idx)) return;
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
      std::vector<DocIdx> idx;
      if (!matched_docs(sets, doc, defaults, exact, idx)) return;
      for (auto [i, j] : idx) {
        DDoc& d = (*sets[i])[j];
        check_assert(doc.anns, d.value, right);
        if (d.value) apply(d.value, right, child);
      }
      return;
    }
  }
}

}  // namespace hintkit::ytt::overlay
