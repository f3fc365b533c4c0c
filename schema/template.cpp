// ytt YAML templates: a loaded file becomes one Starlark program. Code lines (`#@ ...`) are
// copied; every document, map item and array item becomes a call that builds the node under
// its parent's handle; `#@name args` annotations become calls that evaluate their arguments;
// `key: #@ expr` sets the value. `#@ def`/`#@ end` around YAML makes a fragment function whose
// nodes go into its own context. Generated statements keep a map back to source lines, so
// Starlark errors show the template's lines as ytt does. Files without code (only `@schema/*`,
// `@data/*`, `@overlay/*` annotations) skip the program: see "Fast path" below.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <unordered_map>

#include "schema/internal.h"
#include "schema/ytt_modules.h"

namespace hintkit::schema {

namespace {

enum class SrcKind { kDoc, kItem, kElem };

struct SrcNode {
  SrcKind kind;
  const yaml::Node* key = nullptr;    // kItem
  const yaml::Node* value = nullptr;  // value node (kDoc: root)
  diag::Span span;
  bool static_copy = false;  // the whole subtree has no annotations: copy it
  bool implicit_doc = false;
};

struct SrcAnn {
  std::string name;
  diag::Span span;
};

struct Compiled {
  std::vector<SrcNode> nodes;
  std::vector<SrcAnn> anns;
  std::vector<int> line_map;  // generated line (1-based index) -> source line
  std::string code;
  std::string file;
};

bool subtree_plain(const yaml::Node& n) {
  for (const auto& it : n.items) {
    if (!it.annotations.empty() || !subtree_plain(it.value)) return false;
  }
  for (const auto& el : n.elements) {
    if (!el.annotations.empty() || !subtree_plain(el)) return false;
  }
  return true;
}

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

// Strips a trailing `# comment` outside strings (best effort).
std::string strip_comment(const std::string& s) {
  char quote = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      return trim(s.substr(0, i));
    }
  }
  return s;
}

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// `a(@= x @)b` -> `"a" + str(x) + "b"`; nullopt when there is no template in it.
std::optional<std::string> text_template(const std::string& s) {
  if (s.find("(@") == std::string::npos) return std::nullopt;
  std::string out;
  size_t pos = 0;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : " + ") + part; };
  while (pos < s.size()) {
    size_t open = s.find("(@", pos);
    if (open == std::string::npos) {
      add(quote(s.substr(pos)));
      break;
    }
    if (open > pos) add(quote(s.substr(pos, open - pos)));
    size_t close = s.find("@)", open + 2);
    if (close == std::string::npos) return std::nullopt;
    std::string inner = s.substr(open + 2, close - open - 2);
    if (!inner.empty() && inner[0] == '=') add("str(" + trim(inner.substr(1)) + ")");
    pos = close + 2;
  }
  return out.empty() ? "\"\"" : out;
}

struct Block {
  bool is_def;
  int ctx;  // the def's context number
  int line;
};

class Generator {
 public:
  Generator(Compiled& c, const SourceLines& src_lines) : c_(c), src_(src_lines) {}

  void emit(std::string text, int src_line) {
    if (!pending_ctx_.empty()) {
      // a fragment function's context starts at its first statement (ytt's frame line)
      std::string p = std::move(pending_ctx_);
      pending_ctx_.clear();
      emit(std::move(p), src_line);
    }
    c_.code += text;
    c_.code += '\n';
    c_.line_map.push_back(src_line);
  }

