// ytt's yamltemplate: a loaded file becomes one Starlark program. Code lines (`#@ ...`) are
// copied; every document, map item and array item becomes a call that builds the node under
// its parent's handle; `#@name args` annotations become calls that evaluate their arguments;
// `key: #@ expr` sets the value. `#@ def`/`#@ end` around YAML makes a fragment function whose
// nodes go into its own context. Generated statements keep a map back to source lines, so
// Starlark errors show the template's lines as ytt does. Files without code (only `@schema/*`,
// `@data/*`, `@overlay/*` annotations) skip the program (fast_path.cpp).
#include <algorithm>
#include <cctype>
#include <memory>

#include "ytt/texttemplate/texttemplate.h"
#include "ytt/yamltemplate/yamltemplate.h"

namespace hintkit::ytt {

namespace {

// A node's `#@` / `#!` / `#` comments, ytt's way (template.NewAnnotationFromComment).
struct Meta {
  enum class Kind { kComment, kCode, kValue, kAnnotation } kind;
  std::string name;     // kAnnotation
  std::string content;  // code, value expression or annotation arguments, as written
  int line;
  diag::Span span;
};

struct Metas {
  std::vector<Meta> blocks, values, annotations;
  int needs_ends = 0;
};

std::string left_space(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return std::string(s.substr(0, i));
}

class TemplateCompiler {
 public:
  TemplateCompiler(CompiledTemplate& c, bool ignore_unknown_comments)
      : c_(c), ignore_unknown_(ignore_unknown_comments) {}

  void compile(const std::vector<yaml::Document>& docs) {
    std::vector<CodeLine> body;
    int set_tag = add({NodeKind::kDocSet, kRootTag, 0, 0, {}, {}, nullptr, nullptr, {}, false});
    body.push_back(
        {c_.op("start_node") + "(" + std::to_string(set_tag) + ") # *yamlmeta.DocumentSet"});
    // Comments below every node of the file go to a document the loader adds at the end
    // (ytt injects one with an unknown position). When it is the only one, ytt's parser had
    // still produced the file's first, empty document ahead of it.
    if (!docs.empty() && injected(docs[0])) build_doc(yaml::Document{}, true, set_tag, body);
    for (size_t i = 0; i < docs.size(); ++i) {
      build_doc(docs[i], i == 0 && !injected(docs[i]), set_tag, body);
    }
    c_.code.push_back({c_.op("set_ctx_type") + "(\"yaml\")"});
    c_.code.push_back({c_.op("start_ctx") + "(\"yaml\")"});
    for (auto& l : body) c_.code.push_back(std::move(l));
    c_.code.push_back({c_.op("end_ctx") + "(None)"});
  }

 private:
  int add(TplNode n) { return c_.add_node(std::move(n)); }

  CodeLine line(std::string code, int src) const { return c_.code_line(std::move(code), src); }

  // The raw comment (after '#') of an annotation or plain comment, as written on its line.
  std::string raw_comment(const diag::Span& span) const {
    int ln = span.begin.line;
    if (!c_.has_line(ln)) return {};
    std::string_view l = c_.lines[static_cast<size_t>(ln - 1)];
    size_t col = span.begin.column > 0 ? static_cast<size_t>(span.begin.column - 1) : 0;
    if (col >= l.size() || l[col] != '#') {
      size_t h = l.find('#', col < l.size() ? col : 0);
      if (h == std::string_view::npos) return {};
      col = h;
    }
    std::string_view rest = l.substr(col + 1);
    if (!rest.empty() && rest.back() == '\r') rest.remove_suffix(1);
    return std::string(rest);
  }

