// ytt's template.EvaluationCtx: the instructions a compiled template's program calls
// (`start_ctx`, `start_node`, `set_node`, `template.replace`, ...) build its nodes, for both
// dialects: YAML nodes into documents, text nodes into a string (`TemplateRuntime`). The yaml
// dialect's `template.replace` is its own class (`YamlReplace`), as in ytt's yamltemplate.
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <unordered_map>

#include "ytt/template/template.h"

namespace hintkit::ytt {

namespace {

std::string_view go_type_name(NodeKind k) {
  switch (k) {
    case NodeKind::kDocSet:
      return "document set";
    case NodeKind::kDoc:
      return "document";
    case NodeKind::kMap:
      return "map";
    case NodeKind::kMapItem:
      return "map item";
    case NodeKind::kArray:
      return "array";
    case NodeKind::kArrayItem:
      return "array item";
    case NodeKind::kTextRoot:
      return "*texttemplate.NodeRoot";
    case NodeKind::kText:
      return "*texttemplate.NodeText";
  }
  return "?";
}

// A node being built: where it lives in the output tree.
struct ENode {
  NodeKind kind = NodeKind::kDocSet;
  std::shared_ptr<std::vector<DDoc>> docs;         // kDocSet, kDoc
  DPtr coll;                                       // kMap/kArray; items: their parent
  std::shared_ptr<std::vector<std::string>> text;  // kTextRoot, kText
  size_t index = 0;                                // kDoc, kMapItem, kArrayItem, kText
  bool removed = false;                            // template.replace took it out of its parent
};

struct EvalCtx {
  bool text = false;  // dialect
  std::unordered_map<int, std::vector<Ann>> pending_anns;
  std::unordered_map<int, DPtr> pending_keys;
  bool root_init = false;
  ENode root;
  std::vector<ENode> parents;
  std::vector<int> parent_tags;
};

sl::Error op_error(const CompiledTemplate& c, std::string_view op, const std::string& msg) {
  return sl::fail_error(c.op(op) + ": " + msg);
}

// What template.replace returns (ytt's StarlarkNoop).
class Noop : public sl::HostObject {
 public:
  std::string_view type_name() const override { return "noop"; }
  std::optional<std::string> hash_error() const override {
    return std::string("unhashable type: noop");
  }
  std::string repr() const override { return "noop"; }
  bool truth() const override { return false; }
};

bool is_noop(const sl::Value& v) {
  return v.is(sl::Kind::kHost) && dynamic_cast<const Noop*>(v.object()) != nullptr;
}

bool same_entry_key(const DEntry& a, const DEntry& b) {
  if (a.key_node || b.key_node) return false;  // Go compares collection keys by identity
  return same_key(a.key, b.key);
}

// `template.replace(value)` in the yaml dialect (ytt's yamltemplate EvaluationCtx.Replace): the
// node on top of the innermost context gives way, at once, to the items of `value` in its
// parent (documents in a document set, map items in a map, array items in an array).
class YamlReplace {
 public:
  // `implicit_overrides`: the library's --implicit-map-key-overrides.
  YamlReplace(const std::string& file, bool implicit_overrides)
      : file_(file), implicit_overrides_(implicit_overrides) {}