  int current_def() const {
    for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it)
      if (it->is_def) return it->ctx;
    return 0;
  }

  void code_line(const yaml::Annotation& a) {
    int line = a.span.begin.line;
    std::string text = trim(a.args);
    std::string bare = strip_comment(text);
    auto starts = [&](std::string_view w) {
      return bare.rfind(w, 0) == 0 && (bare.size() == w.size() || bare[w.size()] == ' ' ||
                                       bare[w.size()] == ':' || bare[w.size()] == '(');
    };
    bool opens = !bare.empty() && bare.back() == ':';
    // `def f(x)` without its colon still opens a block; the parser reports the colon
    if (bare.find(':') == std::string::npos &&
        (starts("def") || starts("if") || starts("for") || starts("while"))) {
      opens = true;
    }
    if (starts("end") && bare == "end") {
      if (blocks_.empty()) {
        throw TemplateError{
            "- mismatched set of block openings (if/else/elif/for/def) and "
            "closing (end)\n    " +
            c_.file + ":" + std::to_string(line) + " | " + src_line(line)};
      }
      Block b = blocks_.back();
      blocks_.pop_back();
      if (b.is_def) emit("return __end(__c" + std::to_string(b.ctx) + ")", line);
      emit(text, line);
      return;
    }
    emit(text, line);
    if (opens && (starts("elif") || starts("else"))) return;
    if (opens && starts("def")) {
      int ctx = ++ctx_count_;
      blocks_.push_back({true, ctx, line});
      pending_ctx_ = "__c" + std::to_string(ctx) + " = __ctx()";
    } else if (opens && (starts("if") || starts("for") || starts("while"))) {
      blocks_.push_back({false, 0, line});
    }
  }

  void finish() {
    if (!blocks_.empty()) {
      int line = blocks_.front().line;
      throw TemplateError{
          "- mismatched set of block openings (if/else/elif/for/def) and "
          "closing (end)\n    " +
          c_.file + ":" + std::to_string(line) + " | " + src_line(line)};
    }
  }

  std::string src_line(int line) const {
    return line >= 1 && static_cast<size_t>(line) <= src_.size() ? std::string(src_[line - 1])
                                                                 : std::string();
  }

  // Emits one node (document / item / element) and its subtree.
  void node(SrcKind kind, const yaml::Node* key, const yaml::Node& value,
            const std::vector<yaml::Annotation>& anns, const diag::Span& span,
            const std::string& parent_var, int parent_def, bool implicit_doc = false) {
    int line = span.begin.line;
    std::vector<const yaml::Annotation*> named;
    std::string value_expr;
    bool templated = false;
    for (const auto& a : anns) {
      if (a.name.empty()) {
        if (kind != SrcKind::kDoc && a.span.begin.line == line &&
            a.span.begin.column > span.begin.column) {
          value_expr = trim(a.args);
        } else {
          code_line(a);
        }
      } else if (a.name == "yaml/text-templated-strings") {
        templated = true;
      } else {
        named.push_back(&a);
      }
    }
    int id = static_cast<int>(c_.nodes.size());
    SrcNode sn{kind, key, &value, span, false, implicit_doc};
    sn.static_copy = value_expr.empty() && !templated && subtree_plain(value);
    c_.nodes.push_back(sn);
    int def = current_def();
    std::string parent = def != parent_def ? "__c" + std::to_string(def) : parent_var;
    std::string var = "__n" + std::to_string(id);
    int create_line = named.empty() ? line : named.front()->span.begin.line;
    emit(var + " = __mk(" + parent + ", " + std::to_string(id) + ")", create_line);
    for (const auto* a : named) {
      int aid = static_cast<int>(c_.anns.size());
      c_.anns.push_back({a->name, a->span});
      std::string args = trim(a->args);
      emit("__ann(" + var + ", " + std::to_string(aid) + (args.empty() ? "" : ", " + args) + ")",
           a->span.begin.line);
    }
    if (templated && key && key->kind == yaml::Kind::kString) {
      if (auto t = text_template(key->text)) emit("__key(" + var + ", " + *t + ")", line);
    }
    if (!value_expr.empty()) {
      // ytt parenthesizes the expression: `#@ 1, 2` is a tuple, `#@ 1 2` wants ')'
      emit("__set(" + var + ", (" + strip_comment(value_expr) + "))", line);
      return;
    }
    if (templated && value.kind == yaml::Kind::kString) {
      if (auto t = text_template(value.text)) emit("__set(" + var + ", " + *t + ")", line);
    }
    if (sn.static_copy) return;
    if (value.kind == yaml::Kind::kMap) {
      for (const auto& it : value.items) {
        node(SrcKind::kItem, &it.key, it.value, it.annotations, it.key.span, var, def);
      }
    } else if (value.kind == yaml::Kind::kArray) {
      for (const auto& el : value.elements) {
        node(SrcKind::kElem, nullptr, el, el.annotations, el.span, var, def);
      }
    }
  }

 private:
  Compiled& c_;
  const SourceLines& src_;
  std::vector<Block> blocks_;
  int ctx_count_ = 0;
  std::string pending_ctx_;
};

