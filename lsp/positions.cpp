#include "lsp/positions.h"

#include <algorithm>

#include "diag/diag.h"

namespace hintkit::lsp {
namespace {

// Length of the UTF-8 sequence starting with byte `b` (1 for stray bytes).
size_t sequence_length(unsigned char b) {
  if (b >= 0xF0) return 4;
  if (b >= 0xE0) return 3;
  if (b >= 0xC0) return 2;
  return 1;
}

}  // namespace

LineIndex::LineIndex(std::string_view text) : text_(text), starts_(diag::line_starts(text)) {}

std::string_view LineIndex::line(int zero_based) const {
  if (zero_based < 0) return {};
  return diag::line_at(text_, starts_, static_cast<size_t>(zero_based));
}

int LineIndex::utf16_column(int line1, int column1) const {
  std::string_view l = line(line1 - 1);
  size_t bytes = std::min(static_cast<size_t>(std::max(column1 - 1, 0)), l.size());
  int units = 0;
  for (size_t i = 0; i < bytes;) {
    size_t n = sequence_length(static_cast<unsigned char>(l[i]));
    units += n == 4 ? 2 : 1;
    i += n;
  }
  return units;
}

size_t LineIndex::offset(int line0, int utf16_character) const {
  if (line0 < 0) return 0;
  if (line0 >= line_count()) return text_.size();
  std::string_view l = line(line0);
  size_t i = 0;
  int units = 0;
  while (i < l.size() && units < utf16_character) {
    size_t n = sequence_length(static_cast<unsigned char>(l[i]));
    units += n == 4 ? 2 : 1;
    i += n;
  }
  return starts_[line0] + std::min(i, l.size());
}

}  // namespace hintkit::lsp
