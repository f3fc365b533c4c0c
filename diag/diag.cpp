#include "diag/diag.h"

#include <algorithm>
#include <mutex>
#include <tuple>
#include <unordered_set>

namespace hintkit::diag {

FileName::FileName(std::string_view name) {
  if (name.empty()) return;
  // Few distinct names per run (one per input file); entries live until exit and node-based
  // storage keeps their addresses stable.
  static std::mutex mu;
  static auto* table = new std::unordered_set<std::string>();
  std::lock_guard lock(mu);
  name_ = &*table->emplace(name).first;
}

const std::string& FileName::empty_string() {
  static const std::string empty;
  return empty;
}

std::vector<size_t> line_starts(std::string_view text) {
  std::vector<size_t> starts{0};
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))) {
      starts.push_back(i + 1);
    }
  }
  return starts;
}

std::string_view line_at(std::string_view text, const std::vector<size_t>& starts, size_t index) {
  if (index >= starts.size()) return {};
  const size_t begin = starts[index];
  size_t end = index + 1 < starts.size() ? starts[index + 1] - 1 : text.size();
  if (end > begin && end < text.size() && text[end] == '\n' && text[end - 1] == '\r') {
    --end;  // the CR of a CR LF
  }
  return text.substr(begin, end - begin);
}

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNote:
      return "note";
  }
  return "error";
}

Diagnostic& Diagnostics::add(Diagnostic d) {
  items_.push_back(std::move(d));
  return items_.back();
}

Diagnostic& Diagnostics::error(std::string code, Span span, std::string message, std::string path) {
  return add(Diagnostic{Severity::kError,
                        std::move(code),
                        std::move(span),
                        std::move(path),
                        std::move(message),
                        {},
                        {},
                        0,
                        {}});
}

Diagnostic& Diagnostics::warning(std::string code, Span span, std::string message,
                                 std::string path) {
  return add(Diagnostic{Severity::kWarning,
                        std::move(code),
                        std::move(span),
                        std::move(path),
                        std::move(message),
                        {},
                        {},
                        0,
                        {}});
}

void Diagnostics::append(Diagnostics&& other) {
  if (items_.empty()) {
    items_ = std::move(other.items_);
  } else {
    items_.insert(items_.end(), std::make_move_iterator(other.items_.begin()),
                  std::make_move_iterator(other.items_.end()));
  }
  other.items_.clear();
}

namespace {
auto sort_key(const Diagnostic& d) {
  return std::tie(d.span.file, d.span.begin.line, d.span.begin.column);
}
bool same(const Diagnostic& a, const Diagnostic& b) {
  return a.severity == b.severity && a.code == b.code && a.span.file == b.span.file &&
         a.span.begin == b.span.begin && a.message == b.message && a.path == b.path;
}
}  // namespace

void Diagnostics::sort_and_dedupe() {
  std::stable_sort(items_.begin(), items_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return sort_key(a) < sort_key(b);
  });
  items_.erase(std::unique(items_.begin(), items_.end(), same), items_.end());
}

size_t Diagnostics::error_count() const {
  return std::count_if(items_.begin(), items_.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::kError; });
}

size_t Diagnostics::warning_count() const {
  return std::count_if(items_.begin(), items_.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::kWarning; });
}

}  // namespace hintkit::diag
