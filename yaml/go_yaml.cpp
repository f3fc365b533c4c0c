// go-yaml v2's wording of the loader's errors (see `go_yaml_message` in yaml.h). Syntax errors
// carry go-yaml's message from where its scanner or parser met them (go_scan.cpp); the
// decoder's and the reader's errors are worded here from their kind.
#include "yaml/internal.h"
#include "yaml/yaml.h"

namespace hintkit::yaml {

ErrorKind error_kind(const diag::Diagnostic& d) {
  if (d.kind == 0 || d.kind > static_cast<uint16_t>(ErrorKind::kOther)) return ErrorKind::kNone;
  return static_cast<ErrorKind>(d.kind);
}

std::string go_yaml_message(const diag::Diagnostic& d, bool through_ytt_parser) {
  switch (error_kind(d)) {
    // The decoder's errors (go-yaml's failf) and the reader's name no line.
    case ErrorKind::kBadMerge:
      return "yaml: map merge requires map or sequence of maps as the value";
    case ErrorKind::kBadBinary:
      return "yaml: !!binary value contains invalid base64 data";
    case ErrorKind::kAnchorContainsItself:
      return "yaml: anchor '" + d.kind_detail + "' value contains itself";
    case ErrorKind::kStrictScalar:
      return "yaml: " + d.kind_detail;
    case ErrorKind::kControlCharacter:
      return "yaml: control characters are not allowed";
    case ErrorKind::kInvalidUtf8:
      return "yaml: " +
             (d.kind_detail.empty() ? std::string("invalid leading UTF-8 octet") : d.kind_detail);
    case ErrorKind::kTagMismatch: {
      // kind_detail: "<resolved tag> <wanted tag> <value>".
      std::string_view detail = d.kind_detail;
      size_t a = detail.find(' ');
      size_t b = a == std::string_view::npos ? a : detail.find(' ', a + 1);
      if (b == std::string_view::npos) break;
      return "yaml: cannot decode " + std::string(detail.substr(0, a)) + " `" +
             std::string(detail.substr(b + 1)) + "` as a " +
             std::string(detail.substr(a + 1, b - a - 1));
    }
    default:
      break;
  }
  if (!d.kind_detail.empty()) {
    // ytt's parser, correcting the line, leaves "did not find expected ',' or '" of go-yaml's
    // "did not find expected ',' or ']'" (and '}').
    std::string m = d.kind_detail;
    constexpr std::string_view kFlowEnd = "did not find expected ',' or '";
    const size_t at = m.rfind(kFlowEnd);
    if (through_ytt_parser && at != std::string::npos && at + kFlowEnd.size() + 2 == m.size()) {
      m.resize(m.size() - 2);
    }
    return m;
  }
  // Our refusals and limits: our words at our place.
  std::string_view msg = d.message;
  if (msg.substr(0, 14) == "syntax error: ") msg.remove_prefix(14);
  return (d.span.begin.line > 0 ? "yaml: line " + std::to_string(d.span.begin.line) + ": "
                                : std::string("yaml: ")) +
         std::string(msg);
}

}  // namespace hintkit::yaml
