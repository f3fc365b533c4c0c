// Renderers: text for people, json for scripts, sarif for code scanning, github for
// workflow annotations.
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "diag/diag.h"
#include "gocompat/gocompat.h"

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
    // Multi-byte: each byte of what is not a valid sequence (stray, truncated, overlong,
    // surrogate, past U+10FFFF) becomes U+FFFD, as Go's encoder reads with utf8.DecodeRune.
    const gocompat::Rune r = gocompat::decode_rune(s, i);
    if (r.cp == gocompat::kRuneError && r.width == 1) {
      out += "\\ufffd";
    } else if (r.cp == 0x2028 || r.cp == 0x2029) {
      out += r.cp == 0x2028 ? "\\u2028" : "\\u2029";
    } else {
      out.append(s.substr(i, r.width));
    }
    i += r.width;
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

// ---- SARIF ------------------------------------------------------------------------------

namespace fs = std::filesystem;

// The files SARIF results point into, read again to count columns in UTF-16 code units
// (SARIF's default columnKind) where spans count bytes. Each file is read once per render.
class SourceLines {
 public:
  // The text of line `line` (1-based) of `file`, or nullopt when it cannot be read.
  std::optional<std::string_view> line(const std::string& file, int line) {
    auto [it, inserted] = files_.try_emplace(file);
    if (inserted) it->second = load(file);
    if (!it->second || line < 1 || static_cast<size_t>(line) > it->second->starts.size()) {
      return std::nullopt;
    }
    const File& f = *it->second;
    return line_at(f.text, f.starts, static_cast<size_t>(line) - 1);
  }

 private:
  struct File {
    std::string text;
    std::vector<size_t> starts;  // offset of each line
  };
  static std::optional<File> load(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return std::nullopt;
    File f;
    f.text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) return std::nullopt;
    f.starts = line_starts(f.text);
    return f;
  }
  std::map<std::string, std::optional<File>> files_;
};

// The 1-based UTF-16 column of the 1-based byte column `column` in `line`: a code point
// outside the BMP (4 UTF-8 bytes) counts 2, any other 1; an invalid byte counts 1 (as the
// U+FFFD it reads as); bytes past the end of the line (a column after its last character)
// count 1 each.
int utf16_column(std::string_view line, int column) {
  const size_t stop = static_cast<size_t>(std::max(1, column) - 1);
  int units = 0;
  size_t i = 0;
  while (i < stop) {
    if (i >= line.size()) {
      units += static_cast<int>(stop - i);
      break;
    }
    const gocompat::Rune r = gocompat::decode_rune(line, i);
    units += r.cp > 0xFFFF ? 2 : 1;
    i += r.width;
  }
  return units + 1;
}

// A URI reference for a path: unreserved characters and '/' as they are, every other byte
// percent-encoded (RFC 3986).
std::string uri_encode(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  return out;
}

struct ArtifactUri {
  std::string uri;
  bool under_root = false;  // relative to %SRCROOT%
};

ArtifactUri artifact_uri(const std::string& file, const std::string& root) {
  const fs::path p(file);
  if (!root.empty()) {
    std::error_code ec;
    const fs::path abs = fs::absolute(p, ec).lexically_normal();
    if (!ec) {
      const fs::path rel = abs.lexically_relative(fs::path(root).lexically_normal());
      if (!rel.empty() && *rel.begin() != ".." && rel != ".") {
        return {uri_encode(rel.generic_string()), true};
      }
    }
  }
  if (p.is_absolute()) return {"file://" + uri_encode(p.lexically_normal().generic_string())};
  return {uri_encode(p.generic_string())};
}

// The root as originalUriBaseIds gives it: an absolute file URI ending in '/'.
std::string root_uri(const std::string& root) {
  std::string s = fs::path(root).lexically_normal().generic_string();
  if (s.empty() || s.back() != '/') s += '/';
  return "file://" + uri_encode(s);
}

// FNV-1a, 64-bit: small, stable across platforms and releases, enough to tell findings apart.
uint64_t fnv1a(std::string_view data, uint64_t h = 14695981039346656037ull) {
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string hex64(uint64_t v) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[static_cast<size_t>(i)] = kHex[v & 0xF];
  return s;
}

