// ytt's CompiledTemplate: the program's text as the interpreter gets it, and the error text
// that shows a failure at the template's own lines (ytt's compiled_template_error.go).
#include <cctype>
#include <cstdio>

#include "ytt/template/template.h"

namespace hintkit::ytt {

int CompiledTemplate::add_node(TplNode n) {
  n.depth = n.parent == kRootTag ? 1 : nodes[static_cast<size_t>(n.parent - 1)].depth + 1;
  nodes.push_back(std::move(n));
  return static_cast<int>(nodes.size());
}

std::string CompiledTemplate::code_text() const {
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
std::string CompiledTemplate::debug_text() const {
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

}  // namespace hintkit::ytt
