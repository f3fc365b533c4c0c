// Internal: LSP base protocol framing. `Framer` takes bytes as they arrive and hands out
// whole message bodies; `frame(body)` wraps one for sending.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace hintkit::lsp {

// A message bigger than this is refused (its bytes are skipped): an editor's document is
// far smaller, and a bogus length must not make the server buffer without bound.
inline constexpr size_t kMaxMessageBytes = 64u << 20;

class Framer {
 public:
  void feed(std::string_view bytes) { buffer_.append(bytes); }
  // The next complete body, if one has arrived. A malformed header block is dropped and
  // reported through `take_error()`; reading then resumes at the next header.
  std::optional<std::string> next();
  std::optional<std::string> take_error();

 private:
  std::string buffer_;
  size_t skip_ = 0;  // bytes of a refused oversized body still to discard
  std::optional<std::string> error_;
};

std::string frame(std::string_view body);

}  // namespace hintkit::lsp