  // extractMetas: `node_line` is the node's own line (0 unknown); `has_value` whether the node
  // holds a non-null YAML value.
  Metas metas(const std::vector<yaml::Annotation>& anns, const std::vector<yaml::Comment>& cmts,
              int node_line, bool has_value) {
    struct Raw {
      diag::Span span;
      std::string data;
    };
    std::vector<Raw> raws;
    raws.reserve(anns.size() + cmts.size());
    for (const auto& a : anns) raws.push_back({a.span, raw_comment(a.span)});
    for (const auto& c : cmts) raws.push_back({c.span, raw_comment(c.span)});
    if (!cmts.empty()) {
      std::stable_sort(raws.begin(), raws.end(), [](const Raw& a, const Raw& b) {
        return std::pair(a.span.begin.line, a.span.begin.column) <
               std::pair(b.span.begin.line, b.span.begin.column);
      });
    }
    Metas m;
    for (const auto& r : raws) {
      int ln = r.span.begin.line;
      Meta meta{Meta::Kind::kComment, {}, {}, ln, r.span};
      if (!r.data.empty() && r.data[0] == '!') {
        continue;
      } else if (!r.data.empty() && r.data[0] == '@') {
        std::string_view rest = std::string_view(r.data).substr(1);
        size_t sp = rest.find(' ');
        meta.name = std::string(rest.substr(0, sp));
        if (sp != std::string_view::npos) meta.content = std::string(rest.substr(sp + 1));
        if (meta.name == kCommentAnnotation) continue;  // documentation: digested, no code
        if (meta.name.empty()) {
          meta.kind = node_line > 0 && ln == node_line ? Meta::Kind::kValue : Meta::Kind::kCode;
        } else {
          meta.kind = Meta::Kind::kAnnotation;
        }
      } else {
        if (ignore_unknown_) continue;
        throw CompileProblem{"Failed to parse line " + std::to_string(ln) + ": '#" + r.data +
                             "': Expected ytt-formatted string (use '#@' for annotations or "
                             "code, '#!' for comments)"};
      }
      switch (meta.kind) {
        case Meta::Kind::kValue:
          if (has_value) {
            throw CompileProblem{"Expected YAML node at line " + c_.file + ":" +
                                 std::to_string(ln) +
                                 " to have either computed or YAML value, but found both"};
          }
          m.values.push_back(std::move(meta));
          break;
        case Meta::Kind::kCode: {
          if (m.needs_ends > 0) {
            throw CompileProblem{"Unexpected code at line " + c_.file + ":" + std::to_string(ln) +
                                 " after use of '*/end', expected YAML node"};
          }
          std::string prefix = left_space(meta.content);
          static const std::pair<std::string_view, std::string_view> kShorthands[] = {
              {"if/end", "if"},
              {"else/end", "else"},
              {"elif/end", "elif"},
              {"for/end", "for"},
              {"def/end", "def"}};
          for (const auto& [kw, repl] : kShorthands) {
            std::string from = prefix + std::string(kw);
            if (meta.content.rfind(from, 0) == 0) {
              ++m.needs_ends;
              meta.content.replace(0, from.size(), prefix + std::string(repl));
            }
          }
          m.blocks.push_back(std::move(meta));
          break;
        }
        case Meta::Kind::kAnnotation:
          m.annotations.push_back(std::move(meta));
          break;
        case Meta::Kind::kComment:
          break;
      }
    }
    return m;
  }

  // The shared part of build(): code lines, annotations, start_node, value or children.
  template <typename Children>
  void build_node(int tag, const std::string& debug, int node_line, Metas m, bool templated,
                  const Scalar* templated_key, std::vector<CodeLine>& out, Children children) {
    for (const auto& b : m.blocks) out.push_back(line(b.content, b.line));
    for (const auto& a : m.annotations) {
      if (a.name == "yaml/text-templated-strings") templated = true;
      c_.ann_spans[{tag, a.name}] = a.span;
      out.push_back(line(c_.op("start_node_annotation") + "(" + std::to_string(tag) + ", \"" +
                             a.name + "\", " + c_.op("collect_node_annotation") + "(" + a.content +
                             ")) # " + debug,
                         a.line));
    }
    if (templated && templated_key && templated_key->kind == yaml::Kind::kString) {
      build_string(templated_key->text, tag, node_line, debug, "set_map_item_key", out);
    }
    out.push_back(
        line(c_.op("start_node") + "(" + std::to_string(tag) + ") # " + debug, node_line));
    if (!m.values.empty()) {
      for (const auto& v : m.values) {
        out.push_back(line(
            c_.op("set_node") + "(" + std::to_string(tag) + ", (" + v.content + ")) # " + debug,
            v.line));
      }
    } else {
      children(templated);
    }
    if (m.needs_ends > 0) out.push_back(line("end", 0));
  }