  // The node on top of `parents` gives way to the items of `with` in its parent; the error's
  // text when it cannot (empty when it did).
  std::string apply(std::vector<ENode>& parents, const sl::Value& with) const {
    if (parents.empty()) {
      return "expected to replace document value, map item or array item, but found null";
    }
    ENode& top = parents.back();
    const ENode* parent = parents.size() >= 2 ? &parents[parents.size() - 2] : nullptr;
    auto parent_is = [&](NodeKind k, std::string_view what) -> std::string {
      if (!parent) return "expected to find " + std::string(what) + ", but was not enough parents";
      if (parent->kind == k) return {};
      if (k == NodeKind::kDocSet) {
        return "expected to find document set, but was " + std::string(go_type_name(parent->kind));
      }
      return "expected parent of " + std::string(go_type_name(top.kind)) + " to be " +
             (k == NodeKind::kMap ? "a map" : "an array") + ", but was a " +
             std::string(go_type_name(parent->kind));
    };
    std::string err;
    switch (top.kind) {
      case NodeKind::kDoc:
        err = parent_is(NodeKind::kDocSet, "document set");
        if (err.empty()) err = replace_doc(*parent, top, with);
        break;
      case NodeKind::kMapItem:
        err = parent_is(NodeKind::kMap, "map");
        if (err.empty()) err = replace_map_item(*parent, top, with);
        break;
      case NodeKind::kArrayItem:
        err = parent_is(NodeKind::kArray, "array");
        if (err.empty()) err = replace_array_item(*parent, top, with);
        break;
      default:
        return "expected to replace document value, map item or array item, but found " +
               std::string(go_type_name(top.kind));
    }
    return err;
  }

 private:
  // The replaced node left its parent but stays on the stack, as in ytt (where the removed
  // node is still referenced): later writes to it land in a container of its own, and
  // replacing it again finds no placeholder.
  static void detach(ENode& top, DDoc doc) {
    top.docs = std::make_shared<std::vector<DDoc>>();
    top.docs->push_back(std::move(doc));
    top.index = 0;
    top.removed = true;
  }
  static void detach(ENode& top, DEntry entry, yaml::Kind kind) {
    top.coll = make_node(kind, entry.span);
    top.coll->entries.push_back(std::move(entry));
    top.index = 0;
    top.removed = true;
  }

  static bool is_sequence(const sl::Value& v) {
    return !fragment_node(v) &&
           (v.is(sl::Kind::kList) || v.is(sl::Kind::kTuple) || v.is(sl::Kind::kSet));
  }

  std::string replace_doc(const ENode& parent, ENode& top, const sl::Value& with) const {
    std::vector<DDoc> docs;
    if (const auto* ds = fragment_docs(with)) {
      docs = *ds;
    } else if (is_sequence(with)) {
      for (const auto& it : with.items()) {
        DDoc d;
        d.value = from_starlark(it, {});
        d.file = file_;
        docs.push_back(std::move(d));
      }
    } else {
      return "expected value to be document set, but was " + yaml_type_name(with);
    }
    if (top.removed) return "expected to find placeholder document in document set";
    auto& all = *parent.docs;
    const auto at = static_cast<std::ptrdiff_t>(top.index);
    DDoc placeholder = std::move(all[top.index]);
    all.erase(all.begin() + at);
    all.insert(all.begin() + at, docs.begin(), docs.end());
    detach(top, std::move(placeholder));
    return {};
  }

#if defined(__GNUC__) && !defined(__clang__)
  // Once this is inlined at -O2, GCC 12 reports the engaged value of `at` below as maybe used
  // uninitialized: its known false positive on std::optional (GCC bug 80635).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
  std::string replace_map_item(const ENode& parent, ENode& top, const sl::Value& with) const {
    DNode& map = *parent.coll;
    const diag::Span span = top.coll->entries[top.index].span;
    std::vector<DEntry> items;
    bool carries_meta = false;  // fragment items keep their annotations: a repeated key is an error
    if (DPtr frag = fragment_node(with); frag && frag->is_map()) {
      items = frag->entries;
      carries_meta = true;
    } else if (!fragment_node(with) && (with.is(sl::Kind::kDict) || with.is(sl::Kind::kStruct))) {
      items = from_starlark(with, span, InnerSpan::kSame)->entries;
      for (auto& it : items) it.span = span;
    } else {
      return "expected value to be map, but was " + yaml_type_name(with);
    }
    std::optional<size_t> at;  // the placeholder's place in the map
    if (!top.removed) at = top.index;
    // ytt's MapItemOverride: an item with the key of one already in the map removes that one
    // (the last with that key), unless the item came with a fragment and is not annotated
    // (and overrides are not implicit).
    for (const auto& it : items) {
      std::optional<size_t> prev;
      for (size_t i = 0; i < map.entries.size(); ++i) {
        if (same_entry_key(map.entries[i], it)) prev = i;
      }
      if (!prev) continue;
      if (carries_meta && !implicit_overrides_ && !find_ann(it.anns, "yaml/map-key-override")) {
        return "expected key '" + go_key_text(it.key) +
               "' to not be specified again (unless 'yaml/map-key-override' annotation is added)";
      }
      if (at && *prev == *at) {
        at.reset();
      } else if (at && *prev < *at) {
        --*at;
      }
      map.entries.erase(map.entries.begin() + static_cast<std::ptrdiff_t>(*prev));
    }
    if (!at) return "expected to find placeholder map item in map";
    DEntry placeholder = std::move(map.entries[*at]);
    const auto pos = map.entries.begin() + static_cast<std::ptrdiff_t>(*at);
    map.entries.insert(map.entries.erase(pos), items.begin(), items.end());
    detach(top, std::move(placeholder), yaml::Kind::kMap);
    return {};
  }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  static std::string replace_array_item(const ENode& parent, ENode& top, const sl::Value& with) {
    DNode& arr = *parent.coll;
    const diag::Span span = top.coll->entries[top.index].span;
    std::vector<DEntry> items;
    if (DPtr frag = fragment_node(with); frag && frag->is_array()) {
      items = frag->entries;
    } else if (is_sequence(with)) {
      items = from_starlark(with, span, InnerSpan::kSame)->entries;
      for (auto& it : items) it.span = span;
    } else {
      return "expected value to be array, but was " + yaml_type_name(with);
    }
    if (top.removed) return "expected to find placeholder array item in array";
    const auto at = static_cast<std::ptrdiff_t>(top.index);
    DEntry placeholder = std::move(arr.entries[top.index]);
    const auto pos = arr.entries.erase(arr.entries.begin() + at);
    arr.entries.insert(pos, items.begin(), items.end());
    detach(top, std::move(placeholder), yaml::Kind::kArray);
    return {};
  }

