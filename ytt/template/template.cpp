// ytt YAML templates: a loaded file becomes one Starlark program. Code lines (`#@ ...`) are
// copied; every document, map item and array item becomes a call that builds the node under
// its parent's handle; `#@name args` annotations become calls that evaluate their arguments;
// `key: #@ expr` sets the value. `#@ def`/`#@ end` around YAML makes a fragment function whose
// nodes go into its own context. Generated statements keep a map back to source lines, so
// Starlark errors show the template's lines as ytt does. Files without code (only `@schema/*`,
// `@data/*`, `@overlay/*` annotations) skip the program: see "Fast path" below.
#include "ytt/template/template.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <unordered_map>

#include "gocompat/gocompat.h"

namespace hintkit::schema {

namespace {

// ---- Compiling (ytt's yamltemplate.Template) ----------------------------------------------
//
// Every YAML node (document set, document, map, map item, array, array item) gets a tag and a
// `start_node(tag)` instruction; a scalar becomes `set_node(parent_tag)`; a node's `#@ expr`
// on its own line becomes `set_node(tag, (expr))`; `#@name args` annotations become
// `start_node_annotation(...)`; code lines are copied (block shorthand `#@ for/end ...`
// appends an `end` after the node). Each generated line remembers the source line it came
// from (none for purely generated lines), so errors print as ytt prints them.

enum class NodeKind : uint8_t {
  kDocSet,
  kDoc,
  kMap,
  kMapItem,
  kArray,
  kArrayItem,
  kTextRoot,
  kText
};

constexpr int kRootTag = -100;

// `#@comment text`: documentation, dropped like `#!` comments (ytt's AnnotationComment).
constexpr std::string_view kCommentAnnotation = "comment";

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

// strings.TrimLeftFunc(s, unicode.IsSpace).
void trim_space_left(std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    const gocompat::Rune r = gocompat::decode_rune(s, i);
    if (!gocompat::is_space(r.cp)) break;
    i += r.width;
  }
  s.erase(0, i);
}

// strings.TrimRightFunc(s, unicode.IsSpace).
void trim_space_right(std::string& s) {
  size_t end = s.size();
  while (end > 0) {
    const gocompat::Rune r = gocompat::decode_last_rune(std::string_view(s).substr(0, end));
    if (!gocompat::is_space(r.cp)) break;
    end -= r.width;
  }
  s.resize(end);
}

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

// What `start_node(tag)` copies: the source node without its children.
struct TplNode {
  NodeKind kind;
  int parent;  // tag, or kRootTag
  int depth;   // parents up to the root tag
  int line;    // 0: unknown position
  diag::Span span;
  Scalar key;         // kMapItem
  DPtr key_node;      // kMapItem with a collection key
  DPtr scalar;        // kDoc/kMapItem/kArrayItem holding a scalar: that value
  std::string text;   // kText
  bool implicit_doc;  // kDoc without `---`
};

struct CodeLine {
  CodeLine(std::string code_text, int src_line = 0) : code(std::move(code_text)), src(src_line) {}
  std::string code;
  int src = 0;  // source line, 0 when generated
  // text templates: the piece of the line an error points at
  int sel_line = 0;
  std::string sel_text;
  bool has_sel = false;
};

}  // namespace

struct CompiledTemplate {
  std::string file;
  int number = 2;
  std::vector<TplNode> nodes;  // tag - 1
  std::vector<CodeLine> code;
  SourceLines lines;
  std::map<std::pair<int, std::string>, diag::Span> ann_spans;  // (tag, name) -> comment

