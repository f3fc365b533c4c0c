// Did-you-mean: the closest candidate by optimal-string-alignment distance.
#include <algorithm>
#include <cctype>
#include <vector>

#include "diag/diag.h"

namespace hintkit::diag {
namespace {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}

// Edit distance where swapping two adjacent letters counts as one edit ("requried").
size_t distance(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  std::vector<size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = j;
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                                  std::tolower(static_cast<unsigned char>(b[j - 1]))
                              ? 0
                              : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
      }
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

}  // namespace

std::optional<std::string> nearest(std::string_view word,
                                   std::span<const std::string_view> candidates) {
  std::optional<std::string> best;
  size_t best_distance = static_cast<size_t>(-1);
  for (std::string_view c : candidates) {
    if (c == word) continue;
    if (equal_ignoring_case(c, word)) return std::string(c);
    // Long words tolerate more typos; very short ones only one.
    const size_t limit = std::max<size_t>(1, std::max(word.size(), c.size()) / 3);
    const size_t d = distance(word, c);
    if (d <= limit && d < best_distance) {
      best_distance = d;
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

}  // namespace hintkit::diag
