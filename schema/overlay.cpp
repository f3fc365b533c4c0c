// ytt overlays as data values and schema documents use them: map items merge by key, array
// items append unless `#@overlay/match by=...` picks items to merge; `replace`, `remove`,
// `append`, `insert`; `missing_ok`, `expects`, `match-child-defaults`.
#include <unordered_map>

#include "schema/internal.h"

namespace hintkit::schema {

namespace {

struct OverlayFail {
  std::vector<std::string> context;  // outermost first
  std::string message;
};

const Files* g_files = nullptr;  // for labels of flag values while an overlay runs

std::string where(const diag::Span& s) {
  if (g_files) {
    if (const SourceFile* f = g_files->find(s.file); f && !f->label.empty()) {
      return f->label + ":" + std::to_string(s.begin.line);
    }
  }
  return pos_text(s);
}

std::string entry_label(const DEntry& e, bool is_map) {
  if (is_map) {
    return "Map item (key '" + key_text(e.key) + "') on line " + where(e.span) + ":";
  }
  return "Array item on line " + where(e.span) + ":";
}

struct MatchSpec {
  bool missing_ok = false;
  std::optional<int64_t> expects;
  sl::Value by;
  bool has_by = false;
};

class Overlayer {
 public:
  Overlayer(sl::Thread& thread, bool lenient) : thread_(thread), lenient_(lenient) {}
  bool carry_validations_ = true;  // data values (not schema) bring their own rules

  MatchSpec spec_of(const std::vector<Ann>& anns, bool inherited_missing_ok) {
    MatchSpec s;
    s.missing_ok = inherited_missing_ok;
    if (const Ann* m = find_ann(anns, "overlay/match")) {
      if (const sl::Value* v = m->kwarg("missing_ok")) s.missing_ok = v->truth();
      if (const sl::Value* v = m->kwarg("by")) {
        s.by = *v;
        s.has_by = true;
      }
      if (const sl::Value* v = m->kwarg("expects")) s.expects = v->to_int64();
    }
    return s;
  }

  std::string op_of(const std::vector<Ann>& anns) {
    for (auto it = anns.rbegin(); it != anns.rend(); ++it) {
      if (it->name == "overlay/remove") return "remove";
      if (it->name == "overlay/replace") return "replace";
      if (it->name == "overlay/append") return "append";
      if (it->name == "overlay/insert") return "insert";
      if (it->name == "overlay/merge") return "merge";
    }
    return "merge";
  }

  bool child_missing_ok(const std::vector<Ann>& anns, bool inherited) {
    if (const Ann* m = find_ann(anns, "overlay/match-child-defaults")) {
      if (const sl::Value* v = m->kwarg("missing_ok")) return v->truth();
    }
    return inherited;
  }

  static std::vector<Ann> keep_anns(const std::vector<Ann>& anns) {
    std::vector<Ann> out;
    for (const auto& a : anns)
      if (a.name.rfind("overlay/", 0) != 0) out.push_back(a);
    return out;
  }

  // Merges value `right` into `left` (both values of the same node); true when `left` was
  // replaced rather than merged into.
  // One matched entry: scalars and replacements take the right side, collections merge;
  // data values also bring their own validation rules along.
  void merge_entry(DEntry& le, const DEntry& re, bool replace, bool child_ok,
                   std::vector<std::string>& ctx) {
    if (replace || re.value->is_scalar()) {
      le.value = re.value;
      le.span = re.span;
    } else if (merge_value(le.value, re.value, child_ok, ctx)) {
      le.span = re.span;
    }
    if (carry_validations_) {
      for (const auto& a : re.anns) {
        if (a.name == "schema/validation" || a.name == "assert/validate") le.anns.push_back(a);
      }
    }
  }

  bool merge_value(DPtr& left, const DPtr& right, bool missing_ok, std::vector<std::string>& ctx) {
    if (!left || left->is_null() ||
        (lenient_ && (left->kind != right->kind || right->is_array()))) {
      left = right;
      return true;
    }
    if (right->is_map()) {
      if (!left->is_map()) {
        throw OverlayFail{ctx, "Expected map, but was " + kind_word(*left)};
      }
      merge_map(own(left), *right, missing_ok, ctx);
    } else if (right->is_array()) {
      if (!left->is_array()) {
        throw OverlayFail{ctx, "Expected array, but was " + kind_word(*left)};
      }
      merge_array(own(left), *right, missing_ok, ctx);
    } else {
      left = right;
      return true;
    }
    return false;
  }

