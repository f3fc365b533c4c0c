// Did-you-mean: one bounded edit distance under two selection rules, hintkit's own (`nearest`)
// and starlark-go's spell.Nearest (`go_spell_nearest`), whose choice ytt's messages show.
#include <algorithm>
#include <cctype>
#include <vector>

#include "diag/diag.h"

namespace hintkit::diag {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

std::string lowered(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), lower);
  return out;
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [](char x, char y) { return lower(x) == lower(y); });
}

// starlark-go's fold: '_' dropped, case folded.
std::string go_fold(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c != '_') out += lower(c);
  }
  return out;
}

}  // namespace

std::optional<size_t> edit_distance_within(std::string_view a, std::string_view b, size_t limit,
                                           bool transpositions) {
  if (a.size() > b.size()) std::swap(a, b);
  const size_t n = a.size(), m = b.size();
  if (m - n > limit) return std::nullopt;  // every alignment needs that many insertions
  if (n == 0) return m;
  // Ukkonen's band: a cell with |i - j| > limit costs more than `limit` on any path through it,
  // so only 2 * limit + 1 cells per row are computed; outside the band a cell reads as
  // `over`. Rows rotate through three buffers (the third for transpositions, two rows back).
  const size_t over = limit + 1;
  std::vector<size_t> prev2(m + 1, over), prev(m + 1, over), cur(m + 1, over);
  for (size_t j = 0; j <= std::min(m, limit); ++j) prev[j] = j;
  for (size_t i = 1; i <= n; ++i) {
    const size_t lo = i > limit ? i - limit : 0;
    const size_t hi = std::min(m, i + limit);
    // The cell left of the band still holds a value from three rows back.
    if (lo > 0) cur[lo - 1] = over;
    size_t row_min = over;
    for (size_t j = lo; j <= hi; ++j) {
      size_t d;
      if (j == 0) {
        d = i;
      } else {
        const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
        d = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
        // Two adjacent letters swapped count as one edit ("requried").
        if (transpositions && i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
          d = std::min(d, prev2[j - 2] + 1);
      }
      cur[j] = std::min(d, over);
      row_min = std::min(row_min, cur[j]);
    }
    // Every later cell is at least this row's smallest (a transposition's two-rows-back cell
    // is never cheaper than a substitution path through this row).
    if (row_min > limit) return std::nullopt;
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  if (prev[m] > limit) return std::nullopt;
  return prev[m];
}

std::optional<std::string> nearest(std::string_view word,
                                   std::span<const std::string_view> candidates) {
  if (word.size() > kMaxSpellingBytes) return std::nullopt;
  const std::string w = lowered(word);
  std::optional<std::string> best;
  size_t best_distance = static_cast<size_t>(-1);
  for (std::string_view c : candidates) {
    if (c == word) continue;
    if (equal_ignoring_case(c, word)) return std::string(c);
    // Long words tolerate more typos; very short ones only one. Only a closer candidate than
    // the best so far matters, so the budget shrinks as candidates are found.
    const size_t limit =
        std::min(std::max<size_t>(1, std::max(word.size(), c.size()) / 3), best_distance - 1);
    const size_t gap = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (gap > limit) continue;
    if (auto d = edit_distance_within(w, lowered(c), limit, true)) {
      best_distance = *d;
      best = std::string(c);
    }
  }
  return best;
}

std::optional<std::string> nearest(std::string_view word,
                                   const std::vector<std::string>& candidates) {
  std::vector<std::string_view> views(candidates.begin(), candidates.end());
  return nearest(word, std::span<const std::string_view>(views));
}

std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates) {
  auto n = nearest(word, candidates);
  return n ? "did you mean \"" + *n + "\"?" : std::string();
}

std::string go_spell_nearest(std::string_view word, const std::vector<std::string>& candidates) {
  if (word.size() > kMaxGoSpellingBytes) return "";
  const std::string x = go_fold(word);
  std::string best;
  size_t best_distance = (x.size() + 1) / 2;  // up to half the word mistyped
  for (const std::string& c : candidates) {
    if (best_distance == 0) break;
    // Only a strictly closer candidate replaces the best: the first of equals stays.
    if (auto d = edit_distance_within(x, go_fold(c), best_distance - 1, false)) {
      best_distance = *d;
      best = c;
    }
  }
  return best;
}

}  // namespace hintkit::diag
