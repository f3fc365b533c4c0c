// ytt's texttemplate: the parser of `(@ @)` pieces (ytt's parser.go) and their compilation into
// a text root's nodes and code (template.go), and a text template file's evaluation.
#include "ytt/texttemplate/texttemplate.h"

#include <algorithm>
#include <memory>

#include "gocompat/gocompat.h"

namespace hintkit::ytt {

namespace {

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

CodeLine sel_line(const CompiledTemplate& c, std::string code, int line_no,
                  const std::string& content) {
  CodeLine l(std::move(code));
  if (c.has_line(line_no)) {  // wrapped with the file's line, the piece as the selection
    l.src = line_no;
    l.has_sel = true;
    l.sel_line = line_no;
    l.sel_text = content;
  }
  return l;
}

// A text template's text node: `text` as written, or empty for one that code sets.
int add_text(CompiledTemplate& c, int root, int line, std::string text) {
  TplNode n{NodeKind::kText, root, 0, line, {}, {}, nullptr, nullptr, std::move(text), false};
  return c.add_node(std::move(n));
}

// The pieces of a text template under text root `root` (ytt's texttemplate compile): text
// becomes a node set as written; `(@= expr @)` a node set to the expression's value; other
// code is copied line by line. `-` after `(@` trims the white space before the code, `-`
// before `@)` the white space after it.
void build_pieces(CompiledTemplate& c, std::vector<Piece>& pieces, int root,
                  std::vector<CodeLine>& out) {
  bool trim_right = false;
  for (size_t i = 0; i < pieces.size(); ++i) {
    Piece& p = pieces[i];
    if (!p.code) {
      if (trim_right) {
        trim_space_left(p.content);
        trim_right = false;
      }
      int t = add_text(c, root, p.line, p.content);
      out.push_back(
          sel_line(c, c.op("start_node") + "(" + std::to_string(t) + ")", p.line, p.content));
      out.push_back(
          sel_line(c, c.op("set_node") + "(" + std::to_string(t) + ")", p.line, p.content));
      continue;
    }
    const std::string& ct = p.content;
    trim_right = !ct.empty() && ct.back() == '-';
    if (!ct.empty() && ct[0] == '-' && i != 0 && !pieces[i - 1].code) {
      // The previous text node was already emitted: its node holds the text it prints (the
      // source line shown in errors keeps the text as written, as in ytt).
      std::string& prev = pieces[i - 1].content;
      trim_space_right(prev);
      if (c.nodes.back().kind == NodeKind::kText) c.nodes.back().text = prev;
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
      int t = add_text(c, root, p.line, {});
      out.push_back(sel_line(c, c.op("start_node") + "(" + std::to_string(t) + ")", p.line, ct));
      out.push_back(sel_line(c, c.op("set_node") + "(" + std::to_string(t) + ", (" + code + "))",
                             p.line, ct));
    } else {
      size_t from = 0;
      int k = 0;
      while (true) {
        size_t nl = code.find('\n', from);
        std::string part =
            code.substr(from, nl == std::string::npos ? std::string::npos : nl - from);
        out.push_back(sel_line(c, part, p.line + k, part));
        if (nl == std::string::npos) break;
        from = nl + 1;
        ++k;
      }
    }
  }
}

}  // namespace

void start_text_template(CompiledTemplate& c, const std::string& text, int start_line,
                         std::vector<CodeLine>& out) {
  std::vector<Piece> pieces = parse_text(text, start_line);
  int root = c.add_node({NodeKind::kTextRoot, kRootTag, 0, 0, {}, {}, nullptr, nullptr, {}, false});
  out.push_back(c.code_line(c.op("set_ctx_type") + "(\"text\")", 0));
  out.push_back(c.code_line(c.op("start_ctx") + "(\"text\")", 0));
  out.push_back(c.code_line(c.op("start_node") + "(" + std::to_string(root) + ")", 0));
  build_pieces(c, pieces, root, out);
}

std::string eval_text_template(Files& files, const SourceFile& file, sl::Thread& thread) {
  auto c = std::make_shared<CompiledTemplate>();
  c->file = file.path;
  c->number = 2 + (*files.templates_evaluated)++;
  c->lines = file.lines;
  try {
    start_text_template(*c, file.text(), 1, c->code);
    c->code.push_back(c->code_line(c->op("end_ctx") + "()", 0));
  } catch (const CompileProblem& p) {
    throw TemplateError{"Parsing text template '" + file.path + "': " + p.message, true, nullptr};
  }
  return run_compiled(files, file, thread, std::move(c)).text;
}

}  // namespace hintkit::ytt