  static std::string kind_word(const DNode& n) { return std::string(ytt_type_name(n.kind)); }

  void merge_map(DNode& left, const DNode& right, bool inherited_missing_ok,
                 std::vector<std::string>& ctx) {
    std::unordered_map<std::string, size_t> index;
    bool use_index = left.entries.size() > 16;
    if (use_index) {
      for (size_t i = 0; i < left.entries.size(); ++i) {
        index.emplace(std::to_string(static_cast<int>(left.entries[i].key.kind)) +
                          key_text(left.entries[i].key),
                      i);
      }
    }
    std::vector<bool> removed;
    for (const auto& re : right.entries) {
      MatchSpec spec = spec_of(re.anns, inherited_missing_ok);
      std::string op = op_of(re.anns);
      bool child_ok = child_missing_ok(re.anns, inherited_missing_ok);
      ctx.push_back(entry_label(re, true));
      long found = -1;
      if (use_index) {
        auto it = index.find(std::to_string(static_cast<int>(re.key.kind)) + key_text(re.key));
        if (it != index.end() && !(it->second < removed.size() && removed[it->second])) {
          found = static_cast<long>(it->second);
        }
      } else {
        for (size_t i = 0; i < left.entries.size(); ++i) {
          if (same_key(left.entries[i].key, re.key) && !(i < removed.size() && removed[i])) {
            found = static_cast<long>(i);
            break;
          }
        }
      }
      int64_t want = spec.expects.value_or(1);
      if (found < 0) {
        if (!spec.missing_ok && !(spec.expects && *spec.expects == 0) && op != "append") {
          throw OverlayFail{ctx, "Expected number of matched nodes to be " + std::to_string(want) +
                                     ", but was 0"};
        }
        if (op != "remove") {
          DEntry ne;
          ne.key = re.key;
          ne.anns = keep_anns(re.anns);
          ne.span = re.span;
          ne.value = make_node(yaml::Kind::kNull, re.value->span);
          if (re.value->is_scalar() || op == "replace") {
            ne.value = re.value;
          } else {
            merge_value(ne.value, re.value, child_ok, ctx);
          }
          left.entries.push_back(std::move(ne));
          if (use_index) {
            index.emplace(std::to_string(static_cast<int>(re.key.kind)) + key_text(re.key),
                          left.entries.size() - 1);
          }
        }
      } else {
        DEntry& le = left.entries[static_cast<size_t>(found)];
        if (op == "remove") {
          if (removed.size() < left.entries.size()) removed.resize(left.entries.size(), false);
          removed[static_cast<size_t>(found)] = true;
        } else if (op == "replace") {
          le.value = re.value;
          le.span = re.span;
          auto kept = keep_anns(re.anns);
          if (!kept.empty()) le.anns = kept;
        } else {
          merge_entry(le, re, /*replace=*/false, child_ok, ctx);
        }
      }
      ctx.pop_back();
    }
    if (!removed.empty()) {
      std::vector<DEntry> kept;
      kept.reserve(left.entries.size());
      for (size_t i = 0; i < left.entries.size(); ++i) {
        if (i < removed.size() && removed[i]) continue;
        kept.push_back(std::move(left.entries[i]));
      }
      left.entries = std::move(kept);
    }
  }

  bool matches(const MatchSpec& spec, size_t i, const DEntry& le, const DEntry& re) {
    if (spec.by.is(sl::Kind::kString)) {
      std::string key(spec.by.as_string());
      if (!le.value->is_map() || !re.value->is_map()) return false;
      DEntry* a = le.value->find(key);
      DEntry* b = re.value->find(key);
      return a && b && yaml::equal(to_yaml(*a->value), to_yaml(*b->value));
    }
    std::vector<sl::Value> args = {sl::Value::from_int(static_cast<int64_t>(i)),
                                   to_starlark(le.value), to_starlark(re.value)};
    auto r = thread_.call(spec.by, args);
    if (!r.ok()) throw OverlayFail{{}, r.error().message};
    return r->truth();
  }