// ---- Runtime handles -----------------------------------------------------------------------

struct Ctx {
  std::vector<DDoc> docs;
  DPtr node;  // a fragment of items
  std::string file;
};

class Handle : public sl::HostObject {
 public:
  enum class K { kCtx, kDoc, kEntry };
  std::string_view type_name() const override { return "yamlnode"; }
  K k = K::kCtx;
  std::shared_ptr<Ctx> ctx;
  size_t index = 0;
  DPtr parent;

  DPtr& value() {
    if (k == K::kCtx) return ctx->node;
    if (k == K::kDoc) return ctx->docs[index].value;
    return parent->entries[index].value;
  }
  std::vector<Ann>& anns() {
    static std::vector<Ann> none;
    if (k == K::kDoc) return ctx->docs[index].anns;
    if (k == K::kEntry) return parent->entries[index].anns.mut();
    none.clear();
    return none;
  }
};

Handle* as_handle(const sl::Value& v) {
  if (!v.is(sl::Kind::kHost)) return nullptr;
  return dynamic_cast<Handle*>(v.object());
}

sl::Value new_handle(Handle* h) { return sl::Value(h); }

struct Runtime {
  std::shared_ptr<Compiled> compiled;
  std::shared_ptr<Ctx> top;
  int template_number = 0;  // ytt's numbering, shown in the names of its node builtins
};

DPtr shallow_from(const SrcNode& sn) {
  if (sn.static_copy) return from_yaml(*sn.value);
  const yaml::Node& v = *sn.value;
  if (v.kind == yaml::Kind::kMap || v.kind == yaml::Kind::kArray) return make_node(v.kind, v.span);
  auto d = make_node(v.kind, v.span);
  d->scalar = scalar_of(v);
  return d;
}

sl::Predeclared builtins(const std::shared_ptr<Runtime>& rt) {
  sl::Predeclared p;
  p.emplace_back("__top", [&] {
    auto* h = new Handle();
    h->ctx = rt->top;
    return new_handle(h);
  }());
  p.emplace_back("__ctx", sl::make_builtin("__ctx", [rt](const sl::Call&) -> sl::Result<sl::Value> {
                   auto* h = new Handle();
                   h->ctx = std::make_shared<Ctx>();
                   h->ctx->file = rt->top->file;
                   return new_handle(h);
                 }));
  p.emplace_back("__end", sl::make_builtin("__end", [](const sl::Call& c) -> sl::Result<sl::Value> {
                   Handle* h = as_handle(c.args[0]);
                   if (!h->ctx->docs.empty()) return make_docset_fragment(h->ctx->docs);
                   if (!h->ctx->node) return sl::Value::none();
                   return make_fragment(h->ctx->node);
                 }));
  p.emplace_back(
      "__mk", sl::make_builtin("__mk", [rt](const sl::Call& c) -> sl::Result<sl::Value> {
        Handle* parent = as_handle(c.args[0]);
        size_t id = static_cast<size_t>(c.args[1].to_int64().value_or(0));
        const SrcNode& sn = rt->compiled->nodes[id];
        auto* h = new Handle();
        sl::Value result = new_handle(h);
        if (sn.kind == SrcKind::kDoc) {
          DDoc d;
          d.value = shallow_from(sn);
          d.span = sn.span;
          d.file = rt->compiled->file;
          d.implicit = sn.implicit_doc;
          parent->ctx->docs.push_back(std::move(d));
          h->k = Handle::K::kDoc;
          h->ctx = parent->ctx;
          h->index = parent->ctx->docs.size() - 1;
          return result;
        }
        DPtr& target = parent->value();
        yaml::Kind want = sn.kind == SrcKind::kItem ? yaml::Kind::kMap : yaml::Kind::kArray;
        if (!target ||
            (parent->k == Handle::K::kCtx && target->kind != want && target->entries.empty())) {
          target = make_node(want, sn.span);
        }
        if (target->kind != want) {
          return sl::fail_error(std::string("expected ") +
                                (want == yaml::Kind::kMap ? "map item" : "array item") +
                                " to be inside a " + (want == yaml::Kind::kMap ? "map" : "array"));
        }
        DEntry e;
        if (sn.key) {
          e.key = scalar_of(*sn.key);
        }
        e.value = shallow_from(sn);
        e.span = sn.span;
        target->entries.push_back(std::move(e));
        h->k = Handle::K::kEntry;
        h->parent = target;
        h->index = target->entries.size() - 1;
        return result;
      }));
  p.emplace_back("__ann",
                 sl::make_builtin("__ann", [rt](const sl::Call& c) -> sl::Result<sl::Value> {
                   Handle* h = as_handle(c.args[0]);
                   size_t id = static_cast<size_t>(c.args[1].to_int64().value_or(0));
                   const SrcAnn& sa = rt->compiled->anns[id];
                   Ann a;
                   a.name = sa.name;
                   a.span = sa.span;
                   a.args.assign(c.args.begin() + 2, c.args.end());
                   for (const auto& kw : c.kwargs)
                     a.kwargs.emplace_back(std::string(kw.name), kw.value);
                   h->anns().push_back(std::move(a));
                   return sl::Value::none();
                 }));
  p.emplace_back("__set",
                 sl::make_builtin("__set", [rt](const sl::Call& c) -> sl::Result<sl::Value> {
                   if (auto hint = conversion_hint(c.args[1])) {
                     return sl::fail_error("__ytt_tpl" + std::to_string(rt->template_number) +
                                           "_set_node: Unable to convert value: " + *hint);
                   }
                   Handle* h = as_handle(c.args[0]);
                   DPtr& v = h->value();
                   diag::Span span = v ? v->span : diag::Span{};
                   v = from_starlark(c.args[1], span);
                   return sl::Value::none();
                 }));
  p.emplace_back("__key", sl::make_builtin("__key", [](const sl::Call& c) -> sl::Result<sl::Value> {
                   Handle* h = as_handle(c.args[0]);
                   if (h->k == Handle::K::kEntry) {
                     h->parent->entries[h->index].key = string_scalar(c.args[1].str());
                   }
                   return sl::Value::none();
                 }));
  return p;
}

