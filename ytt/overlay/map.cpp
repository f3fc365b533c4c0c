// Map items (ytt's map.go, and the matching of map_item_match_annotation.go): each operation a
// right map item can name (merge, remove, replace, assert), over the left map's items that its
// key or its `by=` matcher picks.
#include "ytt/overlay/op.h"

namespace hintkit::ytt::overlay {

namespace {

// A map at most this long is scanned for a key; a longer one gets a key index (MapIndex), built
// once per map and kept as items are added, since a large data values map is matched item by
// item against every right item.
constexpr size_t kScannedMapSize = 16;

}  // namespace

std::vector<size_t> Op::map_matches(DNode& left, const DEntry& re, const Match& m,
                                    MapIndex& index) {
  std::vector<size_t> idx;
  if (!m.by) {
    if (left.entries.size() > kScannedMapSize) {
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
  } else {
    idx = by_matches(left, re, *m.by, Target::kMapItem);
  }
  std::vector<const diag::Span*> spans;
  for (size_t i : idx) spans.push_back(&left.entries[i].span);
  Counter(m.expects, thread_).check(spans);
  return idx;
}

void Op::map_item(DNode& left, const DEntry& re, const Expects& defaults, MapIndex& index) {
  const std::vector<Ann>& anns = anns_of(re);
  OpKind op = which_op(anns);
  // An item added at the end is one more key the index (when built) must know.
  auto appended = [&] {
    if (index.built) index.at.emplace(MapIndex::key(re.key), left.entries.size() - 1);
  };
  switch (op) {
    case OpKind::kMerge: {
      Expects child = child_defaults(anns, defaults);
      Match m = parse_match(anns, defaults, Target::kMapItem, false);
      std::vector<size_t> idx;
      if (!matches_or_skip([&] { idx = map_matches(left, re, m, index); })) return;
      if (idx.empty()) {
        left.entries.push_back(copy_of(re, re.value));
        appended();
        return;
      }
      merge_items(left, idx, re, child);
      return;
    }
    case OpKind::kRemove: {
      Match m = parse_match(anns, defaults, Target::kMapItem, false);
      std::vector<size_t> idx;
      if (!matches_or_skip([&] { idx = map_matches(left, re, m, index); })) return;
      erase_at(left.entries, idx);
      if (!idx.empty()) index.built = false;
      return;
    }
    case OpKind::kReplace: {
      Match m = parse_match(anns, defaults, Target::kMapItem, false);
      Edit e = parse_replace(anns);
      std::vector<size_t> idx;
      if (!matches_or_skip([&] { idx = map_matches(left, re, m, index); })) return;
      if (replace_items(left, idx, re, e)) appended();
      return;
    }
    case OpKind::kAssert: {
      Expects child = child_defaults(anns, defaults);
      Match m = parse_match(anns, defaults, Target::kMapItem, false);
      std::vector<size_t> idx;
      if (!matches_or_skip([&] { idx = map_matches(left, re, m, index); })) return;
      assert_items(left, idx, re, child);
      return;
    }
    default: {
      std::string name = op_name(op);
      throw Fail{"Found @" + name + " on map item (" + compact(re.span) +
                 "); only array items can be annotated with @" + name};
    }
  }
}

}  // namespace hintkit::ytt::overlay
