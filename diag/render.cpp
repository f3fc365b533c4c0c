// Renderers: text for people, json for scripts, sarif for code scanning, github for
// workflow annotations.
#include <cstdio>
#include <map>
#include <set>

#include "diag/diag.h"

namespace hintkit::diag {

std::string_view to_string(Format f) {
  switch (f) {
    case Format::kText:
      return "text";
    case Format::kJson:
      return "json";
    case Format::kSarif:
      return "sarif";
    case Format::kGithub:
      return "github";
  }
  return "text";
}

std::optional<Format> parse_format(std::string_view name) {
  for (Format f : {Format::kText, Format::kJson, Format::kSarif, Format::kGithub}) {
    if (to_string(f) == name) return f;
  }
  return std::nullopt;
}

std::string in_quotes(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  out += s;
  out += '"';
  return out;
}

namespace {

// Bytes in the UTF-8 sequence a lead byte starts (0 for a byte that cannot start one).
size_t utf8_width(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c >> 5) == 0x6) return 2;
  if ((c >> 4) == 0xE) return 3;
  if ((c >> 3) == 0x1E) return 4;
  return 0;
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
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
        case '<':
        case '>':
        case '&':
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
          break;
        default:
          if (c < 0x20) {
            out += "\\u00";
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
          } else {
            out += static_cast<char>(c);
          }
      }
      ++i;
      continue;
    }
    // Multi-byte: invalid sequences become U+FFFD, as Go does.
    const size_t w = utf8_width(c);
    bool ok = w > 1 && i + w <= s.size();
    for (size_t k = 1; ok && k < w; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) ok = false;
    }
    if (!ok) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    if (w == 3 && c == 0xE2 && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(s[i + 2]) == 0xA8 ||
         static_cast<unsigned char>(s[i + 2]) == 0xA9)) {
      out += static_cast<unsigned char>(s[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
    } else {
      out.append(s.substr(i, w));
    }
    i += w;
  }
  out += '"';
}

std::string json_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  append_json_string(out, s);
  return out;
}