const std::vector<std::string> kBuiltinNames = {"__top", "__ctx", "__end", "__mk",
                                                "__ann", "__set", "__key"};

bool is_star(std::string_view f) { return f.size() > 5 && f.substr(f.size() - 5) == ".star"; }

void remap(sl::Error& e, const Compiled& c) {
  auto fix = [&](diag::Position& p, const std::string& file) {
    if (file == c.file && p.line >= 1 && static_cast<size_t>(p.line) <= c.line_map.size()) {
      p.line = c.line_map[p.line - 1];
    }
  };
  for (auto& f : e.frames) fix(f.pos, f.file);
  for (auto& p : e.problems) fix(p.pos, p.file);
  if (e.cause) remap(*e.cause, c);
}

using LoadedDocs = std::shared_ptr<std::vector<yaml::Document>>;

// The documents of a loaded file, or the first YAML error as ytt words it.
// A duplicate map key: in plain YAML the later value wins (the loader keeps it); in a
// template ytt stops unless the later key says `#@yaml/map-key-override`.
void check_duplicate_key(const diag::Diagnostic& d, const SourceFile& file, int template_number) {
  if (file.text().find("#@") == std::string::npos) return;
  int line = d.span.begin.line;
  auto overridden = [&](std::string_view l) {
    return l.find("#@yaml/map-key-override") != std::string_view::npos;
  };
  if (line < 1 || static_cast<size_t>(line) > file.lines.size()) return;
  if (overridden(file.lines[line - 1])) return;
  for (int l = line - 1; l >= 1; --l) {  // the annotation lines right above the key
    std::string_view above = file.lines[l - 1];
    size_t first = above.find_first_not_of(' ');
    if (first == std::string_view::npos || above.substr(first, 2) != "#@") break;
    if (overridden(above)) return;
  }
  size_t q1 = d.message.find('"'), q2 = d.message.rfind('"');
  std::string key = q1 < q2 ? d.message.substr(q1 + 1, q2 - q1 - 1) : "";
  throw TemplateError{
      "- __ytt_tpl" + std::to_string(template_number) + "_start_node: expected key '" + key +
      "' to not be specified again (unless 'yaml/map-key-override' annotation "
      "is added)\n    in <toplevel>\n      " +
      file.path + ":" + std::to_string(line) + " | " + std::string(file.lines[line - 1])};
}