  const std::string& file_;
  const bool implicit_overrides_;
};

class TemplateRuntime {
 public:
  TemplateRuntime(std::shared_ptr<const CompiledTemplate> c, std::string file,
                  bool implicit_overrides)
      : c_(std::move(c)), file_(std::move(file)), implicit_overrides_(implicit_overrides) {}

  sl::Predeclared builtins(const std::shared_ptr<TemplateRuntime>& self) {
    sl::Predeclared p;
    auto bind = [&](std::string_view name,
                    sl::Result<sl::Value> (TemplateRuntime::*fn)(const sl::Call&)) {
      std::string full = c_->op(name);
      // Functions of a loaded library template keep calling these after it ran: the
      // runtime lives as long as they do (it holds nothing that points back).
      std::shared_ptr<TemplateRuntime> rt = self;
      p.emplace_back(full, sl::make_builtin(
                               full, [rt, fn](const sl::Call& call) { return ((*rt).*fn)(call); }));
    };
    bind("set_ctx_type", &TemplateRuntime::set_ctx_type);
    bind("start_ctx", &TemplateRuntime::start_ctx);
    bind("end_ctx", &TemplateRuntime::end_ctx);
    bind("start_node_annotation", &TemplateRuntime::start_node_annotation);
    bind("collect_node_annotation", &TemplateRuntime::collect_node_annotation);
    bind("start_node", &TemplateRuntime::start_node);
    bind("set_node", &TemplateRuntime::set_node);
    bind("set_map_item_key", &TemplateRuntime::set_map_item_key);
    return p;
  }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (auto n : {"set_ctx_type", "start_ctx", "end_ctx", "start_node_annotation",
                   "collect_node_annotation", "start_node", "set_node", "set_map_item_key"}) {
      out.push_back(c_->op(n));
    }
    return out;
  }

