// Places of values built in memory or with no position at all, as ytt's errors show them.
#include <mutex>

#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::ytt {

namespace {

constexpr int kUnprintableColumn = -1;
constexpr int kNoPositionColumn = -2;

// Every memory line of the process, numbered from 1 (few: one per item of a with_data_values
// argument). Libraries render the spans their caller made, so the table is not per run.
std::vector<std::string>& memory_lines() {
  static std::vector<std::string> lines;
  return lines;
}
std::mutex& memory_lines_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

diag::Span memory_span(std::string line) {
  std::lock_guard lock(memory_lines_mutex());
  auto& lines = memory_lines();
  lines.push_back(std::move(line));
  diag::Span s;
  s.begin.column = static_cast<int>(lines.size());
  return s;
}

diag::Span unprintable_memory_span() {
  diag::Span s;
  s.begin.column = kUnprintableColumn;
  return s;
}

diag::Span no_position_span() {
  diag::Span s;
  s.begin.column = kNoPositionColumn;
  return s;
}

bool is_no_position(const diag::Span& s) {
  return s.begin.line == 0 && s.file.empty() && s.begin.column == kNoPositionColumn;
}

bool is_unprintable_memory(const diag::Span& s) {
  return s.begin.line == 0 && s.file.empty() && s.begin.column == kUnprintableColumn;
}

const std::string* memory_line(const diag::Span& s) {
  if (s.begin.line != 0 || !s.file.empty() || s.begin.column <= 0) return nullptr;
  std::lock_guard lock(memory_lines_mutex());
  const auto& lines = memory_lines();
  const auto i = static_cast<size_t>(s.begin.column);
  return i <= lines.size() ? &lines[i - 1] : nullptr;
}
}  // namespace hintkit::ytt