  std::string op(std::string_view name) const {
    return "__ytt_tpl" + std::to_string(number) + "_" + std::string(name);
  }
  std::string src_text(int line) const {
    return line >= 1 && static_cast<size_t>(line) <= lines.size() ? std::string(lines[line - 1])
                                                                  : std::string();
  }
  bool has_line(int line) const { return line >= 1 && static_cast<size_t>(line) <= lines.size(); }
  // ytt's CodeAsString: lines left-trimmed unless the previous one ends with a backslash.
  std::string code_text() const {
    std::string out;
    bool cont = false;
    for (size_t i = 0; i < code.size(); ++i) {
      std::string_view src = code[i].code;
      if (!cont) {
        size_t b = 0;
        while (b < src.size() && std::isspace(static_cast<unsigned char>(src[b]))) ++b;
        src.remove_prefix(b);
      }
      cont = !src.empty() && src.back() == '\\';
      if (i) out += '\n';
      out += src;
    }
    return out;
  }
  std::string debug_text() const {
    std::string out = "src:  tmpl: code: | srccode";
    for (size_t i = 0; i < code.size(); ++i) {
      const CodeLine& l = code[i];
      char head[32];
      if (l.src > 0) {
        std::snprintf(head, sizeof head, "%4d", l.src);
      } else {
        std::snprintf(head, sizeof head, "????");
      }
      char num[32];
      std::snprintf(num, sizeof num, "%4zu", i + 1);
      out += "\n" + std::string(head) + ": " + num + ": " + l.code + " | " +
             (l.src > 0 ? src_text(l.src) : "");
    }
    return out;
  }
};

namespace {

// A compile failure: ytt's "Compiling YAML template '<file>': <message>".
struct CompileProblem {
  std::string message;
};

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

  void compile(const std::vector<yaml::Document>& docs, const SourceFile& file) {
    file_ = &file;
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

  // A whole text template file (ytt's texttemplate.Template.Compile): one text root.
  void compile_text(const SourceFile& file) {
    file_ = &file;
    std::vector<Piece> pieces = parse_text(file.text(), 1);
    int root = add({NodeKind::kTextRoot, kRootTag, 0, 0, {}, {}, nullptr, nullptr, {}, false});
    c_.code.push_back(line(c_.op("set_ctx_type") + "(\"text\")", 0));
    c_.code.push_back(line(c_.op("start_ctx") + "(\"text\")", 0));
    c_.code.push_back(line(c_.op("start_node") + "(" + std::to_string(root) + ")", 0));
    build_pieces(pieces, root, c_.code);
    c_.code.push_back(line(c_.op("end_ctx") + "()", 0));
  }

 private:
  int add(TplNode n) {
    n.depth = n.parent == kRootTag ? 1 : c_.nodes[static_cast<size_t>(n.parent - 1)].depth + 1;
    c_.nodes.push_back(std::move(n));
    return static_cast<int>(c_.nodes.size());
  }

  // A text template's text node: `text` as written, or empty for one that code sets.
  int add_text(int root, int line, std::string text) {
    TplNode n{NodeKind::kText, root, 0, line, {}, {}, nullptr, nullptr, std::move(text), false};
    return add(std::move(n));
  }

  CodeLine line(std::string code, int src) {
    return CodeLine(std::move(code), c_.has_line(src) ? src : 0);
  }

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
    bool marker = starts_with_marker(d);
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
    return !starts_with_marker(d) && (!d.annotations.empty() || !d.comments.empty());
  }

  bool starts_with_marker(const yaml::Document& d) const {
    // A document that starts with directives starts there (its `---` follows them).
    int l = d.span.begin.line;
    return c_.has_line(l) && (c_.lines[static_cast<size_t>(l - 1)].rfind("---", 0) == 0 ||
                              c_.lines[static_cast<size_t>(l - 1)].rfind("%", 0) == 0);
  }

  // ---- text templates inside strings (ytt's texttemplate package, compiled inline) --------

  struct Piece {
    bool code;
    std::string content;
    int line;
  };