  static bool holds_value(const yaml::Node& v) { return !v.is_null(); }

  // A scalar child of `tag` (ytt: build() of a non-node value).
  void build_scalar(const yaml::Node& v, int tag, int node_line, const std::string& debug,
                    bool templated, std::vector<CodeLine>& out) {
    if (templated && v.kind == yaml::Kind::kString) {
      build_string(v.text, tag, node_line, debug, "set_node", out);
      return;
    }
    out.push_back(line(c_.op("set_node") + "(" + std::to_string(tag) + ") # " + debug, node_line));
  }

  void build_value(const yaml::Node& v, int parent_tag, int parent_line,
                   const std::string& parent_debug, bool templated, std::vector<CodeLine>& out) {
    if (v.kind == yaml::Kind::kMap || v.kind == yaml::Kind::kArray) {
      build_collection(v, parent_tag, parent_line, templated, out);
    } else {
      build_scalar(v, parent_tag, parent_line, parent_debug, templated, out);
    }
  }

  void build_doc(const yaml::Document& d, bool first, int parent, std::vector<CodeLine>& out) {
    bool marker = d.explicit_start;
    int doc_line = marker ? d.span.begin.line : (first ? 1 : 0);
    bool has_value = !d.empty && holds_value(d.root);
    // ytt's parser places the implicit first document at line 1 only after it has given out
    // the comments: no `#@` on line 1 is that document's value.
    Metas m = metas(d.annotations, d.comments, marker ? doc_line : 0, has_value);
    TplNode n{NodeKind::kDoc, parent, 0, doc_line, d.span, {}, nullptr, nullptr, {}, !marker};
    if (d.root.is_scalar()) n.scalar = from_yaml(d.root);
    n.span.begin.line = doc_line;
    if (!marker && !first && injected(d)) n.span = {};  // ytt's injected end document: no place
    int tag = add(std::move(n));
    const std::string debug = "*yamlmeta.Document";
    build_node(tag, debug, doc_line, std::move(m), false, nullptr, out,
               [&](bool templated) { build_value(d.root, tag, doc_line, debug, templated, out); });
  }

  void build_collection(const yaml::Node& v, int parent, int parent_line, bool templated,
                        std::vector<CodeLine>& out) {
    bool is_map = v.kind == yaml::Kind::kMap;
    TplNode n{is_map ? NodeKind::kMap : NodeKind::kArray,
              parent,
              0,
              parent_line,
              v.span,
              {},
              nullptr,
              nullptr,
              {},
              false};
    int tag = add(std::move(n));
    out.push_back(line(c_.op("start_node") + "(" + std::to_string(tag) + ") # " +
                           (is_map ? "*yamlmeta.Map" : "*yamlmeta.Array"),
                       parent_line));
    if (is_map) {
      for (const auto& it : v.items) build_map_item(it, tag, templated, out);
    } else {
      for (const auto& el : v.elements) build_array_item(el, tag, templated, out);
    }
  }

  void build_map_item(const yaml::MapItem& it, int parent, bool templated,
                      std::vector<CodeLine>& out) {
    int ln = it.key.span.begin.line;
    Metas m = metas(it.annotations, it.comments, ln, holds_value(it.value));
    TplNode n{NodeKind::kMapItem, parent, 0, ln, it.key.span, {}, nullptr, nullptr, {}, false};
    if (it.key.is_scalar()) {
      n.key = scalar_of(it.key);
    } else {
      n.key.kind = it.key.kind;
      n.key_node = from_yaml(it.key);
    }
    if (it.value.is_scalar()) n.scalar = from_yaml(it.value);
    std::string debug = "*yamlmeta.MapItem key=" + go_key_text(n.key);
    Scalar key = n.key;
    int tag = add(std::move(n));
    bool tt = templated || has_text_templating(m);
    build_node(tag, debug, ln, std::move(m), tt, &key, out,
               [&](bool t) { build_value(it.value, tag, ln, debug, t, out); });
  }