namespace {

std::string location(const Span& span) {
  if (span.file.empty()) return {};
  std::string s = span.file;
  if (span.known()) {
    s += ':' + std::to_string(span.begin.line) + ':' + std::to_string(span.begin.column);
  }
  return s;
}

// SGR sequences (ECMA-48) for the text format's colours.
constexpr std::string_view kReset = "\033[0m";
constexpr std::string_view kBold = "\033[1m";
constexpr std::string_view kDim = "\033[2m";
constexpr std::string_view kBoldRed = "\033[1;31m";
constexpr std::string_view kBoldYellow = "\033[1;33m";
constexpr std::string_view kBoldCyan = "\033[1;36m";
constexpr std::string_view kBoldGreen = "\033[1;32m";

// Appends `text` in `style` when colouring, plain otherwise.
void styled(std::string& out, bool color, std::string_view style, std::string_view text) {
  if (!color || text.empty()) {
    out += text;
    return;
  }
  out += style;
  out += text;
  out += kReset;
}

std::string_view severity_style(Severity s) {
  switch (s) {
    case Severity::kError:
      return kBoldRed;
    case Severity::kWarning:
      return kBoldYellow;
    case Severity::kNote:
      return kBoldCyan;
  }
  return kBold;
}

void text_one(std::string& out, const Diagnostic& d, const RenderOptions& o) {
  const bool c = o.color;
  std::string loc = location(d.span);
  if (!loc.empty()) {
    styled(out, c, kBold, loc + ":");
    out += ' ';
  }
  styled(out, c, severity_style(d.severity), std::string(to_string(d.severity)) + ":");
  out += ' ';
  out += o.message_prefix;
  out += d.message;
  if (!d.code.empty()) {
    out += ' ';
    styled(out, c, kDim, "[" + d.code + "]");
  }
  out += '\n';
  for (const Related& r : d.related) {
    std::string rloc = location(r.span);
    out += "  ";
    styled(out, c, kBoldCyan, "note:");
    out += ' ';
    if (!rloc.empty()) {
      styled(out, c, kBold, rloc + ":");
      out += ' ';
    }
    out += r.message + '\n';
  }
  for (const std::string& h : d.hints) {
    out += "  ";
    styled(out, c, kBoldGreen, "hint:");
    out += ' ' + h + '\n';
  }
}

void render_text_all(std::ostream& out, const Diagnostics& diags, const RenderOptions& o) {
  std::string s;
  for (const Diagnostic& d : diags.items()) text_one(s, d, o);
  out << s;
}

std::string json_position(const Position& p) {
  return "{\"line\":" + std::to_string(p.line) + ",\"column\":" + std::to_string(p.column) + "}";
}

std::string json_span(const Span& s) {
  return "{\"file\":" + json_quote(s.file) + ",\"begin\":" + json_position(s.begin) +
         ",\"end\":" + json_position(s.end) + "}";
}

void render_json(std::ostream& out, const Diagnostics& diags, const RenderOptions& o) {
  std::string s = "{\"diagnostics\":[";
  bool first = true;
  for (const Diagnostic& d : diags.items()) {
    if (!first) s += ',';
    first = false;
    s += "{\"severity\":" + json_quote(to_string(d.severity));
    s += ",\"code\":" + json_quote(d.code);
    s += ",\"message\":" + json_quote(o.message_prefix + d.message);
    s += ",\"path\":" + json_quote(d.path);
    s += ",\"span\":" + json_span(d.span);
    s += ",\"related\":[";
    for (size_t i = 0; i < d.related.size(); ++i) {
      if (i) s += ',';
      s += "{\"message\":" + json_quote(d.related[i].message) +
           ",\"span\":" + json_span(d.related[i].span) + "}";
    }
    s += "],\"hints\":[";
    for (size_t i = 0; i < d.hints.size(); ++i) {
      if (i) s += ',';
      s += json_quote(d.hints[i]);
    }
    s += "]}";
  }
  s += "],\"errors\":" + std::to_string(diags.error_count()) +
       ",\"warnings\":" + std::to_string(diags.warning_count()) + "}\n";
  out << s;
}

std::string sarif_location(const Span& span, const std::string* message) {
  std::string s =
      "{\"physicalLocation\":{\"artifactLocation\":{\"uri\":" + json_quote(span.file) + "}";
  if (span.known()) {
    Position end = span.end.line > 0 ? span.end : span.begin;
    s += ",\"region\":{\"startLine\":" + std::to_string(span.begin.line) +
         ",\"startColumn\":" + std::to_string(std::max(1, span.begin.column)) +
         ",\"endLine\":" + std::to_string(end.line) +
         ",\"endColumn\":" + std::to_string(std::max(1, end.column)) + "}";
  }
  s += "}";
  if (message) s += ",\"message\":{\"text\":" + json_quote(*message) + "}";
  s += "}";
  return s;
}

void render_sarif(std::ostream& out, const Diagnostics& diags, const RenderOptions& o) {
  std::set<std::string> codes;
  for (const Diagnostic& d : diags.items()) codes.insert(d.code.empty() ? "HK000" : d.code);
  std::map<std::string, size_t> rule_index;
  std::string s =
      "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
      "\"runs\":[{\"tool\":{\"driver\":{\"name\":" +
      json_quote(o.tool_name);
  if (!o.tool_version.empty()) s += ",\"version\":" + json_quote(o.tool_version);
  s += ",\"rules\":[";
  size_t i = 0;
  for (const std::string& c : codes) {
    if (i) s += ',';
    rule_index[c] = i++;
    std::string text = o.describe_code ? o.describe_code(c) : std::string();
    if (text.empty()) text = c;
    s += "{\"id\":" + json_quote(c) + ",\"shortDescription\":{\"text\":" + json_quote(text) + "}}";
  }
  s += "]}},\"results\":[";
  bool first = true;
  for (const Diagnostic& d : diags.items()) {
    if (!first) s += ',';
    first = false;
    const std::string code = d.code.empty() ? "HK000" : d.code;
    std::string text = o.message_prefix + d.message;
    for (const std::string& h : d.hints) text += " (" + h + ")";
    s += "{\"ruleId\":" + json_quote(code) + ",\"ruleIndex\":" + std::to_string(rule_index[code]) +
         ",\"level\":" + json_quote(to_string(d.severity)) +
         ",\"message\":{\"text\":" + json_quote(text) + "}";
    if (!d.span.file.empty()) s += ",\"locations\":[" + sarif_location(d.span, nullptr) + "]";
    if (!d.related.empty()) {
      s += ",\"relatedLocations\":[";
      for (size_t r = 0; r < d.related.size(); ++r) {
        if (r) s += ',';
        std::string loc = sarif_location(d.related[r].span, &d.related[r].message);
        // Related locations carry an id, as the schema asks.
        s += "{\"id\":" + std::to_string(r) + "," + loc.substr(1);
      }
      s += "]";
    }
    s += "}";
  }
  s += "]}]}\n";
  out << s;
}

// Workflow-command values escape %, CR and LF; properties also escape ':' and ','.
std::string github_escape(std::string_view v, bool property) {
  std::string out;
  for (char c : v) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += property ? "%3A" : ":";
        break;
      case ',':
        out += property ? "%2C" : ",";
        break;
      default:
        out += c;
    }
  }
  return out;
}

void render_github(std::ostream& out, const Diagnostics& diags, const RenderOptions& o) {
  std::string s;
  for (const Diagnostic& d : diags.items()) {
    s += d.severity == Severity::kError     ? "::error "
         : d.severity == Severity::kWarning ? "::warning "
                                            : "::notice ";
    std::string props;
    if (!d.span.file.empty()) props += "file=" + github_escape(d.span.file, true);
    if (d.span.known()) {
      props += ",line=" + std::to_string(d.span.begin.line) +
               ",col=" + std::to_string(d.span.begin.column);
    }
    if (!d.code.empty()) props += std::string(props.empty() ? "" : ",") + "title=" + d.code;
    s += props + "::";
    std::string text = o.message_prefix + d.message;
    for (const Related& r : d.related) {
      text += "\n" + r.message;
      if (r.span.known())
        text += " (" + r.span.file + ":" + std::to_string(r.span.begin.line) + ")";
    }
    for (const std::string& h : d.hints) text += "\n" + h;
    s += github_escape(text, false) + "\n";
  }
  out << s;
}

}  // namespace

std::string render_text(const Diagnostic& d, const RenderOptions& options) {
  std::string s;
  text_one(s, d, options);
  return s;
}

void render(std::ostream& out, Format format, const Diagnostics& diags,
            const RenderOptions& options) {
  switch (format) {
    case Format::kText:
      render_text_all(out, diags, options);
      return;
    case Format::kJson:
      render_json(out, diags, options);
      return;
    case Format::kSarif:
      render_sarif(out, diags, options);
      return;
    case Format::kGithub:
      render_github(out, diags, options);
      return;
  }
}

}  // namespace hintkit::diag