  std::vector<Piece> parse_text(const std::string& s, int start_line) {
    std::vector<Piece> pieces;
    int line = start_line > 0 ? start_line : 1, col = 1;
    Piece cur{false, {}, line};
    size_t start = 0;
    char last = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      char ch = s[i];
      if (last == '(' && ch == '@') {
        if (cur.code) {
          throw CompileProblem{"Unexpected code opening '(@' at line " + std::to_string(line) +
                               " col " + std::to_string(col)};
        }
        cur.content = s.substr(start, i - 1 - start);
        pieces.push_back(std::move(cur));
        cur = Piece{true, {}, line};
        start = i + 1;
      }
      if (last == '@' && ch == ')') {
        if (!cur.code) {
          throw CompileProblem{"Unexpected code closing '@)' at line " + std::to_string(line) +
                               " col " + std::to_string(col)};
        }
        cur.content = s.substr(start, i - 1 - start);
        pieces.push_back(std::move(cur));
        cur = Piece{false, {}, line};
        start = i + 1;
      }
      // columns count runes, as Go's range over a string does
      if (ch == '\n') {
        ++line;
        col = 1;
      } else if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) {
        ++col;
      }
      last = ch;
    }
    if (cur.code) {
      throw CompileProblem{"Missing code closing '@)' at line " + std::to_string(line) + " col " +
                           std::to_string(col)};
    }
    cur.content = s.substr(std::min(start, s.size()));
    pieces.push_back(std::move(cur));
    return pieces;
  }

  CodeLine sel_line(std::string code, int line_no, const std::string& content) {
    CodeLine l(std::move(code));
    if (c_.has_line(line_no)) {  // wrapped with the file's line, the piece as the selection
      l.src = line_no;
      l.has_sel = true;
      l.sel_line = line_no;
      l.sel_text = content;
    }
    return l;
  }

  void build_string(const std::string& s, int tag, int node_line, const std::string& debug,
                    std::string_view instruction, std::vector<CodeLine>& out) {
    std::vector<Piece> pieces = parse_text(s, node_line);
    int root = add({NodeKind::kTextRoot, kRootTag, 0, 0, {}, {}, nullptr, nullptr, {}, false});
    out.push_back(line(c_.op("set_ctx_type") + "(\"text\")", 0));
    out.push_back(line(c_.op("start_ctx") + "(\"text\")", 0));
    out.push_back(line(c_.op("start_node") + "(" + std::to_string(root) + ")", 0));
    build_pieces(pieces, root, out);
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

  // The pieces of a text template under text root `root` (ytt's texttemplate compile): text
  // becomes a node set as written; `(@= expr @)` a node set to the expression's value; other
  // code is copied line by line. `-` after `(@` trims the white space before the code, `-`
  // before `@)` the white space after it.
  void build_pieces(std::vector<Piece>& pieces, int root, std::vector<CodeLine>& out) {
    bool trim_right = false;
    for (size_t i = 0; i < pieces.size(); ++i) {
      Piece& p = pieces[i];
      if (!p.code) {
        if (trim_right) {
          trim_space_left(p.content);
          trim_right = false;
        }
        int t = add_text(root, p.line, p.content);
        out.push_back(
            sel_line(c_.op("start_node") + "(" + std::to_string(t) + ")", p.line, p.content));
        out.push_back(
            sel_line(c_.op("set_node") + "(" + std::to_string(t) + ")", p.line, p.content));
        continue;
      }
      const std::string& ct = p.content;
      trim_right = !ct.empty() && ct.back() == '-';
      if (!ct.empty() && ct[0] == '-' && i != 0 && !pieces[i - 1].code) {
        // The previous text node was already emitted: its node holds the text it prints (the
        // source line shown in errors keeps the text as written, as in ytt).
        std::string& prev = pieces[i - 1].content;
        trim_space_right(prev);
        if (c_.nodes.back().kind == NodeKind::kText) c_.nodes.back().text = prev;
      }
      bool print = ct.rfind("=", 0) == 0 || ct.rfind("-=", 0) == 0;
      // ytt's NodeCodeMeta.Code: "-=", then "=", then "-" are taken off the front one after
      // the other, so `(@=- x @)` prints ` x` (and `-` there trims nothing).
      std::string code = ct;
      for (std::string_view marker : {"-=", "=", "-"}) {
        if (code.starts_with(marker)) code.erase(0, marker.size());
      }
      if (!code.empty() && code.back() == '-') code.pop_back();
      if (print) {
        int t = add_text(root, p.line, {});
        out.push_back(sel_line(c_.op("start_node") + "(" + std::to_string(t) + ")", p.line, ct));
        out.push_back(sel_line(c_.op("set_node") + "(" + std::to_string(t) + ", (" + code + "))",
                               p.line, ct));
      } else {
        size_t from = 0;
        int k = 0;
        while (true) {
          size_t nl = code.find('\n', from);
          std::string part =
              code.substr(from, nl == std::string::npos ? std::string::npos : nl - from);
          out.push_back(sel_line(part, p.line + k, part));
          if (nl == std::string::npos) break;
          from = nl + 1;
          ++k;
        }
      }
    }
  }

  CompiledTemplate& c_;
  bool ignore_unknown_;
  const SourceFile* file_ = nullptr;
};

