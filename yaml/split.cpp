// `load_split`: a long stream of documents read as two halves, the second on another thread.
// The halves are cut at a `---` line, where every state of the reader ends (an open quote, a
// flow collection left open there is an error in the half, which sends the text back to the
// whole-stream reader). Text whose documents could reach into each other (anchors and
// aliases, directives) or whose comments could attach across the cut is not cut at all.
#include <algorithm>
#include <array>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "yaml/internal.h"
#include "yaml/yaml.h"

namespace hintkit::yaml {
namespace {

// Streams shorter than this are read whole: a thread costs more than half of such a read.
constexpr size_t kSplitMinBytes = size_t{64} << 10;

void shift(diag::Span& s, int lines) {
  if (s.begin.line > 0) s.begin.line += lines;
  if (s.end.line > 0) s.end.line += lines;
}

// Moves every position in `n` down by `lines` (the lines of the first half).
void shift(Node& n, int lines) {
  shift(n.span, lines);
  if (n.item_line > 0) n.item_line += lines;
  for (auto& a : n.annotations) shift(a.span, lines);
  for (auto& c : n.comments) shift(c.span, lines);
  for (auto& it : n.items) {
    shift(it.key, lines);
    shift(it.value, lines);
    shift(it.span, lines);
    for (auto& a : it.annotations) shift(a.span, lines);
    for (auto& c : it.comments) shift(c.span, lines);
  }
  for (auto& el : n.elements) shift(el, lines);
}

}  // namespace

namespace internal {

size_t split_offset(std::string_view text) {
  if (text.size() < kSplitMinBytes) return std::string_view::npos;
  // `&`/`*`: an alias may refer to an anchor of an earlier document; `%`: directives belong to
  // the next document; `#`: comments attach to the nodes around them; `\r`, `\t` and a byte
  // order mark: rare enough to be left to the whole-stream reader.
  // (One table look-up a byte: find_first_of with six characters costs many times more.)
  static constexpr auto kStop = [] {
    std::array<bool, 256> stop{};
    for (unsigned char c : std::string_view("&*%#\r\t")) stop[c] = true;
    return stop;
  }();
  for (unsigned char c : text)
    if (kStop[c]) return std::string_view::npos;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") return std::string_view::npos;
  for (size_t at = text.find("\n---\n", text.size() / 2); at != std::string_view::npos;
       at = text.find("\n---\n", at + 1)) {
    // The line above the marker holds content: a blank line there is left to the whole read
    // (the cut is kept to the shape the tests compare against the whole read).
    size_t line_start = at == 0 ? std::string_view::npos : text.rfind('\n', at - 1);
    line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
    std::string_view above = text.substr(line_start, at - line_start);
    if (above.find_first_not_of(' ') != std::string_view::npos) return at + 1;
  }
  return std::string_view::npos;
}

}  // namespace internal

std::vector<Document> load_split(
    std::string_view source, std::string_view file, diag::Diagnostics& diags,
    const LoadOptions& options, const std::function<void()>& after_thread,
    const std::function<void(size_t half, std::vector<Document>& docs)>& each_half,
    bool* halves_used) {
  if (halves_used) *halves_used = false;
  const size_t cut = internal::split_offset(source);
  if (cut == std::string_view::npos) return load(source, file, diags, options);
  // Each half is finished on its own thread: the second one's positions moved down by the
  // lines of the first, then `each_half`, when nothing is to be reported (else the whole
  // stream is read again below).
  auto finish = [&](size_t half, std::vector<Document>& docs, const diag::Diagnostics& d) {
    if (!d.empty() || docs.empty()) return false;
    if (half == 1) {
      const int lines_before = static_cast<int>(
          std::count(source.begin(), source.begin() + static_cast<long>(cut), '\n'));
      for (auto& doc : docs) {
        shift(doc.root, lines_before);
        shift(doc.span, lines_before);
        for (auto& a : doc.annotations) shift(a.span, lines_before);
        for (auto& c : doc.comments) shift(c.span, lines_before);
      }
    }
    if (each_half) each_half(half, docs);
    return true;
  };
  // The second half comes back through state the worker shares: the thread's own end (its
  // heap handed back, its stack released) is left off the caller's path.
  struct Second {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    bool ok = false;
    diag::Diagnostics diags;
    std::vector<Document> docs;
  };
  auto second = std::make_shared<Second>();
  std::thread([&, second] {
    bool ok = false;
    try {
      second->docs = load(source.substr(cut), file, second->diags, options);
      ok = finish(1, second->docs, second->diags);
    } catch (...) {
      // read again whole below
    }
    std::lock_guard lock(second->mu);
    second->ok = ok;
    second->done = true;
    second->cv.notify_one();
  }).detach();
  diag::Diagnostics first_diags;
  std::vector<Document> first;
  bool first_ok = false;
  try {
    first = load(source.substr(0, cut), file, first_diags, options);
    first_ok = finish(0, first, first_diags);
  } catch (...) {
    // read again whole below
  }
  {
    std::unique_lock lock(second->mu);
    second->cv.wait(lock, [&] { return second->done; });
  }
  if (after_thread) after_thread();
  const bool second_ok = second->ok;
  // Anything to report (an error, a repeated key, a limit) is reported as the whole stream
  // reports it, from the whole stream.
  if (!first_ok || !second_ok) return load(source, file, diags, options);
  first.reserve(first.size() + second->docs.size());
  for (auto& d : second->docs) first.push_back(std::move(d));
  if (halves_used) *halves_used = true;
  return first;
}

}  // namespace hintkit::yaml
