// How Go words things ytt prints: strconv.Quote, and go-yaml v2's YAML errors.
#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::schema {

std::optional<std::string> go_quote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      // Runes Go's unicode.IsPrint accepts for certain: Latin-1 letters and signs (not the
      // soft hyphen), Latin Extended-A/B and the CJK ideographs; any other is refused.
      uint32_t r = 0;
      size_t n = 0;
      if ((c >> 5) == 6) {
        r = c & 0x1F;
        n = 2;
      } else if ((c >> 4) == 14) {
        r = c & 0x0F;
        n = 3;
      } else {
        return std::nullopt;
      }
      if (i + n > s.size()) return std::nullopt;
      for (size_t k = 1; k < n; ++k) {
        const auto cc = static_cast<unsigned char>(s[i + k]);
        if ((cc & 0xC0) != 0x80) return std::nullopt;
        r = (r << 6) | (cc & 0x3F);
      }
      const bool printable =
          n == 2 ? r >= 0xA1 && r <= 0x24F && r != 0xAD : r >= 0x4E00 && r <= 0x9FFF;
      if (!printable) return std::nullopt;
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    switch (c) {
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\v':
        out += "\\v";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  return out + "\"";
}

std::string go_yaml_error(const diag::Diagnostic& d, std::string_view text,
                          bool through_ytt_parser) {
  switch (yaml::error_kind(d)) {
    case yaml::ErrorKind::kUnsupportedLineBreak:
      // ytt reads on; its values and lines would differ from ours.
      throw Unsupported{
          "YAML with CR (without LF), NEL, LS or PS line breaks (U+000D, U+0085, U+2028, U+2029)"};
    case yaml::ErrorKind::kUnsupportedFlowColon:
      throw Unsupported{"YAML with a ':' and text right after '?', an anchor or a tag in [] or {}"};
    case yaml::ErrorKind::kUnsupportedNelNbspEscape:
      throw Unsupported{"YAML with the escapes \\N or \\_ in double-quoted text"};
    case yaml::ErrorKind::kUnsupportedEmptyExplicitKey:
      throw Unsupported{"YAML with an empty key after a '?' key indicator"};
    case yaml::ErrorKind::kUnsupportedFlowEntryLines:
      throw Unsupported{"YAML flow map entries without ':' that end on a later line"};
    case yaml::ErrorKind::kUnsupportedAnchorName:
      // go-yaml ends the name earlier than our parser does; the trees would differ.
      throw Unsupported{"YAML anchor or alias names followed by ':', '?', '%', '@' or '`'"};
    case yaml::ErrorKind::kIncompatibleYamlVersion:
      // ytt's parser (files, flag values and yaml.decode alike) puts a `---` line before a
      // text that does not start with one and takes one off the line go-yaml names; on the
      // text's first line that leaves line 0, where ytt crashes.
      if (d.span.begin.line == 1) {
        throw Unsupported{"a %YAML directive other than 1.1 on a file's first line (ytt crashes)"};
      }
      return yaml::go_yaml_message(d, text, through_ytt_parser);
    case yaml::ErrorKind::kNone:
      // Limits (HK003) and problems found after loading: our words at go-yaml's place.
      return d.span.begin.line > 0
                 ? "yaml: line " + std::to_string(d.span.begin.line) + ": " + d.message
                 : "yaml: " + d.message;
    default:
      // Every error kind of the loader: go-yaml's words, which the yaml module owns.
      return yaml::go_yaml_message(d, text, through_ytt_parser);
  }
}
}  // namespace hintkit::schema