// ---- Evaluating (ytt's template.EvaluationCtx with the yaml and text dialects) -------------

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

class TemplateRuntime {
 public:
  TemplateRuntime(std::shared_ptr<const CompiledTemplate> c, std::string file)
      : c_(std::move(c)), file_(std::move(file)) {}

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

  // `template.replace(value)` (ytt's EvaluationCtx.Replace for the yaml dialect): the node on
  // top of the innermost context gives way, at once, to the items of `value` in its parent
  // (documents in a document set, map items in a map, array items in an array). The call
  // returns a no-op value that `set_node` ignores.
  sl::Result<sl::Value> replace(const sl::Call& c) {
    if (c.args.size() != 1) return sl::fail_error("expected exactly one argument");
    if (auto hint = conversion_hint(c.args[0])) {
      return sl::fail_error("Unable to convert value: " + *hint);
    }
    if (ctxs_.empty()) return sl::fail_error("expected to find an evaluation context");
    EvalCtx& ctx = ctxs_.back();
    if (ctx.text) return sl::fail_error("unsupported operation");
    if (ctx.parents.empty()) {
      return sl::fail_error(
          "expected to replace document value, map item or array item, but found null");
    }
    ENode& top = ctx.parents.back();
    const ENode* parent = ctx.parents.size() >= 2 ? &ctx.parents[ctx.parents.size() - 2] : nullptr;
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
        if (err.empty()) err = replace_doc(*parent, top, c.args[0]);
        break;
      case NodeKind::kMapItem:
        err = parent_is(NodeKind::kMap, "map");
        if (err.empty()) err = replace_map_item(*parent, top, c.args[0]);
        break;
      case NodeKind::kArrayItem:
        err = parent_is(NodeKind::kArray, "array");
        if (err.empty()) err = replace_array_item(*parent, top, c.args[0]);
        break;
      default:
        return sl::fail_error(
            "expected to replace document value, map item or array item, but found " +
            std::string(go_type_name(top.kind)));
    }
    if (!err.empty()) return sl::fail_error(err);
    return sl::Value(new Noop());
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
  static bool is_noop(const sl::Value& v) {
    return v.is(sl::Kind::kHost) && dynamic_cast<const Noop*>(v.object()) != nullptr;
  }

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

  // yamlmeta.TypeName of what ytt's AsGoValue makes of `v`.
  static std::string replace_type_name(const sl::Value& v) {
    if (is_docset(v)) return "document set";
    if (DPtr n = fragment_node(v)) return n->is_map() ? "map" : "array";
    switch (v.kind()) {
      case sl::Kind::kNone:
        return "null";
      case sl::Kind::kBool:
        return "boolean";
      case sl::Kind::kInt:
        return "integer";
      case sl::Kind::kFloat:
        return "float";
      case sl::Kind::kString:
        return "string";
      case sl::Kind::kDict:
      case sl::Kind::kStruct:
        return gocompat::kOrderedMapType;
      case sl::Kind::kList:
      case sl::Kind::kTuple:
      case sl::Kind::kSet:
        return gocompat::kSliceType;
      default:
        return std::string(v.type_name());
    }
  }

  static bool is_sequence(const sl::Value& v) {
    return !fragment_node(v) &&
           (v.is(sl::Kind::kList) || v.is(sl::Kind::kTuple) || v.is(sl::Kind::kSet));
  }