  // `template.replace(value)`: the yaml dialect replaces (YamlReplace); the call returns a
  // no-op value that `set_node` ignores.
  sl::Result<sl::Value> replace(const sl::Call& c) {
    if (c.args.size() != 1) return sl::fail_error("expected exactly one argument");
    if (auto hint = conversion_hint(c.args[0])) {
      return sl::fail_error("Unable to convert value: " + *hint);
    }
    if (ctxs_.empty()) return sl::fail_error("expected to find an evaluation context");
    EvalCtx& ctx = ctxs_.back();
    if (ctx.text) return sl::fail_error("unsupported operation");
    std::string err = YamlReplace(file_, implicit_overrides_).apply(ctx.parents, c.args[0]);
    if (!err.empty()) return sl::fail_error(err);
    return sl::Value(new Noop());
  }

  // The documents of the file once the program ran.
  std::vector<DDoc> result() {
    if (root_docs_) return std::move(*root_docs_);
    return {};
  }
  // The text of a text template once the program ran.
  std::string text_result() { return std::move(root_text_); }

  // Once the program ran: contexts left open (by a failure, or by a template function whose
  // failure `assert.try_to` caught) hold its values (a lambda in an annotation), which hold
  // its module, whose predeclared ops hold this runtime: a cycle through C++ that the
  // interpreter's collector cannot see, so it is cut here. Functions called later open their
  // own contexts.
  void drop_open_contexts() { ctxs_.clear(); }

 private:
  sl::Result<sl::Value> set_ctx_type(const sl::Call&) { return sl::Value::none(); }

  sl::Result<sl::Value> start_ctx(const sl::Call& c) {
    EvalCtx ctx;
    ctx.text =
        !c.args.empty() && c.args[0].is(sl::Kind::kString) && c.args[0].as_string() == "text";
    ctxs_.push_back(std::move(ctx));
    return sl::Value::none();
  }

  sl::Result<sl::Value> end_ctx(const sl::Call& c) {
    if (ctxs_.empty()) return op_error(*c_, "end_ctx", "unexpected ctx end");
    if (c.args.size() > 1) return op_error(*c_, "end_ctx", "expected zero or one argument");
    sl::Value ret;
    EvalCtx& top = ctxs_.back();
    if (c.args.size() == 1) {
      ret = c.args[0];
    } else {
      ret = root_value(top);
    }
    if (ctxs_.size() == 1 && !root_taken_ && top.root_init) {
      if (top.root.kind == NodeKind::kDocSet) {
        root_docs_ = top.root.docs;
        root_taken_ = true;
      } else if (top.root.kind == NodeKind::kTextRoot) {
        root_text_ = std::string(ret.as_string());
        root_taken_ = true;
      }
    }
    ctxs_.pop_back();
    return ret;
  }

  sl::Value root_value(EvalCtx& ctx) {
    if (!ctx.root_init) return ctx.text ? sl::Value::from_string("") : make_nil_fragment();
    const ENode& r = ctx.root;
    switch (r.kind) {
      case NodeKind::kTextRoot: {
        std::string s;
        for (const auto& piece : *r.text) s += piece;
        return sl::Value::from_string(s);
      }
      case NodeKind::kDocSet:
        return make_docset_fragment(*r.docs);
      case NodeKind::kMap:
      case NodeKind::kArray:
        return make_fragment(r.coll);
      default:
        return sl::Value::none();
    }
  }

  sl::Result<sl::Value> collect_node_annotation(const sl::Call& c) {
    std::vector<sl::Value> out;
    out.push_back(sl::make_tuple(std::vector<sl::Value>(c.args.begin(), c.args.end())));
    for (const auto& kw : c.kwargs) {
      out.push_back(sl::make_tuple({sl::Value::from_string(kw.name), kw.value}));
    }
    return sl::make_tuple(std::move(out));
  }

  static std::optional<int> tag_of(const sl::Value& v) {
    auto t = v.to_int64();
    if (!v.is(sl::Kind::kInt) || !t) return std::nullopt;
    return static_cast<int>(*t);
  }

  const TplNode* node(int tag) const {
    if (tag < 1 || static_cast<size_t>(tag) > c_->nodes.size()) return nullptr;
    return &c_->nodes[static_cast<size_t>(tag - 1)];
  }