// The documents of a loaded file, or its first problem as ytt words it.
// `template_number`: ytt numbers the templates it compiles (from 2), and the number shows in
// some of its messages.
LoadedDocs checked_docs(LoadedYaml&& loaded, const SourceFile& file, int template_number) {
  for (const auto& d : loaded.diags.items()) {
    if (d.code == "HK002") {
      check_duplicate_key(d, file, template_number);
    } else if (d.severity == diag::Severity::kError) {
      throw TemplateError{"- " + d.message + "\n    " + loaded.path + ":" +
                          std::to_string(d.span.begin.line)};
    }
  }
  return std::make_shared<std::vector<yaml::Document>>(std::move(loaded.docs));
}

bool starts_with_marker(const SourceFile& file, const yaml::Document& d) {
  int l = d.span.begin.line;
  return l >= 1 && static_cast<size_t>(l) <= file.lines.size() &&
         file.lines[l - 1].rfind("---", 0) == 0;
}

std::shared_ptr<Compiled> compile_template(const SourceFile& file, const LoadedDocs& docs) {
  auto c = std::make_shared<Compiled>();
  c->file = file.path;
  Generator g(*c, file.lines);
  for (size_t i = 0; i < docs->size(); ++i) {
    const yaml::Document& d = (*docs)[i];
    bool explicit_start = starts_with_marker(file, d);
    if (d.empty && d.root.is_null() && !explicit_start) {
      for (const auto& a : d.annotations) {
        if (a.name.empty()) g.code_line(a);
      }
      continue;
    }
    g.node(SrcKind::kDoc, nullptr, d.root, d.annotations, d.span, "__top", 0, !explicit_start);
  }
  g.finish();
  // keep loaded documents alive as long as the compiled template (nodes point into them)
  static std::vector<std::shared_ptr<std::vector<yaml::Document>>> keep;
  keep.push_back(docs);
  return c;
}

// ---- Fast path: documents without code ----------------------------------------------------
//
// Most schema and data values files hold no code at all: only `@schema/*`, `@data/*` and
// `@overlay/*` annotations. For those the tree is built straight from the loaded YAML and only
// the annotation arguments go through Starlark, each distinct argument text compiled and run
// once (`#@schema/validation min=1, max=100` repeats on every service of a large schema).
// Anything unusual (an argument that fails, calls print, ...) falls back to the generated
// program above, so errors keep their exact text and lines.

bool data_annotation(std::string_view name) {
  return name.rfind("schema/", 0) == 0 || name.rfind("data/", 0) == 0 ||
         name.rfind("overlay/", 0) == 0;
}

bool data_annotations(const std::vector<yaml::Annotation>& anns) {
  for (const auto& a : anns)
    if (!data_annotation(a.name)) return false;
  return true;
}

// A pre-order numbering of a document's map/array nodes: for each, whether its subtree has no
// annotations below it (copied whole, as `static_copy` does) and where its subtree ends.
struct Shape {
  std::vector<char> plain;
  std::vector<uint32_t> end;
};

class DirectBuilder {
 public:
  DirectBuilder(const SourceFile& file, sl::Thread& thread) : file_(file), thread_(thread) {}

  // nullopt: the file needs the generated program (`docs` are then left as they were).
  // Otherwise the documents are consumed: their nodes move into the result.
  std::optional<std::vector<DDoc>> build(std::vector<yaml::Document>& docs) {
    // Everything that can send the file to the generated program is decided here, before
    // the first node is consumed.
    std::vector<Shape> shapes(docs.size());
    for (size_t i = 0; i < docs.size(); ++i) {
      bool annotated = false;
      if (!evaluable(docs[i].annotations) || !measure(docs[i].root, shapes[i], annotated)) {
        return std::nullopt;
      }
    }
    std::vector<DDoc> out;
    for (size_t i = 0; i < docs.size(); ++i) {
      yaml::Document& d = docs[i];
      bool explicit_start = starts_with_marker(file_, d);
      if (d.empty && d.root.is_null() && !explicit_start) continue;
      DDoc doc;
      shape_ = &shapes[i];
      cursor_ = 0;
      doc.span = d.span;
      doc.value = node(d.root);
      doc.file = file_.path;
      doc.implicit = !explicit_start;
      doc.anns = annotations(d.annotations);
      // the implicit first document whose nodes all went into fragment functions
      if (doc.implicit && doc.anns.empty() && !doc.value->is_scalar() &&
          doc.value->entries.empty()) {
        continue;
      }
      out.push_back(std::move(doc));
    }
    return out;
  }

