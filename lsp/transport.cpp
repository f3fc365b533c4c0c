#include "lsp/transport.h"

#include <cctype>
#include <charconv>

namespace hintkit::lsp {
namespace {

bool header_name_is(std::string_view line, std::string_view name) {
  if (line.size() <= name.size() || line[name.size()] != ':') return false;
  for (size_t i = 0; i < name.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(line[i])) !=
        std::tolower(static_cast<unsigned char>(name[i]))) {
      return false;
    }
  }
  return true;
}

std::optional<size_t> content_length(std::string_view headers) {
  std::optional<size_t> length;
  size_t pos = 0;
  while (pos <= headers.size()) {
    size_t eol = headers.find("\r\n", pos);
    if (eol == std::string_view::npos) eol = headers.size();
    std::string_view line = headers.substr(pos, eol - pos);
    if (header_name_is(line, "Content-Length")) {
      std::string_view v = line.substr(15);
      while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
      while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
      size_t n = 0;
      auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (ec == std::errc() && p == v.data() + v.size()) length = n;
    }
    pos = eol + 2;
  }
  return length;
}

}  // namespace

std::optional<std::string> Framer::next() {
  // A loop, not recursion: hostile input may hold any number of bad header blocks.
  for (;;) {
    if (skip_ > 0) {
      size_t n = std::min(skip_, buffer_.size());
      buffer_.erase(0, n);
      skip_ -= n;
      if (skip_ > 0) return std::nullopt;
    }
    const size_t end = buffer_.find("\r\n\r\n");
    if (end == std::string::npos) {
      if (buffer_.size() > 8192) {  // no header block is this long: garbage, drop it
        error_ = "header block without its blank line";
        buffer_.clear();
      }
      return std::nullopt;
    }
    std::optional<size_t> length = content_length(std::string_view(buffer_.data(), end));
    if (!length) {
      error_ = "message without a valid Content-Length header";
      buffer_.erase(0, end + 4);
      continue;  // what follows may be a whole message already
    }
    if (*length > kMaxMessageBytes) {
      error_ = "message of " + std::to_string(*length) + " bytes refused (limit " +
               std::to_string(kMaxMessageBytes) + ")";
      buffer_.erase(0, end + 4);
      skip_ = *length;
      continue;
    }
    if (buffer_.size() < end + 4 + *length) return std::nullopt;
    std::string body = buffer_.substr(end + 4, *length);
    buffer_.erase(0, end + 4 + *length);
    return body;
  }
}

std::optional<std::string> Framer::take_error() {
  auto e = std::move(error_);
  error_.reset();
  return e;
}

std::string frame(std::string_view body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
}

}  // namespace hintkit::lsp