  sl::Result<sl::Value> start_node_annotation(const sl::Call& c) {
    if (c.args.size() != 3)
      return op_error(*c_, "start_node_annotation", "expected exactly 3 arguments");
    auto tag = tag_of(c.args[0]);
    if (!tag || ctxs_.empty()) return op_error(*c_, "start_node_annotation", "expected a node tag");
    Ann a;
    a.name = std::string(c.args[1].as_string());
    auto vals = c.args[2].items();
    if (!vals.empty()) a.args = vals[0].items();
    for (size_t i = 1; i < vals.size(); ++i) {
      auto kv = vals[i].items();
      if (kv.size() == 2) a.kwargs.emplace_back(std::string(kv[0].as_string()), kv[1]);
    }
    a.span = ann_span(*tag, a.name);
    auto& pending = ctxs_.back().pending_anns[*tag];
    for (auto& p : pending) {
      if (p.name == a.name) {
        p = std::move(a);
        return sl::Value::none();
      }
    }
    pending.push_back(std::move(a));
    return sl::Value::none();
  }

  diag::Span ann_span(int tag, const std::string& name) const {
    auto it = c_->ann_spans.find({tag, name});
    return it == c_->ann_spans.end() ? diag::Span{} : it->second;
  }

  sl::Result<sl::Value> set_map_item_key(const sl::Call& c) {
    if (c.args.size() != 2)
      return op_error(*c_, "set_map_item_key", "expected exactly 2 arguments");
    auto tag = tag_of(c.args[0]);
    if (!tag || ctxs_.empty()) return op_error(*c_, "set_map_item_key", "expected a node tag");
    const TplNode* n = node(*tag);
    auto key = convert_starlark(c.args[1], n ? n->span : diag::Span{});
    if (!key.ok()) return key.error();
    ctxs_.back().pending_keys[*tag] = std::move(key).value();
    return sl::Value::none();
  }

  sl::Result<sl::Value> start_node(const sl::Call& c) {
    if (c.args.size() != 1) return op_error(*c_, "start_node", "expected exactly one argument");
    auto tag = tag_of(c.args[0]);
    if (!tag || ctxs_.empty()) return op_error(*c_, "start_node", "expected a node tag");
    std::string err = start(ctxs_.back(), *tag);
    if (!err.empty()) return op_error(*c_, "start_node", err);
    return sl::Value::none();
  }

  // A detached copy of a source node (value reset), before it joins its parent.
  struct Fresh {
    NodeKind kind;
    DDoc doc;
    DEntry entry;
    DPtr coll;
    std::string text;
  };

  Fresh fresh(EvalCtx& ctx, int tag, const TplNode& n) {
    Fresh f{n.kind, {}, {}, nullptr, {}};
    std::vector<Ann> anns;
    if (auto it = ctx.pending_anns.find(tag); it != ctx.pending_anns.end()) {
      anns = std::move(it->second);
      ctx.pending_anns.erase(it);
    }
    switch (n.kind) {
      case NodeKind::kDoc:
        f.doc.value = make_node(yaml::Kind::kNull, n.span);
        f.doc.anns = std::move(anns);
        f.doc.span = n.span;
        f.doc.file = file_;
        f.doc.implicit = n.implicit_doc;
        break;
      case NodeKind::kMapItem:
      case NodeKind::kArrayItem:
        f.entry.key = n.key;
        f.entry.key_node = n.key_node;
        f.entry.value = make_node(yaml::Kind::kNull, n.span);
        f.entry.span = n.span;
        if (!anns.empty()) f.entry.anns = std::move(anns);
        if (n.kind == NodeKind::kMapItem) {
          if (auto it = ctx.pending_keys.find(tag); it != ctx.pending_keys.end()) {
            const DPtr& k = it->second;
            if (k->is_scalar()) {
              f.entry.key = k->scalar;
              f.entry.key.kind = k->kind;
              f.entry.key_node = nullptr;
            } else {
              f.entry.key.kind = k->kind;
              f.entry.key_node = k;
            }
            ctx.pending_keys.erase(it);
          }
        }
        break;
      case NodeKind::kMap:
        f.coll = make_node(yaml::Kind::kMap, n.span);
        break;
      case NodeKind::kArray:
        f.coll = make_node(yaml::Kind::kArray, n.span);
        break;
      default:
        break;
    }
    return f;
  }