 private:
  // Only data annotations, each with arguments that evaluate (the results are cached).
  bool evaluable(const std::vector<yaml::Annotation>& anns) {
    if (!data_annotations(anns)) return false;
    Ann scratch;
    for (const auto& a : anns) {
      std::string args = trim(a.args);
      if (!args.empty() && !arguments(args, scratch)) return false;
    }
    return true;
  }

  // Fills `shape` for `n` (pre-order over maps and arrays: whether a subtree holds no
  // annotations, and where it ends); false when an annotation needs the generated program.
  // `annotated` is set when some node below `n` carries annotations.
  bool measure(const yaml::Node& n, Shape& shape, bool& annotated) {
    if (n.is_scalar()) return true;
    size_t idx = shape.plain.size();
    shape.plain.push_back(0);
    shape.end.push_back(0);
    bool below = false;
    for (const auto& it : n.items) {
      if (!evaluable(it.annotations)) return false;
      below = below || !it.annotations.empty();
      if (!measure(it.value, shape, below)) return false;
    }
    for (const auto& el : n.elements) {
      if (!evaluable(el.annotations)) return false;
      below = below || !el.annotations.empty();
      if (!measure(el, shape, below)) return false;
    }
    shape.plain[idx] = below ? 0 : 1;
    shape.end[idx] = static_cast<uint32_t>(shape.plain.size());
    annotated = annotated || below;
    return true;
  }

  // Consumes `v` into a tree node (plain subtrees in one piece).
  DPtr node(yaml::Node& v) {
    if (v.is_scalar()) return from_yaml(std::move(v));
    size_t idx = cursor_++;
    if (shape_->plain[idx]) {
      cursor_ = shape_->end[idx];
      return from_yaml(std::move(v));
    }
    DPtr d = make_node(v.kind, v.span);
    if (v.kind == yaml::Kind::kMap) {
      d->entries.reserve(v.items.size());
      for (auto& it : v.items) {
        DEntry e;
        e.span = it.key.span;
        if (it.key.is_scalar()) {
          e.key = take_scalar(std::move(it.key));
        } else {
          e.key.kind = it.key.kind;
          e.key_node = from_yaml(std::move(it.key));
        }
        e.value = node(it.value);
        e.anns = annotations(it.annotations);
        d->entries.push_back(std::move(e));
      }
      std::vector<yaml::MapItem>().swap(v.items);
    } else {
      d->entries.reserve(v.elements.size());
      for (auto& el : v.elements) {
        DEntry e;
        e.span = el.span;
        e.anns = annotations(el.annotations);
        e.value = node(el);
        d->entries.push_back(std::move(e));
      }
      std::vector<yaml::Node>().swap(v.elements);
    }
    return d;
  }

  // The evaluated annotations (all arguments were evaluated by `evaluable` already).
  std::vector<Ann> annotations(const std::vector<yaml::Annotation>& src) {
    std::vector<Ann> out;
    for (const auto& a : src) {
      Ann ann;
      ann.name = a.name;
      ann.span = a.span;
      std::string args = trim(a.args);
      if (!args.empty()) (void)arguments(args, ann);
      out.push_back(std::move(ann));
    }
    return out;
  }

  // Evaluates `args` as a call's argument list into `ann`, reusing an earlier evaluation of
  // the same text. Values are shared between nodes; they are never mutated afterwards.
  bool arguments(const std::string& args, Ann& ann) {
    auto it = cache_.find(args);
    if (it == cache_.end()) {
      // print() has an effect each time it runs: leave such arguments to the program
      if (args.find("print") != std::string::npos) return false;
      Evaluated ev;
      sl::CompileOptions co;
      co.predeclared = {"__a"};
      auto prog = sl::compile(file_.path, "__a(" + args + ")", co);
      if (!prog.ok()) return false;
      sl::Predeclared p;
      p.emplace_back("__a",
                     sl::make_builtin("__a", [&ev](const sl::Call& c) -> sl::Result<sl::Value> {
                       ev.args.assign(c.args.begin(), c.args.end());
                       for (const auto& kw : c.kwargs)
                         ev.kwargs.emplace_back(std::string(kw.name), kw.value);
                       return sl::Value::none();
                     }));
      if (!thread_.exec(*prog, p).ok()) return false;
      it = cache_.emplace(args, std::move(ev)).first;
    }
    ann.args = it->second.args;
    ann.kwargs = it->second.kwargs;
    return true;
  }

