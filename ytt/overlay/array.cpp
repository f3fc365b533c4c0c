// Array items (ytt's array.go, and the matching of array_item_match_annotation.go): each
// operation a right array item can name (merge, remove, replace, insert, append, assert), over
// the left array's items that its `by=` matcher picks; an item without `#@overlay/match` is
// appended.
#include "ytt/overlay/op.h"

namespace hintkit::ytt::overlay {

std::vector<size_t> Op::array_matches(const DNode& left, const DEntry& re, const Match& m) {
  if (m.unannotated) {
    Counter(m.expects, thread_).check({});
    return {};
  }
  if (!m.by) {
    throw Fail{"Expected 'overlay/match' annotation keyword argument 'by' to be specified"};
  }
  std::vector<size_t> idx = by_matches(left, re, *m.by, Target::kArrayItem);
  std::vector<const diag::Span*> spans;
  for (size_t i : idx) spans.push_back(&left.entries[i].span);
  Counter(m.expects, thread_).check(spans);
  return idx;
}

void Op::array_item(DNode& left, const DEntry& re, const Expects& defaults) {
  const std::vector<Ann>& anns = anns_of(re);
  OpKind op = which_op(anns);
  switch (op) {
    case OpKind::kMerge: {
      Expects child = child_defaults(anns, defaults);
      Match m = parse_match(anns, defaults, Target::kArrayItem, false);
      std::vector<size_t> idx;
      if (!matches_or_skip([&] { idx = array_matches(left, re, m); })) return;
      if (idx.empty()) {
        left.entries.push_back(copy_of(re, re.value));
        return;
      }
      merge_items(left, idx, re, child);
      return;
    }
    case OpKind::kRemove: {
      Match m = parse_match(anns, defaults, Target::kArrayItem, false);
      std::vector<size_t> idx;
      if (!matches_or_skip([&] { idx = array_matches(left, re, m); })) return;
      erase_at(left.entries, idx);
      return;
    }
    case OpKind::kReplace: {
      Match m = parse_match(anns, defaults, Target::kArrayItem, false);
      Edit e = parse_replace(anns);
      std::vector<size_t> idx;
      if (!matches_or_skip([&] { idx = array_matches(left, re, m); })) return;
      replace_items(left, idx, re, e);
      return;
    }
    case OpKind::kInsert: {
      Match m = parse_match(anns, defaults, Target::kArrayItem, false);
      std::vector<size_t> idx;
      if (!matches_or_skip([&] { idx = array_matches(left, re, m); })) return;
      Edit e = parse_insert(anns);
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
      Expects child = child_defaults(anns, defaults);
      Match m = parse_match(anns, defaults, Target::kArrayItem, false);
      std::vector<size_t> idx;
      if (!matches_or_skip([&] { idx = array_matches(left, re, m); })) return;
      assert_items(left, idx, re, child);
      return;
    }
  }
}

}  // namespace hintkit::ytt::overlay