class SarifWriter {
 public:
  explicit SarifWriter(const RenderOptions& o) : o_(o) {}

  std::string location(const Span& span, const std::string* message) {
    const ArtifactUri a = artifact_uri(span.file, o_.source_root);
    std::string s = "{\"physicalLocation\":{\"artifactLocation\":{\"uri\":" + json_quote(a.uri);
    if (a.under_root) s += ",\"uriBaseId\":\"%SRCROOT%\"";
    s += "}";
    if (span.known()) {
      const Position end = span.end.line > 0 ? span.end : span.begin;
      s += ",\"region\":{\"startLine\":" + std::to_string(span.begin.line) +
           ",\"startColumn\":" + std::to_string(column(span.file, span.begin)) +
           ",\"endLine\":" + std::to_string(end.line) +
           ",\"endColumn\":" + std::to_string(column(span.file, end)) + "}";
    }
    s += "}";
    if (message) s += ",\"message\":{\"text\":" + json_quote(*message) + "}";
    s += "}";
    return s;
  }

  // primaryLocationLineHash: see diag.h.
  std::string fingerprint(const std::string& code, const Span& span, const std::string& text) {
    const std::string uri = span.file.empty() ? "" : artifact_uri(span.file, o_.source_root).uri;
    uint64_t h = fnv1a(code);
    h = fnv1a(std::string_view("\0", 1), h);
    h = fnv1a(uri, h);
    h = fnv1a(std::string_view("\0", 1), h);
    h = fnv1a(text, h);
    const std::string hex = hex64(h);
    return hex + ":" + std::to_string(++seen_[hex]);
  }

 private:
  int column(const std::string& file, const Position& p) {
    const int bytes = std::max(1, p.column);
    auto line = lines_.line(file, p.line);
    return line ? utf16_column(*line, bytes) : bytes;
  }

  const RenderOptions& o_;
  SourceLines lines_;
  std::map<std::string, int> seen_;
};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string sarif_rule(const std::string& code, const RenderOptions& o) {
  std::string text = o.describe_code ? o.describe_code(code) : std::string();
  if (text.empty()) text = code;
  const std::string uri = o.help_uri_base.empty() ? "" : o.help_uri_base + "#" + lower(code);
  std::string help = text, markdown = "**" + code + "**: " + text;
  if (!uri.empty()) {
    help += "\n\nSee " + uri + " for what it means and how to fix it.";
    markdown += "\n\nSee [" + code + " in hintkit's diagnostics](" + uri + ") for what it means "
                "and how to fix it.";
  }
  std::string s = "{\"id\":" + json_quote(code) + ",\"shortDescription\":{\"text\":" +
                  json_quote(text) + "},\"help\":{\"text\":" + json_quote(help) +
                  ",\"markdown\":" + json_quote(markdown) + "}";
  if (!uri.empty()) s += ",\"helpUri\":" + json_quote(uri);
  return s + "}";
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
    s += sarif_rule(c, o);
  }
  s += "]}}";
  if (!o.source_root.empty()) {
    s += ",\"originalUriBaseIds\":{\"%SRCROOT%\":{\"uri\":" + json_quote(root_uri(o.source_root)) +
         "}}";
  }
  s += ",\"columnKind\":\"utf16CodeUnits\",\"results\":[";
  SarifWriter w(o);
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
    if (!d.span.file.empty()) s += ",\"locations\":[" + w.location(d.span, nullptr) + "]";
    if (!d.related.empty()) {
      s += ",\"relatedLocations\":[";
      for (size_t r = 0; r < d.related.size(); ++r) {
        if (r) s += ',';
        std::string loc = w.location(d.related[r].span, &d.related[r].message);
        // Related locations carry an id, as the schema asks.
        s += "{\"id\":" + std::to_string(r) + "," + loc.substr(1);
      }
      s += "]";
    }
    s += ",\"partialFingerprints\":{\"primaryLocationLineHash\":" +
         json_quote(w.fingerprint(code, d.span, text)) + "}";
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