  void merge_array(DNode& left, const DNode& right, bool inherited_missing_ok,
                   std::vector<std::string>& ctx) {
    // Each right item adds at most one item (appended arrays grow to exactly this).
    left.entries.reserve(left.entries.size() + right.entries.size());
    for (const auto& re : right.entries) {
      MatchSpec spec = spec_of(re.anns, inherited_missing_ok);
      std::string op = op_of(re.anns);
      bool child_ok = child_missing_ok(re.anns, inherited_missing_ok);
      if (!spec.has_by && op == "merge") op = "append";
      if (op == "append") {
        DEntry ne;
        ne.anns = keep_anns(re.anns);
        ne.span = re.span;
        ne.value = re.value;
        left.entries.push_back(std::move(ne));
        continue;
      }
      ctx.push_back(entry_label(re, false));
      std::vector<size_t> hits;
      if (spec.has_by) {
        for (size_t i = 0; i < left.entries.size(); ++i)
          if (matches(spec, i, left.entries[i], re)) hits.push_back(i);
      }
      int64_t want = spec.expects.value_or(1);
      if (static_cast<int64_t>(hits.size()) != want && !(spec.missing_ok && hits.empty())) {
        throw OverlayFail{ctx, "Expected number of matched nodes to be " + std::to_string(want) +
                                   ", but was " + std::to_string(hits.size())};
      }
      if (hits.empty()) {
        if (op != "remove") {
          DEntry ne;
          ne.anns = keep_anns(re.anns);
          ne.span = re.span;
          ne.value = re.value;
          left.entries.push_back(std::move(ne));
        }
      } else if (op == "remove") {
        std::vector<DEntry> kept;
        size_t h = 0;
        for (size_t i = 0; i < left.entries.size(); ++i) {
          if (h < hits.size() && hits[h] == i) {
            ++h;
            continue;
          }
          kept.push_back(std::move(left.entries[i]));
        }
        left.entries = std::move(kept);
      } else if (op == "insert") {
        DEntry ne;
        ne.anns = keep_anns(re.anns);
        ne.span = re.span;
        ne.value = re.value;
        const Ann* ins = find_ann(re.anns, "overlay/insert");
        bool before = ins && ins->kwarg("before") && ins->kwarg("before")->truth();
        size_t at = before ? hits.front() : hits.back() + 1;
        left.entries.insert(left.entries.begin() + static_cast<long>(at), std::move(ne));
      } else {
        for (size_t i : hits) merge_entry(left.entries[i], re, op == "replace", child_ok, ctx);
      }
      ctx.pop_back();
    }
  }

 private:
  sl::Thread& thread_;
  bool lenient_;  // flags: a value of another kind replaces (the type check reports it)
};

}  // namespace

void overlay_document(DPtr& left, const DDoc& right, sl::Thread& thread, const Files& files,
                      bool default_missing_ok, bool plain, bool schema_merge) {
  g_files = &files;
  Overlayer o(thread, plain);
  o.carry_validations_ = !schema_merge;
  std::vector<std::string> ctx = {"Document on line " + where(right.span) + ":"};
  bool missing_ok = default_missing_ok;
  if (const Ann* m = right.ann("overlay/match-child-defaults")) {
    if (const sl::Value* v = m->kwarg("missing_ok")) missing_ok = v->truth();
  }
  try {
    if (right.value->is_null()) return;
    if (!left || left->is_null() || !right.value->is_map() || !left->is_map()) {
      if (left && left->is_map() && !right.value->is_map() && !right.value->is_null()) {
        throw OverlayFail{ctx, "Expected " + Overlayer::kind_word(*right.value) + ", but was map"};
      }
      left = right.value;  // the first document is taken as it is (shared, copy-on-write)
      return;
    }
    o.merge_map(own(left), *right.value, missing_ok, ctx);
  } catch (OverlayFail& f) {
    std::string out;
    std::string indent = "  ";
    for (const auto& c : f.context) {
      out += "\n" + indent + c;
      indent += "  ";
    }
    out += "\n" + indent + f.message;
    throw YttError{out};
  }
}

}  // namespace hintkit::schema