  std::string replace_doc(const ENode& parent, ENode& top, const sl::Value& with) {
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
      return "expected value to be document set, but was " + replace_type_name(with);
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
  std::string replace_map_item(const ENode& parent, ENode& top, const sl::Value& with) {
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
      return "expected value to be map, but was " + replace_type_name(with);
    }
    std::optional<size_t> at;  // the placeholder's place in the map
    if (!top.removed) at = top.index;
    // ytt's MapItemOverride: an item with the key of one already in the map removes that one
    // (the last with that key), unless the item came with a fragment and is not annotated.
    for (const auto& it : items) {
      std::optional<size_t> prev;
      for (size_t i = 0; i < map.entries.size(); ++i) {
        if (same_entry_key(map.entries[i], it)) prev = i;
      }
      if (!prev) continue;
      if (carries_meta && !find_ann(it.anns, "yaml/map-key-override")) {
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

  std::string replace_array_item(const ENode& parent, ENode& top, const sl::Value& with) {
    DNode& arr = *parent.coll;
    const diag::Span span = top.coll->entries[top.index].span;
    std::vector<DEntry> items;
    if (DPtr frag = fragment_node(with); frag && frag->is_array()) {
      items = frag->entries;
    } else if (is_sequence(with)) {
      items = from_starlark(with, span, InnerSpan::kSame)->entries;
      for (auto& it : items) it.span = span;
    } else {
      return "expected value to be array, but was " + replace_type_name(with);
    }
    if (top.removed) return "expected to find placeholder array item in array";
    const auto at = static_cast<std::ptrdiff_t>(top.index);
    DEntry placeholder = std::move(arr.entries[top.index]);
    const auto pos = arr.entries.erase(arr.entries.begin() + at);
    arr.entries.insert(pos, items.begin(), items.end());
    detach(top, std::move(placeholder), yaml::Kind::kArray);
    return {};
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
            if (!find_ann(f.entry.anns, "yaml/map-key-override")) {
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

  static bool same_entry_key(const DEntry& a, const DEntry& b) {
    if (a.key_node || b.key_node) return false;  // Go compares collection keys by identity
    return same_key(a.key, b.key);
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
  // A deque: a template function recursing 50,000 calls deep keeps as many contexts, which a
  // vector would move on every growth.
  std::deque<EvalCtx> ctxs_;
  std::shared_ptr<std::vector<DDoc>> root_docs_;
  std::string root_text_;
  bool root_taken_ = false;
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
// A map key written as a map or array (`{a: 1}: x`, `? [a]`): ytt's templating indexes a
// map's keys in a Go map, and hashing such a key crashes it.
bool has_collection_key(const yaml::Node& n) {
  for (const auto& it : n.items) {
    if (!it.key.is_scalar() || has_collection_key(it.value)) return true;
  }
  for (const auto& e : n.elements)
    if (has_collection_key(e)) return true;
  return false;
}

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

bool starts_with_marker(const SourceFile& file, const yaml::Document& d) {
  int l = d.span.begin.line;
  return l >= 1 && static_cast<size_t>(l) <= file.lines.size() &&
         (file.lines[l - 1].rfind("---", 0) == 0 || file.lines[l - 1].rfind("%", 0) == 0);
}

std::shared_ptr<CompiledTemplate> compile_template(const SourceFile& file, const LoadedDocs& docs,
                                                   int number, bool ignore_unknown_comments) {
  auto c = std::make_shared<CompiledTemplate>();
  c->file = file.path;
  c->number = number;
  c->lines = file.lines;
  try {
    TemplateCompiler(*c, ignore_unknown_comments).compile(*docs, file);
  } catch (const CompileProblem& p) {
    throw TemplateError{"Compiling YAML template '" + file.path + "': " + p.message, true, nullptr};
  }
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
  // `roots`: documents converted ahead of time (LoadedYaml::roots), taken as they are.
  std::optional<std::vector<DDoc>> build(std::vector<yaml::Document>& docs,
                                         std::vector<DPtr>& roots) {
    // Everything that can send the file to the generated program is decided here, before
    // the first node is consumed.
    std::vector<Shape> shapes(docs.size());
    const bool only_documents_annotated = annotations_only_on(docs);
    for (size_t i = 0; i < docs.size(); ++i) {
      if (!evaluable(docs[i].annotations)) return std::nullopt;
      if (only_documents_annotated) {
        // The whole tree is plain YAML: taken in one piece, without measuring it.
        if (!docs[i].root.is_scalar()) shapes[i] = Shape{.plain = {1}, .end = {1}};
        continue;
      }
      bool annotated = false;
      if (!measure(docs[i].root, shapes[i], annotated)) return std::nullopt;
    }
    std::vector<DDoc> out;
    for (size_t i = 0; i < docs.size(); ++i) {
      yaml::Document& d = docs[i];
      bool explicit_start = starts_with_marker(file_, d);
      if (d.empty && d.root.is_null() && !explicit_start && d.annotations.empty()) continue;
      DDoc doc;
      shape_ = &shapes[i];
      cursor_ = 0;
      doc.span = d.span;
      // The loader's document of trailing annotations is ytt's injected end document, which
      // has no position at all.
      if (d.empty && d.root.is_null() && !explicit_start) doc.span = {};
      doc.value = i < roots.size() && roots[i] ? std::move(roots[i]) : node(d.root);
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
  // True when the file's text writes `#@` no more often than `docs` carry annotations of
  // their own: each annotation is one `#@` comment, so then no node below holds one (a large
  // data values file, annotated only on its `---`).
  bool annotations_only_on(const std::vector<yaml::Document>& docs) const {
    size_t on_documents = 0;
    for (const auto& d : docs) on_documents += d.annotations.size();
    const std::string_view text = file_.text();
    size_t written = 0;
    for (size_t at = text.find("#@"); at != std::string_view::npos; at = text.find("#@", at + 2)) {
      if (++written > on_documents) return false;
    }
    return true;
  }

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
        e.span = item_span(el);
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

namespace {

// Where one frame or compile problem points, as ytt prints it (`pad` before each line).
std::string position_lines(const Files& files, const std::string& file, int line,
                           const std::string& pad) {
  auto it = files.compiled.find(file);
  if (it == files.compiled.end() || !it->second) {
    // ytt's unavailableSource: code not in the file set (the lambdas of @ytt:assert)
    const SourceFile* sf = files.find(file);
    if (!sf) return pad + file + ":" + std::to_string(line) + " | (unavailable)";
    // a Starlark file's lines go without its name (its type may come from a file mark)
    const bool star = file_type(*sf) == FileType::kStarlark;
    return pad + (star ? "" : file + ":") + std::to_string(line) + " | " + files.line(file, line);
  }
  const CompiledTemplate& c = *it->second;
  if (line < 1 || static_cast<size_t>(line) > c.code.size()) return {};
  const CodeLine& l = c.code[static_cast<size_t>(line - 1)];
  auto src = [&](int n) { return pad + file + ":" + std::to_string(n) + " | " + c.src_text(n); };
  if (l.src > 0) {
    if (l.has_sel) return pad + file + ":" + std::to_string(l.sel_line) + " | " + l.sel_text;
    return src(l.src);
  }
  std::string out;
  for (int i = line - 1; i >= 1; --i) {
    if (c.code[static_cast<size_t>(i - 1)].src > 0) {
      out += src(c.code[static_cast<size_t>(i - 1)].src) + "\n";
      break;
    }
  }
  out += pad + file + ":? | " + l.code + " (generated)";
  for (size_t i = static_cast<size_t>(line); i < c.code.size(); ++i) {
    if (c.code[i].src > 0) {
      out += "\n" + src(c.code[i].src);
      break;
    }
  }
  return out;
}

// The generated code of a line (ytt's hints look at it), else the source line.
std::string code_at(const Files& files, const std::string& file, int line) {
  auto it = files.compiled.find(file);
  if (it != files.compiled.end() && it->second && line >= 1 &&
      static_cast<size_t>(line) <= it->second->code.size()) {
    return it->second->code[static_cast<size_t>(line - 1)].code;
  }
  return files.line(file, line);
}

}  // namespace

std::string starlark_error_text(const Files& files, const sl::Error& e) {
  if (e.kind == sl::ErrorKind::kCompile) {
    std::string out;
    std::vector<sl::Problem> problems = e.problems;
    if (problems.empty()) problems.push_back(sl::Problem{e.message, "", {}});
    for (const auto& p : problems) {
      if (!out.empty()) out += "\n";
      out += "- " + sl::with_ytt_hint(p.message, code_at(files, p.file, p.pos.line));
      if (p.pos.line > 0) {
        std::string at = position_lines(files, p.file, p.pos.line, "    ");
        if (!at.empty()) out += "\n" + at;
      }
    }
    return out;
  }
  std::string first = e.message, others;
  if (size_t nl = first.find('\n'); nl != std::string::npos) {
    others = first.substr(nl + 1);
    first.resize(nl);
  }
  std::string code_line = e.frames.empty()
                              ? std::string()
                              : code_at(files, e.frames.front().file, e.frames.front().pos.line);
  std::string out = "- " + sl::with_ytt_hint(first, code_line);
  for (const auto& f : e.frames) {
    if (f.left_out > 0) {
      out += "\n    " + sl::left_out_text(f.left_out);
      continue;
    }
    if (f.pos.line <= 0) continue;
    out += "\n    in " + f.function;
    std::string at = position_lines(files, f.file, f.pos.line, "      ");
    if (!at.empty()) out += "\n" + at;
  }
  if (!others.empty()) {
    out += "\n\n    reason:";
    size_t start = 0;
    while (start <= others.size()) {
      size_t nl = others.find('\n', start);
      out += "\n     " +
             others.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
  }
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

yaml::LoadOptions ytt_yaml_options(bool strict) {
  yaml::LoadOptions options;
  options.ytt_merge_keys = true;
  options.leading_bom_is_text = true;
  options.strict = strict;
  return options;
}

namespace {

// Whether templating `y` can only take each document's tree as it is (DirectBuilder's
// `annotations_only_on` with nothing that would send the file to the generated program): no
// problems, no plain comments, and every `#@` in the text an argument-less data annotation
// on a document.
bool plain_below_documents(const LoadedYaml& y, std::string_view text) {
  if (!y.diags.items().empty() || y.has_plain_hash) return false;
  size_t on_documents = 0;
  for (const auto& d : y.docs) {
    for (const auto& a : d.annotations) {
      if (!data_annotation(a.name) || !trim(a.args).empty()) return false;
    }
    on_documents += d.annotations.size();
  }
  size_t written = 0;
  for (size_t at = text.find("#@"); at != std::string_view::npos; at = text.find("#@", at + 2)) {
    if (++written > on_documents) return false;
  }
  return true;
}

}  // namespace

namespace {
bool holds_array(const yaml::Node& n) {
  if (n.kind == yaml::Kind::kArray) return true;
  for (const auto& it : n.items) {
    if (holds_array(it.key) || holds_array(it.value)) return true;
  }
  return false;
}

}  // namespace

bool has_array_in_key(const yaml::Node& n) {
  for (const auto& it : n.items) {
    if ((!it.key.is_scalar() && holds_array(it.key)) || has_array_in_key(it.value)) return true;
  }
  for (const auto& e : n.elements) {
    if (has_array_in_key(e)) return true;
  }
  return false;
}

LoadedYaml load_yaml(std::string path, std::string_view text, bool strict, bool split,
                     const std::function<void()>& after_split) {
  LoadedYaml out;
  out.path = std::move(path);
  yaml::LoadOptions options = ytt_yaml_options(strict);
  options.keep_comments = true;        // a template rejects plain `#` comments
  options.keep_duplicate_keys = true;  // a template judges repeated keys after evaluation
  out.has_marker = text.find("#@") != std::string_view::npos;
  out.has_plain_hash = false;
  for (size_t at = text.find('#'); at != std::string_view::npos; at = text.find('#', at + 1)) {
    if (at + 1 == text.size() || (text[at + 1] != '@' && text[at + 1] != '!')) {
      out.has_plain_hash = true;
      break;
    }
  }
  // Only `?`, a flow map or a flow list (`[a]: b`) can write a collection key.
  // (Three memchr passes: find_first_of calls memchr once per byte of the text.)
  const bool keys_may_be_collections = text.find('?') != std::string_view::npos ||
                                       text.find('{') != std::string_view::npos ||
                                       text.find('[') != std::string_view::npos;
  // A text without `#` has no annotation: read in halves, it is plain below its documents
  // (`plain_below_documents`) as soon as both halves read without a problem, so each half's
  // roots are converted on the thread that read it.
  struct Half {
    std::vector<DPtr> roots;
    bool has_collection_key = false;
    bool has_array_key = false;
  };
  std::array<Half, 2> halves;
  auto convert_half = [&](size_t h, std::vector<yaml::Document>& docs) {
    Half& half = halves[h];
    half.roots.resize(docs.size());
    for (size_t i = 0; i < docs.size(); ++i) {
      yaml::Node& root = docs[i].root;
      if (keys_may_be_collections) {
        half.has_collection_key = half.has_collection_key || has_collection_key(root);
        half.has_array_key = half.has_array_key || has_array_in_key(root);
      }
      if (!root.is_scalar()) half.roots[i] = from_yaml(std::move(root));
    }
  };
  bool halves_used = false;
  if (split && !out.has_marker && !out.has_plain_hash) {
    out.docs = yaml::load_split(text, out.path, out.diags, options, after_split, convert_half,
                                &halves_used);
  } else if (split) {
    out.docs = yaml::load_split(text, out.path, out.diags, options, after_split);
  } else {
    out.docs = yaml::load(text, out.path, out.diags, options);
  }
  if (halves_used) {
    out.roots = std::move(halves[0].roots);
    out.roots.reserve(out.docs.size());
    for (auto& r : halves[1].roots) out.roots.push_back(std::move(r));
    out.has_collection_key = halves[0].has_collection_key || halves[1].has_collection_key;
    out.has_array_key = halves[0].has_array_key || halves[1].has_array_key;
    return out;
  }
  if (keys_may_be_collections) {
    for (const auto& d : out.docs) {
      out.has_collection_key = out.has_collection_key || has_collection_key(d.root);
      out.has_array_key = out.has_array_key || has_array_in_key(d.root);
    }
  }
  if (plain_below_documents(out, text)) {
    out.roots.resize(out.docs.size());
    for (size_t i = 0; i < out.docs.size(); ++i) {
      yaml::Node& root = out.docs[i].root;
      if (!root.is_scalar()) out.roots[i] = from_yaml(std::move(root));
    }
  }
  return out;
}

namespace {

// Runs a compiled template (YAML or text) as `file`'s program; its globals become the module
// that load() of the file gives. On a Starlark failure throws TemplateError.
std::shared_ptr<TemplateRuntime> run_compiled(Files& files, const SourceFile& file,
                                              sl::Thread& thread,
                                              std::shared_ptr<CompiledTemplate> compiled) {
  files.compiled[file.path] = compiled;
  if (std::getenv("HINTKIT_DEBUG_TEMPLATE")) {
    std::fprintf(stderr, "### template %s\n%s\n", file.path.c_str(),
                 compiled->debug_text().c_str());
  }
  auto rt = std::make_shared<TemplateRuntime>(compiled, file.path);
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
  return rt;
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
      bool marker = starts_with_marker(file, d);
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
    if (auto direct = DirectBuilder(file, thread).build(*docs, checked.roots)) {
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
  return run_compiled(files, file, thread, std::move(compiled))->result();
}

std::string eval_text_template(Files& files, const SourceFile& file, sl::Thread& thread) {
  auto c = std::make_shared<CompiledTemplate>();
  c->file = file.path;
  c->number = 2 + (*files.templates_evaluated)++;
  c->lines = file.lines;
  try {
    TemplateCompiler(*c, files.ignore_unknown_comments).compile_text(file);
  } catch (const CompileProblem& p) {
    throw TemplateError{"Parsing text template '" + file.path + "': " + p.message, true, nullptr};
  }
  return run_compiled(files, file, thread, std::move(c))->text_result();
}

bool is_templated(const LoadedYaml& y) { return y.has_marker && has_templating(y.docs); }

}  // namespace hintkit::schema
