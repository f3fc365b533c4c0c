// net/url's escaping (url.go's shouldEscape, escape, unescape): what ytt's @ytt:url and a
// tazuna.yaml template's urlquery give.
#include "gocompat/gocompat.h"

namespace hintkit::gocompat {

namespace {

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int unhex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

constexpr std::string_view kHostSafe = "!$&'()*+,;=:[]<>\"";

}  // namespace

bool url_should_escape(unsigned char c, UrlEncoding mode) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return false;
  // RFC 3986's sub-delims, ':' and '[]' (and, as Go allows, '<>"') stay as they are in a host.
  if ((mode == UrlEncoding::kHost || mode == UrlEncoding::kZone) &&
      kHostSafe.find(char(c)) != kHostSafe.npos)
    return false;
  switch (c) {
    case '-':
    case '_':
    case '.':
    case '~':
      return false;
    case '$':
    case '&':
    case '+':
    case ',':
    case '/':
    case ':':
    case ';':
    case '=':
    case '?':
    case '@':
      switch (mode) {
        case UrlEncoding::kPath:
          return c == '?';
        case UrlEncoding::kPathSegment:
          return c == '/' || c == ';' || c == ',' || c == '?';
        case UrlEncoding::kUserPassword:
          return c == '@' || c == '/' || c == '?' || c == ':';
        case UrlEncoding::kQueryComponent:
          return true;
        case UrlEncoding::kFragment:
          return false;
        default:
          break;
      }
      break;
    default:
      break;
  }
  if (mode == UrlEncoding::kFragment && (c == '!' || c == '(' || c == ')' || c == '*'))
    return false;
  return true;
}

std::string url_escape(std::string_view s, UrlEncoding mode) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (c == ' ' && mode == UrlEncoding::kQueryComponent) {
      out += '+';
    } else if (url_should_escape(c, mode)) {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// Go's url.unescape; on failure returns false with the error text.
bool url_unescape(std::string_view s, UrlEncoding mode, std::string& out, std::string& error) {
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '%') {
      if (i + 2 >= s.size() || !is_hex(s[i + 1]) || !is_hex(s[i + 2])) {
        error = "invalid URL escape " + quote(s.substr(i, 3));
        return false;
      }
      if (mode == UrlEncoding::kHost && unhex(s[i + 1]) < 8 && s.substr(i, 3) != "%25") {
        error = "invalid URL escape " + quote(s.substr(i, 3));
        return false;
      }
      if (mode == UrlEncoding::kZone) {
        unsigned char v = static_cast<unsigned char>(unhex(s[i + 1]) << 4 | unhex(s[i + 2]));
        if (s.substr(i, 3) != "%25" && v != ' ' && url_should_escape(v, UrlEncoding::kHost)) {
          error = "invalid URL escape " + quote(s.substr(i, 3));
          return false;
        }
      }
      i += 3;
    } else {
      unsigned char c = static_cast<unsigned char>(s[i]);
      if ((mode == UrlEncoding::kHost || mode == UrlEncoding::kZone) && c < 0x80 &&
          url_should_escape(c, mode)) {
        error = "invalid character " + quote(s.substr(i, 1)) + " in host name";
        return false;
      }
      ++i;
    }
  }
  out.clear();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%') {
      out += static_cast<char>(unhex(s[i + 1]) << 4 | unhex(s[i + 2]));
      i += 2;
    } else if (s[i] == '+') {
      out += mode == UrlEncoding::kQueryComponent ? ' ' : '+';
    } else {
      out += s[i];
    }
  }
  return true;
}

}  // namespace hintkit::gocompat