  void build_array_item(const yaml::Node& el, int parent, bool templated,
                        std::vector<CodeLine>& out) {
    const diag::Span span = item_span(el);
    int ln = span.begin.line;
    Metas m = metas(el.annotations, el.comments, ln, holds_value(el));
    TplNode n{NodeKind::kArrayItem, parent, 0, ln, span, {}, nullptr, nullptr, {}, false};
    if (el.is_scalar()) n.scalar = from_yaml(el);
    int tag = add(std::move(n));
    const std::string debug = "*yamlmeta.ArrayItem idx=?";
    bool tt = templated || has_text_templating(m);
    build_node(tag, debug, ln, std::move(m), tt, nullptr, out,
               [&](bool t) { build_value(el, tag, ln, debug, t, out); });
  }

  static bool has_text_templating(const Metas& m) {
    for (const auto& a : m.annotations)
      if (a.name == "yaml/text-templated-strings") return true;
    return false;
  }

  // Only documents that start with `---` own comments of their own: one without that holds
  // some is the loader's document of trailing comments.
  bool injected(const yaml::Document& d) const {
    return !d.explicit_start && (!d.annotations.empty() || !d.comments.empty());
  }

  // ---- text templates inside strings (`@yaml/text-templated-strings`: texttemplate's) ------

  void build_string(const std::string& s, int tag, int node_line, const std::string& debug,
                    std::string_view instruction, std::vector<CodeLine>& out) {
    start_text_template(c_, s, node_line, out);
    CodeLine last = line(c_.op(instruction) + "(" + std::to_string(tag) + ", (" + c_.op("end_ctx") +
                             "())) # " + debug,
                         node_line);
    if (last.src > 0) {
      last.has_sel = true;
      last.sel_line = last.src;
      last.sel_text = c_.src_text(last.src);
    }
    out.push_back(std::move(last));
    out.push_back(line(c_.op("set_ctx_type") + "(\"yaml\")", 0));
  }