  bool wraps(const EvalCtx& ctx, NodeKind k) const {
    if (ctx.text) return k != NodeKind::kTextRoot;
    return k == NodeKind::kDoc || k == NodeKind::kMapItem || k == NodeKind::kArrayItem;
  }

  // The common ancestor of `curr` (counted as its own ancestor) and the parent of `tag`.
  int common_parent(int curr, int tag) const {
    int a = curr, b = node(tag)->parent;
    auto depth = [&](int t) { return t == kRootTag ? 0 : node(t)->depth; };
    auto up = [&](int t) { return t == kRootTag ? kRootTag : node(t)->parent; };
    while (depth(a) > depth(b)) a = up(a);
    while (depth(b) > depth(a)) b = up(b);
    while (a != b) {
      a = up(a);
      b = up(b);
    }
    return a;
  }

  std::string start(EvalCtx& ctx, int tag) {
    const TplNode* n = node(tag);
    if (!n) return "expected to find node tag " + std::to_string(tag);
    Fresh f = fresh(ctx, tag, *n);
    if (!ctx.root_init) {
      if (wraps(ctx, n->kind)) {
        std::string err = start(ctx, n->parent);
        if (!err.empty()) return err;
      } else {
        ctx.root_init = true;
        ctx.root = detached(f);
        ctx.parents.push_back(ctx.root);
        ctx.parent_tags.push_back(tag);
        return {};
      }
    }
    if (!ctx.parents.empty()) {
      int common = common_parent(ctx.parent_tags.back(), tag);
      bool found = false;
      for (size_t i = 0; i < ctx.parent_tags.size(); ++i) {
        if (ctx.parent_tags[i] == common) {
          ctx.parents.resize(i + 1);
          ctx.parent_tags.resize(i + 1);
          found = true;
          break;
        }
      }
      if (!found) return "expected to find node tag " + std::to_string(common) + " when unwinding";
      ENode added;
      std::string err = add_value(ctx.parents.back(), std::move(f), added);
      if (!err.empty()) return err;
      ctx.parents.push_back(std::move(added));
      ctx.parent_tags.push_back(tag);
      return {};
    }
    ctx.parents.push_back(detached(f));
    ctx.parent_tags.push_back(tag);
    return {};
  }

  // A root node (document set, map, array or text root) that has no parent.
  static ENode detached(Fresh& f) {
    ENode e;
    e.kind = f.kind;
    switch (f.kind) {
      case NodeKind::kDocSet:
        e.docs = std::make_shared<std::vector<DDoc>>();
        break;
      case NodeKind::kMap:
      case NodeKind::kArray:
        e.coll = f.coll;
        break;
      case NodeKind::kTextRoot:
        e.text = std::make_shared<std::vector<std::string>>();
        break;
      default:
        break;
    }
    return e;
  }

  static std::string cannot_contain(NodeKind parent, NodeKind child) {
    switch (parent) {
      case NodeKind::kDocSet:
        return "document sets can only contain documents; this is a " +
               std::string(go_type_name(child));
      case NodeKind::kDoc:
        return "documents can only contain arrays, maps, or scalars; this is a " +
               std::string(go_type_name(child));
      case NodeKind::kMap:
        return "maps can only contain map items; this is a " + std::string(go_type_name(child));
      case NodeKind::kMapItem:
        return "map items can only contain arrays, maps, or scalars; this is a " +
               std::string(go_type_name(child));
      case NodeKind::kArray:
        return "arrays can only contain array items; this is a " + std::string(go_type_name(child));
      case NodeKind::kArrayItem:
        return "array items can only contain maps, arrays, or scalars; this is a " +
               std::string(go_type_name(child));
      default:
        return "unsupported operation";
    }
  }

