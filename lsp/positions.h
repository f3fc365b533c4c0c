// Internal: hintkit positions are 1-based lines and 1-based byte columns; LSP's are 0-based
// lines and 0-based UTF-16 code unit offsets. Conversions need the line's text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hintkit::lsp {

class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  std::string_view line(int zero_based) const;
  int line_count() const { return static_cast<int>(starts_.size()); }
  // 1-based byte column on 1-based line -> 0-based UTF-16 offset (clamped to the line).
  int utf16_column(int line1, int column1) const;
  // 0-based LSP position -> byte offset into the text (clamped).
  size_t offset(int line0, int utf16_character) const;

 private:
  std::string_view text_;
  std::vector<size_t> starts_;
};

}  // namespace hintkit::lsp