  CompiledTemplate& c_;
  bool ignore_unknown_;
};

using LoadedDocs = std::shared_ptr<std::vector<yaml::Document>>;

// Whether some annotation is more than a `#@comment` (ytt's comments are not templating).
bool templating_annotations(const std::vector<yaml::Annotation>& anns) {
  for (const auto& a : anns) {
    if (a.name != kCommentAnnotation) return true;
  }
  return false;
}

bool node_templated(const yaml::Node& n) {
  for (const auto& it : n.items) {
    if (templating_annotations(it.annotations) || node_templated(it.key) ||
        node_templated(it.value)) {
      return true;
    }
  }
  for (const auto& el : n.elements) {
    if (templating_annotations(el.annotations) || node_templated(el)) return true;
  }
  return false;
}

// ytt's HasTemplating: some `#@` comment (code or annotation) anywhere in the file.
bool has_templating(const std::vector<yaml::Document>& docs) {
  for (const auto& d : docs) {
    if (templating_annotations(d.annotations) || node_templated(d.root)) return true;
  }
  return false;
}

// Plain YAML (no templating): of the items with one key the last one stays, in the first
// one's place (ytt's OverrideMapKeys).
void override_map_keys(yaml::Node& n) {
  if (n.kind == yaml::Kind::kMap && n.items.size() > 1) {
    std::vector<yaml::MapItem> kept;
    kept.reserve(n.items.size());
    for (auto& it : n.items) {
      bool replaced = false;
      if (it.key.is_scalar()) {
        for (auto& k : kept) {
          if (k.key.is_scalar() && k.key.kind == it.key.kind && yaml::equal(k.key, it.key)) {
            k = std::move(it);
            replaced = true;
            break;
          }
        }
      }
      if (!replaced) kept.push_back(std::move(it));
    }
    n.items = std::move(kept);
  }
  for (auto& it : n.items) override_map_keys(it.value);
  for (auto& el : n.elements) override_map_keys(el);
}

struct CheckedDocs {
  LoadedDocs docs;
  std::vector<DPtr> roots;  // LoadedYaml::roots
  bool templated = false;
  bool duplicates = false;  // some map repeats a key (judged when the template runs)
  bool comments = false;    // some plain `#` comment (a templated file rejects it)
};

bool node_commented(const yaml::Node& n) {
  for (const auto& it : n.items) {
    if (!it.comments.empty() || node_commented(it.value)) return true;
  }
  for (const auto& el : n.elements) {
    if (!el.comments.empty() || node_commented(el)) return true;
  }
  return false;
}

// The documents of a loaded file, or its first YAML error as ytt words it; `plain` (a file
// marked yaml-plain) is never templated.
CheckedDocs checked_docs(LoadedYaml&& loaded, bool plain) {
  CheckedDocs out;
  for (const auto& d : loaded.diags.items()) {
    if (d.code == "HK002" && d.severity != diag::Severity::kError) {
      out.duplicates = true;
    } else if (d.severity == diag::Severity::kError) {
      throw TemplateError{
          "- " + d.message + "\n    " + loaded.path + ":" + std::to_string(d.span.begin.line),
          false, nullptr};
    }
  }
  // Every annotation is a `#@` comment: without one in the text there is nothing to walk for.
  out.templated = !plain && loaded.has_marker && has_templating(loaded.docs);
  if (out.templated && loaded.has_collection_key) {
    throw Unsupported{"a map key that is a map or array in a template (ytt crashes)"};
  }
  if (!out.templated && loaded.has_array_key) {
    throw Unsupported{"a map key that holds an array (ytt prints its array items' internals)"};
  }
  if (!out.templated && out.duplicates) {
    for (auto& d : loaded.docs) override_map_keys(d.root);
  }
  if (out.templated && loaded.has_plain_hash) {
    for (const auto& d : loaded.docs) {
      if (!d.comments.empty() || node_commented(d.root)) out.comments = true;
    }
  }
  out.docs = std::make_shared<std::vector<yaml::Document>>(std::move(loaded.docs));
  out.roots = std::move(loaded.roots);
  return out;
}

std::shared_ptr<CompiledTemplate> compile_template(const SourceFile& file, const LoadedDocs& docs,
                                                   int number, bool ignore_unknown_comments) {
  auto c = std::make_shared<CompiledTemplate>();
  c->file = file.path;
  c->number = number;
  c->lines = file.lines;
  try {
    TemplateCompiler(*c, ignore_unknown_comments).compile(*docs);
  } catch (const CompileProblem& p) {
    throw TemplateError{"Compiling YAML template '" + file.path + "': " + p.message, true, nullptr};
  }
  return c;
}

}  // namespace

std::vector<DDoc> eval_template(Files& files, const SourceFile& file, sl::Thread& thread,
                                std::optional<LoadedYaml> loaded) {
  // ytt reads a file marked as neither template nor library (yaml-plain) without its comments
  const bool plain = !is_template_file(file) && !is_library_file(file);
  CheckedDocs checked = checked_docs(
      loaded ? std::move(*loaded) : load_yaml(file.path, file.text(), files.strict_yaml), plain);
  LoadedDocs docs = checked.docs;
  if (!checked.templated) {  // plain YAML: ytt does not compile it
    files.module_cache[file.path] = sl::Module{};
    std::vector<DDoc> out;
    for (size_t i = 0; i < docs->size(); ++i) {
      yaml::Document& d = (*docs)[i];
      bool marker = d.explicit_start;
      DDoc doc;
      doc.value = i < checked.roots.size() && checked.roots[i] ? std::move(checked.roots[i])
                                                               : from_yaml(std::move(d.root));
      doc.span = d.span;
      if (!marker) doc.span.begin.line = i == 0 ? 1 : 0;
      doc.file = file.path;
      doc.implicit = !marker;
      out.push_back(std::move(doc));
    }
    return out;
  }
  const int template_number = 2 + (*files.templates_evaluated)++;
  if (!checked.duplicates && !checked.comments) {
    if (auto direct = build_without_program(file, thread, *docs, checked.roots)) {
      files.module_cache[file.path] = sl::Module{};  // no code: nothing to load from it
      return std::move(*direct);
    }
  }
  // The program is generated from YAML nodes: a root converted ahead of time goes back (a
  // file converted ahead has nothing for the program, so this is a safety net only).
  for (size_t i = 0; i < checked.roots.size(); ++i) {
    if (checked.roots[i]) (*docs)[i].root = to_yaml(*checked.roots[i]);
  }
  auto compiled = compile_template(file, docs, template_number, files.ignore_unknown_comments);
  return run_compiled(files, file, thread, std::move(compiled)).docs;
}

bool is_templated(const LoadedYaml& y) { return y.has_marker && has_templating(y.docs); }

}  // namespace hintkit::ytt