  struct Evaluated {
    std::vector<sl::Value> args;
    std::vector<std::pair<std::string, sl::Value>> kwargs;
  };

  const SourceFile& file_;
  sl::Thread& thread_;
  const Shape* shape_ = nullptr;
  size_t cursor_ = 0;
  std::unordered_map<std::string, Evaluated> cache_;
};

}  // namespace

std::string starlark_error_text(const Files& files, const sl::Error& e) {
  auto lines = [&](std::string_view f, int l) { return files.line(f, l); };
  if (e.kind == sl::ErrorKind::kCompile) {
    const sl::Problem& p = e.problems.empty() ? sl::Problem{e.message, "", {}} : e.problems.front();
    return "- " + sl::with_ytt_hint(p.message, files.line(p.file, p.pos.line)) + "\n    " +
           (is_star(p.file) ? "" : p.file + ":") + std::to_string(p.pos.line) + " | " +
           files.line(p.file, p.pos.line);
  }
  std::string msg = sl::with_ytt_hint(e.message);
  const sl::Error* inner = &e;
  std::string out = "- " + msg + "\n";
  out += sl::format_backtrace(*inner, lines, "    ",
                              [](const sl::Frame& f) { return !is_star(f.file); });
  while (!out.empty() && out.back() == '\n') out.pop_back();
  if (e.cause) {
    std::string inner = starlark_error_text(files, *e.cause);
    out += "\n\n    reason:\n";
    size_t start = 0;
    while (start <= inner.size()) {
      size_t nl = inner.find('\n', start);
      out +=
          "     " + inner.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
      if (nl == std::string::npos) break;
      out += "\n";
      start = nl + 1;
    }
  }
  return out;
}

LoadedYaml load_yaml(std::string path, std::string_view text) {
  LoadedYaml out;
  out.path = std::move(path);
  out.docs = yaml::load(text, out.path, out.diags);
  return out;
}

std::vector<DDoc> eval_template(Files& files, const SourceFile& file, sl::Thread& thread,
                                std::optional<LoadedYaml> loaded) {
  const int template_number = 2 + files.templates_evaluated++;
  LoadedDocs docs = checked_docs(loaded ? std::move(*loaded) : load_yaml(file.path, file.text()),
                                 file, template_number);
  if (auto direct = DirectBuilder(file, thread).build(*docs)) {
    files.module_cache[file.path] = sl::Module{};  // no code: nothing to load from it
    return std::move(*direct);
  }
  auto compiled = compile_template(file, docs);
  auto rt = std::make_shared<Runtime>();
  rt->template_number = template_number;
  rt->compiled = compiled;
  rt->top = std::make_shared<Ctx>();
  rt->top->file = file.path;
  sl::CompileOptions co;
  co.predeclared = kBuiltinNames;
  auto prog = sl::compile(file.path, compiled->code, co);
  if (!prog.ok()) {
    remap(prog.error(), *compiled);
    throw TemplateError{starlark_error_text(files, prog.error())};
  }
  files.running.push_back(file.path);
  auto res = thread.exec(*prog, builtins(rt));
  files.running.pop_back();
  if (!res.ok()) {
    remap(res.error(), *compiled);
    throw TemplateError{starlark_error_text(files, res.error())};
  }
  std::vector<DDoc> out;
  for (size_t i = 0; i < rt->top->docs.size(); ++i) {
    DDoc& d = rt->top->docs[i];
    // the implicit first document whose nodes all went into fragment functions
    if (d.implicit && d.anns.empty() && d.value && !d.value->is_scalar() &&
        d.value->entries.empty()) {
      continue;
    }
    out.push_back(std::move(d));
  }
  // Remember the module for loads of this file as a library.
  files.module_cache[file.path] = *res;
  return out;
}

}  // namespace hintkit::schema