  DPtr& value_slot(const ENode& e) {
    if (e.kind == NodeKind::kDoc) return (*e.docs)[e.index].value;
    return e.coll->entries[e.index].value;
  }

  // parent.AddValue(child) for a node child; PrepareNode's duplicate-key rule included.
  std::string add_value(const ENode& parent, Fresh f, ENode& out) {
    out.kind = f.kind;
    bool coll = f.kind == NodeKind::kMap || f.kind == NodeKind::kArray;
    switch (parent.kind) {
      case NodeKind::kDocSet:
        if (f.kind != NodeKind::kDoc) return cannot_contain(parent.kind, f.kind);
        parent.docs->push_back(std::move(f.doc));
        out.docs = parent.docs;
        out.index = parent.docs->size() - 1;
        return {};
      case NodeKind::kDoc:
      case NodeKind::kMapItem:
      case NodeKind::kArrayItem:
        if (!coll) return cannot_contain(parent.kind, f.kind);
        value_slot(parent) = f.coll;
        out.coll = f.coll;
        return {};
      case NodeKind::kMap: {
        if (f.kind != NodeKind::kMapItem) return cannot_contain(parent.kind, f.kind);
        DNode& m = *parent.coll;
        for (size_t i = 0; i < m.entries.size(); ++i) {
          if (same_entry_key(m.entries[i], f.entry)) {
            if (!implicit_overrides_ && !find_ann(f.entry.anns, "yaml/map-key-override")) {
              return "expected key '" + go_key_text(f.entry.key) +
                     "' to not be specified again (unless 'yaml/map-key-override' annotation is "
                     "added)";
            }
            m.entries.erase(m.entries.begin() + static_cast<std::ptrdiff_t>(i));
            break;
          }
        }
        m.entries.push_back(std::move(f.entry));
        out.coll = parent.coll;
        out.index = m.entries.size() - 1;
        return {};
      }
      case NodeKind::kArray:
        if (f.kind != NodeKind::kArrayItem) return cannot_contain(parent.kind, f.kind);
        parent.coll->entries.push_back(std::move(f.entry));
        out.coll = parent.coll;
        out.index = parent.coll->entries.size() - 1;
        return {};
      case NodeKind::kTextRoot:
        parent.text->push_back(std::string());
        out.text = parent.text;
        out.index = parent.text->size() - 1;
        return {};
      case NodeKind::kText:
        return "unsupported operation";
    }
    return "unsupported operation";
  }

  sl::Result<sl::Value> set_node(const sl::Call& c) {
    if (c.args.empty() || ctxs_.empty()) return op_error(*c_, "set_node", "expected a node tag");
    EvalCtx& ctx = ctxs_.back();
    if (ctx.parents.empty()) return op_error(*c_, "set_node", "no node started");
    const ENode& top = ctx.parents.back();
    if (c.args.size() > 1) {
      if (is_noop(c.args[1])) return sl::Value::none();  // template.replace did the work
      if (auto hint = conversion_hint(c.args[1])) {
        return op_error(*c_, "set_node", "Unable to convert value: " + *hint);
      }
      return set_value(top, c.args[1]);
    }
    auto tag = tag_of(c.args[0]);
    const TplNode* n = tag ? node(*tag) : nullptr;
    if (!n) return op_error(*c_, "set_node", "expected to find node tag");
    if (top.kind == NodeKind::kText) {
      (*top.text)[top.index] = n->text;
      return sl::Value::none();
    }
    if (top.kind == NodeKind::kDoc || top.kind == NodeKind::kMapItem ||
        top.kind == NodeKind::kArrayItem) {
      value_slot(top) = n->scalar ? n->scalar : make_node(yaml::Kind::kNull, n->span);
      return sl::Value::none();
    }
    return sl::Value::none();
  }

