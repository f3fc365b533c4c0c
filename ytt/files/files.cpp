// `Files`, source lines, error excerpts and how ytt names a position's file.
#include <algorithm>

#include "ytt/files/files.h"

namespace hintkit::ytt {

const SourceFile* Files::find(std::string_view path) const {
  for (const auto& f : files)
    if (f.path == path) return &f;
  return caller ? caller->find(path) : nullptr;
}

SourceLines::SourceLines(std::string text)
    : text_(std::make_shared<const std::string>(std::move(text))) {
  const std::string& t = *text_;
  starts_.reserve(static_cast<size_t>(std::count(t.begin(), t.end(), '\n')) + 1);
  size_t start = 0;
  while (start <= t.size()) {
    size_t nl = t.find('\n', start);
    if (nl == std::string::npos) {
      if (start < t.size()) {
        starts_.push_back(static_cast<uint32_t>(start));
        last_end_ = static_cast<uint32_t>(t.size());
      }
      break;
    }
    starts_.push_back(static_cast<uint32_t>(start));
    last_end_ = static_cast<uint32_t>(nl);
    start = nl + 1;
  }
}

SourceLines SourceLines::one(std::string line) {
  SourceLines l;
  l.text_ = std::make_shared<const std::string>(std::move(line));
  l.starts_.push_back(0);
  l.last_end_ = static_cast<uint32_t>(l.text_->size());
  return l;
}

std::string Files::line(std::string_view path, int line) const {
  const SourceFile* f = find(path);
  if (!f || line < 1 || static_cast<size_t>(line) > f->lines.size()) return {};
  return std::string(f->lines[static_cast<size_t>(line) - 1]);
}

std::string excerpt(const Files& files, const std::string& label, const std::string& file,
                    const std::vector<int>& lines) {
  const SourceFile* f = files.find(file);
  int width = files.gutter_digits;
  for (int l : lines) width = std::max<int>(width, static_cast<int>(std::to_string(l).size()));
  std::string bar = std::string(static_cast<size_t>(width) + 3, ' ') + "|\n";
  std::string out = (f && !f->label.empty() ? f->label : label) + ":\n" + bar;
  for (int l : lines) {
    std::string num = l <= 0 ? "?" : std::to_string(l);  // "?": a node built by Starlark
    num.insert(0, static_cast<size_t>(width + 2) - std::min(num.size(), size_t(width + 2)), ' ');
    out += num + " | " + files.line(file, l) + "\n";
  }
  out += bar;
  return out;
}

std::string file_label(const Files& files, const diag::Span& s) {
  const SourceFile* f = files.find(s.file);
  if (f && (!f->label.empty() || f->path.starts_with('\x01'))) return f->label;  // not a file
  return s.file.str();
}

std::string compact_position(const Files& files, const diag::Span& s) {
  const std::string file = file_label(files, s);
  return (file.empty() ? "" : file + ":") + (s.begin.line > 0 ? std::to_string(s.begin.line) : "?");
}


ErrorPlace place_of(const Files& files, const diag::Span& s) {
  if (s.begin.line <= 0 || memory_line(s) || is_no_position(s)) return {};
  const SourceFile* f = files.find(s.file);
  if (f && (!f->label.empty() || f->path.starts_with('\x01'))) return {};  // not a file
  return {s.file.str(), s.begin.line};
}
}  // namespace hintkit::ytt