  sl::Result<sl::Value> set_value(const ENode& top, const sl::Value& v) {
    auto fail = [&](const std::string& msg) { return op_error(*c_, "set_node", msg); };
    switch (top.kind) {
      case NodeKind::kDocSet:
        return fail("cannot set value on a document set");
      case NodeKind::kMap:
        return fail("cannot set value on a map");
      case NodeKind::kArray:
        return fail("cannot set value on an array");
      case NodeKind::kText:
        if (!v.is(sl::Kind::kString)) {
          return fail("cannot set non-string value (" + go_value_type(v) +
                      "), consider using str(...) to convert to string");
        }
        (*top.text)[top.index] = std::string(v.as_string());
        return sl::Value::none();
      case NodeKind::kTextRoot:
        return fail("unsupported operation");
      case NodeKind::kDoc:
      case NodeKind::kMapItem:
      case NodeKind::kArrayItem: {
        if (is_docset(v)) return fail(cannot_contain(top.kind, NodeKind::kDocSet));
        if (top.kind == NodeKind::kDoc) {
          (*top.docs)[top.index].computed =
              !fragment_node(v) &&
              (v.is(sl::Kind::kDict) || v.is(sl::Kind::kList) || v.is(sl::Kind::kTuple) ||
               v.is(sl::Kind::kSet) || v.is(sl::Kind::kStruct));
        }
        // ytt panics on values it cannot convert; refuse them rather than print something.
        if (auto why = unconvertible_to_yaml(v)) return fail(*why);
        DPtr& slot = value_slot(top);
        diag::Span span = slot ? slot->span : diag::Span{};
        // A cycle or too deep a value: the converter's own message, without the op's name.
        auto converted = place_starlark(v, span);
        if (!converted.ok()) return converted.error();
        slot = std::move(converted).value();
        return sl::Value::none();
      }
    }
    return sl::Value::none();
  }

  std::shared_ptr<const CompiledTemplate> c_;
  std::string file_;
  // The library's --implicit-map-key-overrides (ytt binds it to the template when compiling).
  bool implicit_overrides_;
  // A deque: a template function recursing 50,000 calls deep keeps as many contexts, which a
  // vector would move on every growth.
  std::deque<EvalCtx> ctxs_;
  std::shared_ptr<std::vector<DDoc>> root_docs_;
  std::string root_text_;
  bool root_taken_ = false;
};

}  // namespace

TemplateOutput run_compiled(Files& files, const SourceFile& file, sl::Thread& thread,
                            std::shared_ptr<CompiledTemplate> compiled) {
  files.compiled[file.path] = compiled;
  if (std::getenv("HINTKIT_DEBUG_TEMPLATE")) {
    std::fprintf(stderr, "### template %s\n%s\n", file.path.c_str(),
                 compiled->debug_text().c_str());
  }
  auto rt =
      std::make_shared<TemplateRuntime>(compiled, file.path, files.implicit_map_key_overrides);
  sl::CompileOptions co;
  co.predeclared = rt->names();
  co.template_ops = sl::TemplateOps{compiled->op("set_ctx_type"), compiled->op("start_ctx"),
                                    compiled->op("end_ctx"), compiled->op("start_node"),
                                    compiled->op("set_node")};
  auto prog = sl::compile(file.path, compiled->code_text(), co);
  if (!prog.ok()) {
    throw TemplateError{starlark_error_text(files, prog.error()), false,
                        std::make_shared<sl::Error>(prog.error())};
  }
  files.template_replace[file.path] =
      sl::make_builtin("template.replace", [rt](const sl::Call& c) -> sl::Result<sl::Value> {
        auto r = rt->replace(c);
        if (!r.ok()) return sl::fail_error("template.replace: " + r.error().message);
        return r;
      });
  auto res = [&] {
    Files::Running running(files, file.path);
    return thread.exec(*prog, rt->builtins(rt));
  }();
  rt->drop_open_contexts();
  if (!res.ok()) {
    throw TemplateError{starlark_error_text(files, res.error()), false,
                        std::make_shared<sl::Error>(res.error())};
  }
  // Remember the module for loads of this file as a library.
  files.module_cache[file.path] = *res;
  return {rt->result(), rt->text_result()};
}

}  // namespace hintkit::ytt
