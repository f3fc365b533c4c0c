#include "lsp/features.h"

#include <algorithm>
#include <filesystem>
#include <limits>

#include "fileio/fileio.h"
#include "formats/formats.h"
#include "hintfile/hintfile.h"
#include "lsp/positions.h"
#include "resolver/tazuna.h"
#include "tmplcheck/tmplcheck.h"
#include "yaml/yaml.h"
#include "ytt/cmd/cmd.h"

namespace hintkit::lsp {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::string_view kConfigName = "tazuna.yaml";

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string base_name(const std::string& path) { return fs::path(path).filename().string(); }

// Workspace files (hints beside tazuna.yaml, files named by related locations) are read by the
// CLI's reader, with its size limit, and only when they are regular files: a hint linked to
// /dev/zero, to a FIFO or to /dev/stdin (the server's own input) is an error at once.
diag::Result<std::string> read_workspace_file(const std::string& path) {
  return fileio::read_file(path, fileio::kMaxFileBytes, fileio::FileKinds::kRegularOnly);
}

// The text of `path`: the open document's (unsaved edits win over the disk), else the file's.
diag::Result<std::string> text_of(const std::string& path, const OpenText& open) {
  if (const std::string* t = open(path)) return *t;
  return read_workspace_file(path);
}

int severity(diag::Severity s) {
  switch (s) {
    case diag::Severity::kError:
      return 1;
    case diag::Severity::kWarning:
      return 2;
    case diag::Severity::kNote:
      return 3;
  }
  return 1;
}

// Identifier-ish characters: the extent of a misspelled key, type, format or var name.
bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

// Lines are read with plain scanning, never std::regex: the cursor's line and ytt's error
// text can be any length (a base64 blob in tazuna.yaml), and libstdc++'s regex recurses
// once per character of the text it matches.

// ASCII white space (C's isspace).
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view skip_spaces(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  return s;
}

bool has_space(std::string_view s) { return std::any_of(s.begin(), s.end(), is_space); }

// `rest` starts with `key:` after any white space: true, with `rest` moved past the colon and
// the white space after it.
bool skip_key(std::string_view& rest, std::string_view key) {
  std::string_view r = skip_spaces(rest);
  if (!r.starts_with(key) || r.substr(key.size(), 1) != ":") return false;
  rest = skip_spaces(r.substr(key.size() + 1));
  return true;
}

// The text before the cursor is `key: WORD`, WORD (maybe empty) running up to the cursor:
// the cursor is on the key's value.
bool typing_value_of(std::string_view before, std::string_view key) {
  return skip_key(before, key) && !has_space(before);
}

// The text before the cursor holds `from: WORD` as its last words, `from` a whole word (as
// in `{from: e`).
bool typing_source_kind(std::string_view before) {
  constexpr std::string_view kKey = "from:";
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  // If any `from:` is followed by a value up to the cursor, the last one starting a word is:
  // a later one lies inside that value, which holds no space.
  for (size_t at = before.rfind(kKey); at != std::string_view::npos;
       at = at == 0 ? std::string_view::npos : before.rfind(kKey, at - 1)) {
    if (at > 0 && word(before[at - 1])) continue;
    return !has_space(skip_spaces(before.substr(at + kKey.size())));
  }
  return false;
}

// The decimal number `s` starts with, if it starts with a digit; saturates at INT_MAX.
std::optional<int> leading_number(std::string_view s) {
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s.front()))) return std::nullopt;
  int64_t n = 0;
  for (size_t i = 0; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i) {
    n = std::min<int64_t>(n * 10 + (s[i] - '0'), std::numeric_limits<int>::max());
  }
  return static_cast<int>(n);
}

json range_of(const diag::Span& span, const std::string& text) {
  LineIndex index(text);
  const int line = std::max(span.begin.line, 1);
  const int col = std::max(span.begin.column, 1);
  int end_line = line, end_col = col;
  if (span.end.line > line || (span.end.line == line && span.end.column > col)) {
    end_line = span.end.line;
    end_col = span.end.column;
  } else {
    std::string_view l = index.line(line - 1);
    size_t i = static_cast<size_t>(col - 1);
    while (i < l.size() && word_char(l[i])) ++i;
    end_col = static_cast<int>(i) + 1;
  }
  return {{"start", {{"line", line - 1}, {"character", index.utf16_column(line, col)}}},
          {"end", {{"line", end_line - 1}, {"character", index.utf16_column(end_line, end_col)}}}};
}

// A file name in a diagnostic is relative to where the check ran: make it a path.
std::string resolve_file(const std::string& name, const Document& doc) {
  if (name.empty() || name == doc.path || base_name(name) == base_name(doc.path)) return doc.path;
  fs::path p(name);
  if (p.is_absolute()) return name;
  return (fs::path(doc.path).parent_path() / p).lexically_normal().string();
}

std::optional<std::string> suggestion(const diag::Diagnostic& d) {
  for (const std::string& h : d.hints) {
    if (auto s = did_you_mean(h)) return s;
  }
  return std::nullopt;
}

struct QuickFix {
  std::string title;
  std::string new_text;  // replaces `range`, else the diagnostic's range
  std::optional<diag::Span> range;
};

// The source text of a span on one line, if it is on one line of `text`.
std::optional<std::string_view> span_text(const diag::Span& span, const std::string& text) {
  if (span.begin.line < 1 || span.end.line != span.begin.line) return std::nullopt;
  LineIndex index(text);
  if (span.begin.line > index.line_count()) return std::nullopt;
  std::string_view line = index.line(span.begin.line - 1);
  const size_t begin = static_cast<size_t>(std::max(span.begin.column, 1) - 1);
  const size_t end = static_cast<size_t>(std::max(span.end.column, 1) - 1);
  if (begin >= end || end > line.size()) return std::nullopt;
  return line.substr(begin, end - begin);
}

// HK114 on a string var whose default is a scalar of another type (`default: 8080`, `yes`,
// `1.5`): the lint's hint says `quote it: default: "8080"`, and the fix does that. Offered only
// when the default's range holds exactly the hint's text, with nothing in it to escape: a
// tagged (`!!int 1`) or multi-line default is left to the user.
std::optional<QuickFix> quote_default(const diag::Diagnostic& d, const Document& doc) {
  constexpr std::string_view kLead = "quote it: default: \"";
  if (d.code != "HK114") return std::nullopt;
  for (std::string_view h : d.hints) {
    if (!h.starts_with(kLead) || !h.ends_with('"') || h.size() < kLead.size() + 1) continue;
    std::string_view value = h.substr(kLead.size(), h.size() - kLead.size() - 1);
    if (value.empty() || value.find_first_of("\"\\") != std::string_view::npos) continue;
    auto source = span_text(d.span, doc.text);
    if (!source || *source != value) continue;
    const std::string quoted = "\"" + std::string(value) + "\"";
    return QuickFix{"Quote the default: " + quoted, quoted, std::nullopt};
  }
  return std::nullopt;
}

// What a did-you-mean replaces: the diagnostic's span, or only the misspelt name when the span
// holds more than the name and the name (the diagnostic's path) appears in it once: a
// template's HK402 spans `.clsuterName` or `"ingresHost"`, and the fix keeps the dot and the
// quotes.
std::optional<diag::Span> name_in_span(const diag::Diagnostic& d, const Document& doc) {
  auto source = span_text(d.span, doc.text);
  if (!source || d.path.empty() || *source == d.path) return std::nullopt;
  const size_t at = source->find(d.path);
  if (at == std::string_view::npos || source->find(d.path, at + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  diag::Span name = d.span;
  name.begin.column += static_cast<int>(at);
  name.end.column = name.begin.column + static_cast<int>(d.path.size());
  return name;
}

// The fix a diagnostic's own words offer: a did-you-mean's name, or HK114's quoting.
std::optional<QuickFix> quick_fix(const diag::Diagnostic& d, const Document& doc) {
  if (auto s = suggestion(d)) {
    return QuickFix{"Replace with \"" + *s + "\"", *s, name_in_span(d, doc)};
  }
  return quote_default(d, doc);
}

json to_lsp(const diag::Diagnostic& d, const Document& doc, const OpenText& open) {
  json out = {{"range", range_of(d.span, doc.text)},
              {"severity", severity(d.severity)},
              {"code", d.code},
              {"source", "hintkit"}};
  std::string message = d.message;
  for (const std::string& h : d.hints) message += "\n" + h;
  out["message"] = message;
  if (auto fix = quick_fix(d, doc)) {
    out["data"] = {{"replacement", fix->new_text}, {"title", fix->title}};
    if (fix->range) out["data"]["range"] = range_of(*fix->range, doc.text);
  }
  json related = json::array();
  for (const diag::Related& r : d.related) {
    if (!r.span.known()) continue;
    std::string path = resolve_file(r.span.file, doc);
    auto text = path == doc.path ? diag::Result<std::string>(doc.text) : text_of(path, open);
    related.push_back(
        {{"location",
          {{"uri", uri_of_path(path)}, {"range", range_of(r.span, text.ok() ? *text : "")}}},
         {"message", r.message}});
  }
  if (!related.empty()) out["relatedInformation"] = related;
  return out;
}

// The diagnostics of `diags` that belong to `doc`, as LSP diagnostics.
json publishable(diag::Diagnostics& diags, const Document& doc, const OpenText& open) {
  diags.sort_and_dedupe();
  json out = json::array();
  for (const diag::Diagnostic& d : diags.items()) {
    if (resolve_file(d.span.file, doc) != doc.path) continue;
    out.push_back(to_lsp(d, doc, open));
  }
  return out;
}

// The hint in `dir`: none when there is no file (as `lint --config`), an Error when it cannot
// be read.
diag::Result<std::optional<hintfile::HintFile>> hint_for_dir(const std::string& dir,
                                                             const OpenText& open,
                                                             diag::Diagnostics& diags) {
  const std::string path = hintfile::path_in(dir);
  std::error_code ec;
  if (!open(path) && !fs::exists(path, ec)) return std::optional<hintfile::HintFile>();
  auto text = text_of(path, open);
  if (!text.ok()) return text.error();
  return std::optional<hintfile::HintFile>(hintfile::parse(*text, path, diags));
}

// The hint a helmfile document is checked against: the one in its folder, when the document is
// the helmfile tazuna renders there (no earlier name of resolver::kHelmfileNames exists, on
// disk or open) and the hint has no errors (as `lint`: such a hint is not a list of vars to
// check a template against; its own diagnostics are on its file).
std::optional<hintfile::HintFile> hint_of_template(const Document& doc, const OpenText& open) {
  if (doc.kind != DocKind::kHelmfile || !fs::path(doc.path).is_absolute()) return std::nullopt;
  const fs::path dir = fs::path(doc.path).parent_path();
  const std::string name = base_name(doc.path);
  for (std::string_view earlier : resolver::kHelmfileNames) {
    if (earlier == name) break;
    const std::string other = (dir / earlier).string();
    std::error_code ec;
    if (open(other) || fs::exists(other, ec)) return std::nullopt;
  }
  diag::Diagnostics hint_diags;
  auto hint = hint_for_dir(dir.string(), open, hint_diags);
  if (!hint.ok() || !*hint || hint_diags.has_errors()) return std::nullopt;
  return std::move(**hint);
}

// A helmfile against its folder's hint, as `lint` of that folder checks it (either renderer's
// functions and data: Flavor::kAny). Unused vars (HK405) are the hint's, not shown here.
void check_helmfile(const Document& doc, const OpenText& open, diag::Diagnostics& diags) {
  std::optional<hintfile::HintFile> hint = hint_of_template(doc, open);
  if (!hint) return;
  if (doc.text.size() > tmplcheck::kMaxTemplateBytes) {
    diags.error("HK010", diag::Span{doc.path, {1, 1}, {1, 1}},
                "template larger than " + std::to_string(tmplcheck::kMaxTemplateBytes) +
                    " bytes: not checked");
    return;
  }
  tmplcheck::Usage usage;
  tmplcheck::check_template(doc.text, doc.path, *hint, tmplcheck::Flavor::kAny, usage, diags);
}

// A hint's vars that the helmfile of its folder never uses (HK405), as `lint` of the hint
// reports them: the helmfile tazuna renders there (the first of resolver::kHelmfileNames, open
// text over the disk, read from disk as tmplcheck reads templates but regular files only). Its
// own HK4xx are the helmfile's, published on that document when it is open.
void check_unused(const Document& doc, const hintfile::HintFile& hint, const OpenText& open,
                  diag::Diagnostics& diags) {
  if (!fs::path(doc.path).is_absolute()) return;
  const fs::path dir = fs::path(doc.path).parent_path();
  for (std::string_view name : resolver::kHelmfileNames) {
    const std::string path = (dir / name).string();
    std::error_code ec;
    const std::string* text = open(path);
    if (!text && !fs::exists(path, ec)) continue;
    auto read = text ? diag::Result<std::string>(*text)
                     : fileio::read_file(path, tmplcheck::kMaxTemplateBytes,
                                         fileio::FileKinds::kRegularOnly);
    if (!read.ok() || read->size() > tmplcheck::kMaxTemplateBytes) return;  // nothing known
    diag::Diagnostics template_diags;
    tmplcheck::Usage usage;
    tmplcheck::check_template(*read, path, hint, tmplcheck::Flavor::kAny, usage, template_diags);
    tmplcheck::report_unused(hint, usage, path, diags);
    return;
  }
}

void check_config(const Document& doc, const OpenText& open, diag::Diagnostics& diags) {
  resolver::Config config = resolver::parse_config(doc.text, doc.path, diags);
  for (const resolver::Manifest& m : config.manifests) {
    diag::Diagnostics hint_diags;
    auto hint = hint_for_dir(resolver::hint_dir(config, m), open, hint_diags);
    if (!hint.ok()) {  // placed on the manifest: the hint has no place of its own to show it
      diags.error("HK010", m.span, hint.error().message);
      continue;
    }
    if (!*hint || hint_diags.has_errors()) continue;  // the hint's own errors are its file's
    resolver::check_declarations(m, **hint, config, diags);
  }
}

// The inputs of a ytt document's folder: its YAML and Starlark files, as `hintkit values -f
// FILE...` would take them, read by the engine itself with the CLI's rules (size limit,
// symlinks refused), regular files only, open documents as edited (in memory: nothing is
// written anywhere). None for a URI without a folder.
std::optional<ytt::Options> folder_inputs(const Document& doc, const OpenText& open) {
  if (!fs::path(doc.path).is_absolute()) return std::nullopt;
  const std::string dir = fs::path(doc.path).parent_path().string();
  ytt::Options options;
  options.regular_files_only = true;
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    // Symlinks and other non-folders are passed on: the engine refuses them as the CLI does.
    if (e.symlink_status(ec).type() == fs::file_type::directory ||
        !(ends_with(name, ".yml") || ends_with(name, ".yaml") || ends_with(name, ".star")) ||
        name == hintfile::kFileName || name == kConfigName) {
      continue;
    }
    names.push_back(name);
  }
  // A new document not saved yet is checked too.
  if (std::find(names.begin(), names.end(), base_name(doc.path)) == names.end()) {
    names.push_back(base_name(doc.path));
  }
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const std::string path = dir + "/" + name;
    options.files.push_back(path);
    if (const std::string* text = open(path)) options.unsaved_texts[path] = *text;
  }
  return options;
}

// --- ytt errors as diagnostics ---------------------------------------------------------------

// A related location per line of an error's text at most: ytt's context lines (stages, files,
// documents, map items, stack frames) are few, but a template can make a text of any length,
// and a client shows every related location.
constexpr size_t kMaxRelated = 50;

// The range of line `line1` (1-based, clamped) from its first non-blank character to its end.
json line_range(const LineIndex& index, int line1) {
  const int line = std::clamp(line1, 1, index.line_count());
  std::string_view l = index.line(line - 1);
  size_t first = l.find_first_not_of(" \t");
  if (first == std::string_view::npos) first = 0;
  return {
      {"start",
       {{"line", line - 1}, {"character", index.utf16_column(line, static_cast<int>(first) + 1)}}},
      {"end",
       {{"line", line - 1},
        {"character", index.utf16_column(line, static_cast<int>(l.size()) + 1)}}}};
}

// The texts of the files one ytt error names, each read (and indexed) once however many of
// its lines point into it.
class ErrorFiles {
 public:
  ErrorFiles(const Document& doc, const OpenText& open) : doc_(doc), open_(open) {}
  const LineIndex& index(const std::string& path) {
    auto it = files_.find(path);
    if (it == files_.end()) {
      auto text = path == doc_.path ? diag::Result<std::string>(doc_.text) : text_of(path, open_);
      it = files_.emplace(path, std::make_unique<Indexed>(text.ok() ? *text : "")).first;
    }
    return it->second->index;
  }
  json location(const std::string& path, int line) {
    return {{"uri", uri_of_path(path)}, {"range", line_range(index(path), line)}};
  }

 private:
  struct Indexed {
    explicit Indexed(std::string t) : text(std::move(t)), index(text) {}
    std::string text;
    LineIndex index;  // views `text`: Indexed is never moved (held by unique_ptr)
  };
  const Document& doc_;
  const OpenText& open_;
  std::map<std::string, std::unique_ptr<Indexed>> files_;
};

// The engine names the folder's files as ytt does, by base name (each is an `-f` file).
std::string folder_path(const std::string& name, const Document& doc) {
  return (fs::path(doc.path).parent_path() / name).string();
}

json ytt_problem(const ytt::Problem& p, const Document& doc, ErrorFiles& files) {
  const bool known = !p.place.file.empty() && p.place.line > 0;
  const bool here = known && folder_path(p.place.file, doc) == doc.path;
  std::string message = p.message;
  json related = json::array();
  if (!here && known) {
    message = p.place.file + ":" + std::to_string(p.place.line) + ": " + message;
    related.push_back({{"location", files.location(folder_path(p.place.file, doc), p.place.line)},
                       {"message", "the problem"}});
  }
  for (const auto& [place, what] : p.related) {
    if (place.file.empty() || place.line <= 0 || related.size() >= kMaxRelated) continue;
    related.push_back({{"location", files.location(folder_path(place.file, doc), place.line)},
                       {"message", what}});
  }
  json out = {{"range", line_range(files.index(doc.path), here ? p.place.line : 1)},
              {"severity", 1},
              {"code", "ytt"},
              {"source", "hintkit values"},
              {"message", message}};
  if (!related.empty()) out["relatedInformation"] = related;
  return out;
}

// The first `NAME:LINE` in `line` whose NAME is one of `names` (the base names of the run's
// inputs, which is how ytt's text names them), if any. NAME runs back from the colon to a
// space, a quote or a bracket; one scan of the line.
std::optional<ytt::ErrorPlace> place_in(std::string_view line,
                                        const std::vector<std::string>& names) {
  // NAME holds no ':' here, so it starts after the previous colon at the earliest: each
  // character is walked back over once.
  size_t after_previous = 0;
  for (size_t colon = line.find(':'); colon != std::string_view::npos;
       after_previous = colon + 1, colon = line.find(':', colon + 1)) {
    auto n = leading_number(line.substr(colon + 1));
    if (!n) continue;
    size_t begin = colon;
    while (begin > after_previous && !is_space(line[begin - 1]) &&
           std::string_view("'\"([").find(line[begin - 1]) == std::string_view::npos) {
      --begin;
    }
    std::string_view name = line.substr(begin, colon - begin);
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      return ytt::ErrorPlace{std::string(name), *n};
    }
  }
  return std::nullopt;
}

// ytt's error text without parts the engine holds (a template's Starlark error, an overlay
// that matched nothing, a YAML syntax error): one diagnostic. Its message is the error's own
// line, the first that is neither a context line (ending in `:`, as `Overlaying data values
// (...):` and `Map item (key 'x') on line values.yaml:5:`) nor an excerpt (`3 | text`); it is
// placed at the last place the text names in this document (the innermost context, or the
// excerpt); every other line is related information, at the place it names if it names one.
json ytt_text_diagnostic(const std::string& err, const Document& doc,
                         const std::vector<std::string>& files, ErrorFiles& texts) {
  std::vector<std::string> names;
  for (const std::string& f : files) names.push_back(base_name(f));
  const std::string doc_name = base_name(doc.path);
  std::string text = err;
  if (text.starts_with("Error: ")) text = text.substr(7);
  std::string message;
  int line = 0;
  std::vector<std::pair<std::optional<ytt::ErrorPlace>, std::string>> rest;
  for (size_t pos = 0; pos < text.size();) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    std::string_view l = skip_spaces(std::string_view(text).substr(pos, eol - pos));
    pos = eol + 1;
    while (!l.empty() && is_space(l.back())) l.remove_suffix(1);
    if (l.empty() || l.find_first_not_of("=|") == std::string_view::npos) continue;
    std::optional<ytt::ErrorPlace> place = place_in(l, names);
    if (place && place->file == doc_name) line = place->line;
    size_t digits = 0;
    while (digits < l.size() && std::isdigit(static_cast<unsigned char>(l[digits]))) ++digits;
    const bool excerpt = l.starts_with("| ") || l.substr(digits, 2) == " |" ||
                         (place && l.find(" | ") != std::string_view::npos);
    if (message.empty() && !excerpt && !l.ends_with(':')) {
      if (l.starts_with("- ")) l.remove_prefix(2);
      message = std::string(l);
      continue;
    }
    if (l.ends_with(':')) l.remove_suffix(1);  // a context line: what it introduces is here
    if (rest.size() < kMaxRelated) rest.push_back({place, std::string(l)});
  }
  // The YAML parser's errors name the template and go-yaml's line: `Unmarshaling YAML
  // template 'PATH': yaml: line 3: ...`.
  const std::string yaml_at = "'" + doc_name + "': yaml: line ";
  if (const size_t at = text.find(yaml_at); line == 0 && at != std::string::npos) {
    line = leading_number(std::string_view(text).substr(at + yaml_at.size())).value_or(0);
  }
  if (message.empty()) {
    message = rest.empty() ? text : rest.back().second;
    if (!rest.empty()) rest.pop_back();
  }
  if (line == 0) line = ytt_error_line(text, doc_name);
  json related = json::array();
  for (const auto& [place, what] : rest) {
    json at = place ? texts.location(folder_path(place->file, doc), place->line)
                    : texts.location(doc.path, line);
    related.push_back({{"location", at}, {"message", what}});
  }
  json out = {{"range", line_range(texts.index(doc.path), line)},
              {"severity", 1},
              {"code", "ytt"},
              {"source", "hintkit values"},
              {"message", message}};
  if (!related.empty()) out["relatedInformation"] = related;
  return out;
}

// ytt: the folder's files checked together as `hintkit values -f FILE...
// --data-values-inspect` would: one diagnostic per problem, at its own line.
json check_ytt(const Document& doc, const OpenText& open) {
  json out = json::array();
  std::optional<ytt::Options> inputs = folder_inputs(doc, open);
  if (!inputs) return out;  // a URI without a folder to check
  ytt::Options& options = *inputs;
  options.inspect = true;
  ytt::Outcome outcome = ytt::run(options);
  if (outcome.exit_code == 0) return out;
  ErrorFiles files(doc, open);
  for (const ytt::Problem& p : outcome.problems) out.push_back(ytt_problem(p, doc, files));
  if (out.empty()) out.push_back(ytt_text_diagnostic(outcome.err, doc, options.files, files));
  return out;
}

// --- hover -------------------------------------------------------------------------------

std::string describe_var(const hintfile::Var& v) {
  std::string s = "**" + v.name + "**";
  if (v.type) s += ": `" + std::string(hintfile::to_string(*v.type)) + "`";
  if (v.format) s += " (format `" + std::string(formats::to_string(*v.format)) + "`)";
  s += v.required                                                  ? " — required"
       : (!v.required_with.empty() || !v.required_without.empty()) ? " — conditional"
                                                                   : " — optional";
  s += "\n\n";
  if (!v.description.empty()) s += v.description + "\n\n";
  if (v.default_value) s += "default: `" + yaml::emit_json(*v.default_value) + "`\n\n";
  auto list = [](const std::vector<hintfile::Ref>& refs) {
    std::string r;
    for (size_t i = 0; i < refs.size(); ++i) r += (i ? ", " : "") + refs[i].name;
    return r;
  };
  if (!v.required_with.empty())
    s += "required when any of " + list(v.required_with) + " is provided\n\n";
  if (!v.required_without.empty())
    s += "required when none of " + list(v.required_without) + " is provided\n\n";
  if (v.format)
    s += "`" + std::string(formats::to_string(*v.format)) +
         "`: " + std::string(formats::syntax(*v.format)) + "\n";
  return s;
}

bool on_span_line(const diag::Span& s, int line0) { return s.begin.line == line0 + 1; }

// `format: NAME` under the cursor: the format's accepted syntax.
std::optional<std::string> format_hover(std::string_view line) {
  std::string_view rest = line;
  if (!skip_key(rest, "format")) return std::nullopt;
  if (!rest.empty() && (rest.front() == '"' || rest.front() == '\'')) rest.remove_prefix(1);
  size_t n = 0;
  while (n < rest.size() && std::isalpha(static_cast<unsigned char>(rest[n]))) ++n;
  if (n == 0) return std::nullopt;
  const std::string name(rest.substr(0, n));
  auto f = formats::parse(name);
  if (!f) return std::nullopt;
  return "format `" + name + "`: " + std::string(formats::syntax(*f));
}

// --- ytt hover: a data value's schema ------------------------------------------------------
// The key under the cursor, in a data values or schema document, is looked up by its path
// from the document's root in the schema the engine builds for the folder (as `hintkit values
// --data-values-schema-inspect -o openapi-v3` prints it: type, default, nullable,
// description), never in the document itself: a values file's `replicas: 20` is a value, the
// schema's default may be 2. Validations are not in ytt's OpenAPI output: they are read from
// the `@schema/validation` annotations on the same path in the folder's schema documents.

struct PathStep {
  bool item = false;  // an array's items; else the map key `key`
  std::string key;
};
using KeyPath = std::vector<PathStep>;

bool annotated(const std::vector<yaml::Annotation>& anns, std::string_view name) {
  return std::any_of(anns.begin(), anns.end(), [&](const auto& a) { return a.name == name; });
}

bool is_schema_doc(const yaml::Document& d) {
  return annotated(d.annotations, "data/values-schema");
}
bool is_values_doc(const yaml::Document& d) {
  return is_schema_doc(d) || annotated(d.annotations, "data/values");
}

// The map item whose key is on line `line1` of a data values or schema document of `docs`.
struct Hovered {
  KeyPath path;
  const yaml::MapItem* item = nullptr;
  bool in_schema = false;
};
std::optional<Hovered> key_on_line(const std::vector<yaml::Document>& docs, int line1) {
  Hovered h;
  KeyPath path;
  std::function<bool(const yaml::Node&)> walk = [&](const yaml::Node& n) {
    for (const yaml::MapItem& it : n.items) {
      path.push_back({false, it.key.text});
      if (it.key.span.begin.line == line1) {
        h.path = path;
        h.item = &it;
        return true;
      }
      if (walk(it.value)) return true;
      path.pop_back();
    }
    for (const yaml::Node& e : n.elements) {
      path.push_back({true, ""});
      if (walk(e)) return true;
      path.pop_back();
    }
    return false;
  };
  for (const yaml::Document& d : docs) {
    if (!is_values_doc(d)) continue;
    path.clear();
    if (walk(d.root)) {
      h.in_schema = is_schema_doc(d);
      return h;
    }
  }
  return std::nullopt;
}

std::string path_text(const KeyPath& path) {
  std::string s;
  for (const PathStep& p : path) s += p.item ? "[]" : (s.empty() ? "" : ".") + p.key;
  return s;
}

const yaml::Node* map_get(const yaml::Node& n, std::string_view key) {
  for (const yaml::MapItem& it : n.items) {
    if (it.key.text == key) return &it.value;
  }
  return nullptr;
}

// The node at `path` under a schema node of the OpenAPI document (`properties` of objects,
// `items` of arrays). Stops early at an `any` node (no type: it takes anything below it).
const yaml::Node* openapi_at(const yaml::Node& root, const KeyPath& path, bool& under_any) {
  const yaml::Node* n = &root;
  under_any = false;
  for (const PathStep& p : path) {
    if (!map_get(*n, "type")) {
      under_any = true;
      return n;
    }
    const yaml::Node* next = nullptr;
    if (p.item) {
      next = map_get(*n, "items");
    } else if (const yaml::Node* props = map_get(*n, "properties")) {
      next = map_get(*props, p.key);
    }
    if (!next) return nullptr;
    n = next;
  }
  return n;
}

// ytt's type names for OpenAPI's.
std::string ytt_type(const yaml::Node& schema_node) {
  const yaml::Node* t = map_get(schema_node, "type");
  if (!t) return "any";
  const std::string& s = t->text;
  if (s == "integer") return "int";
  if (s == "number") return "float";
  if (s == "boolean") return "bool";
  if (s == "object") return "map";
  return s;  // string, array
}

// The rules of `#@schema/validation` arguments, one per top-level argument: a named rule as
// written (`min=1`), a custom rule `("description", check)` by its description. A plain scan,
// linear in the text (quotes and brackets tracked so commas inside them do not split).
std::vector<std::string> validation_rules(std::string_view args) {
  std::vector<std::string> parts;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  auto flush = [&](size_t end) {
    std::string_view part = skip_spaces(args.substr(start, end - start));
    while (!part.empty() && is_space(part.back())) part.remove_suffix(1);
    if (!part.empty()) parts.emplace_back(part);
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const char c = args[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      depth = std::max(depth - 1, 0);
    } else if (c == ',' && depth == 0) {
      flush(i);
      start = i + 1;
    }
  }
  flush(args.size());
  std::vector<std::string> rules;
  for (const std::string& part : parts) {
    std::string_view rest = part;
    if (rest.starts_with('(')) {
      rest = skip_spaces(rest.substr(1));
      if (!rest.empty() && (rest.front() == '"' || rest.front() == '\'')) {
        const char q = rest.front();
        size_t end = 1;
        while (end < rest.size() && rest[end] != q) end += rest[end] == '\\' ? 2 : 1;
        if (end < rest.size()) {
          rules.push_back(std::string(rest.substr(1, end - 1)));
          continue;
        }
      }
    }
    rules.push_back("`" + part + "`");
  }
  return rules;
}

// Where the folder's schema documents declare `path`, with the validations they put on it.
struct SchemaSource {
  std::vector<std::string> places;  // "schema.yaml:5"
  std::vector<std::string> rules;
  bool any_schema = false;  // some file of the folder has a schema document
};
SchemaSource schema_source(const ytt::Options& inputs, const KeyPath& path) {
  SchemaSource out;
  for (const std::string& file : inputs.files) {
    auto unsaved = inputs.unsaved_texts.find(file);
    diag::Result<std::string> read = unsaved != inputs.unsaved_texts.end()
                                         ? diag::Result<std::string>(unsaved->second)
                                         : read_workspace_file(file);
    if (!read.ok() || read->find("data/values-schema") == std::string::npos) continue;
    diag::Diagnostics diags;
    for (const yaml::Document& d : yaml::load(*read, file, diags)) {
      if (!is_schema_doc(d)) continue;
      out.any_schema = true;
      std::function<void(const yaml::Node&, size_t)> walk = [&](const yaml::Node& n, size_t at) {
        const PathStep& step = path[at];
        if (step.item) {
          for (const yaml::Node& e : n.elements) {
            if (at + 1 < path.size()) walk(e, at + 1);
          }
          return;
        }
        for (const yaml::MapItem& it : n.items) {
          if (it.key.text != step.key) continue;
          if (at + 1 < path.size()) {
            walk(it.value, at + 1);
            continue;
          }
          out.places.push_back(base_name(file) + ":" + std::to_string(it.key.span.begin.line));
          for (const yaml::Annotation& a : it.annotations) {
            if (a.name != "schema/validation") continue;
            for (std::string& r : validation_rules(a.args)) out.rules.push_back(std::move(r));
          }
        }
      };
      if (!path.empty()) walk(d.root, 0);
    }
  }
  return out;
}

std::optional<std::string> ytt_hover(const Document& doc, int line0, const OpenText& open) {
  diag::Diagnostics diags;
  auto docs = yaml::load(doc.text, doc.path, diags);
  std::optional<Hovered> hovered = key_on_line(docs, line0 + 1);
  if (!hovered) return std::nullopt;
  std::optional<ytt::Options> inputs = folder_inputs(doc, open);
  if (!inputs) return std::nullopt;
  const std::string name = "**" + hovered->item->key.text + "**";
  SchemaSource source = schema_source(*inputs, hovered->path);
  if (!source.any_schema) return std::nullopt;  // no schema in the folder: nothing to say
  inputs->schema_inspect = true;
  inputs->output_openapi = true;
  ytt::Outcome outcome = ytt::run(*inputs);
  if (outcome.exit_code != 0) {
    return name + ": the folder's schema does not load (see its diagnostics)";
  }
  diag::Diagnostics openapi_diags;
  auto openapi = yaml::load(outcome.out, "openapi", openapi_diags);
  const yaml::Node* root = nullptr;
  if (!openapi.empty()) {
    const yaml::Node* components = map_get(openapi.front().root, "components");
    const yaml::Node* schemas = components ? map_get(*components, "schemas") : nullptr;
    root = schemas ? map_get(*schemas, "dataValues") : nullptr;
  }
  bool under_any = false;
  const yaml::Node* node = root ? openapi_at(*root, hovered->path, under_any) : nullptr;
  if (!node) return name + ": not declared in the folder's schema";
  if (under_any) return name + ": inside a value of type `any` in the schema";
  std::string s = name + ": `" + ytt_type(*node) + "`";
  const yaml::Node* nullable = map_get(*node, "nullable");
  if (map_get(*node, "type") && nullable && nullable->kind == yaml::Kind::kBool &&
      nullable->bool_value) {
    s += " (nullable)";
  }
  s += "\n\n";
  if (const yaml::Node* desc = map_get(*node, "description")) s += desc->text + "\n\n";
  if (const yaml::Node* def = map_get(*node, "default")) {
    s += "default: `" + yaml::emit_json(*def) + "`\n\n";
  }
  if (!source.rules.empty()) {
    s += "validations:\n";
    for (const std::string& r : source.rules) s += "- " + r + "\n";
    s += "\n";
  }
  if (!source.places.empty()) {
    s += "schema: ";
    for (size_t i = 0; i < source.places.size(); ++i) {
      s += (i ? ", `" : "`") + source.places[i] + "`";
    }
    s += " (`" + path_text(hovered->path) + "`)\n";
  }
  return s;
}

json markdown(const std::string& s) { return {{"contents", {{"kind", "markdown"}, {"value", s}}}}; }

// --- completion ----------------------------------------------------------------------------

json items(const std::vector<std::string>& labels, int kind, const std::string& detail = "") {
  json out = json::array();
  for (const std::string& l : labels) {
    json item = {{"label", l}, {"kind", kind}};
    if (!detail.empty()) item["detail"] = detail;
    out.push_back(item);
  }
  return out;
}

constexpr int kKeyword = 14, kValue = 12, kVariable = 6, kProperty = 10;

int indent_of(std::string_view line) {
  int n = 0;
  while (n < static_cast<int>(line.size()) && line[n] == ' ') ++n;
  return n;
}

// The key of the nearest line above with less indentation (the parent of the cursor line).
std::string parent_key(const LineIndex& index, int line0, int indent) {
  for (int l = line0 - 1; l >= 0; --l) {
    std::string_view t = index.line(l);
    if (t.find_first_not_of(' ') == std::string_view::npos) continue;
    int i = indent_of(t);
    if (i < indent && t[i] != '#') {
      std::string_view rest = t.substr(i);
      if (rest.substr(0, 2) == "- ") rest.remove_prefix(2);
      return std::string(rest.substr(0, rest.find(':')));
    }
  }
  return "";
}

// Var names declared under `vars:`, read from the lines: while the user types, the file is
// often not valid YAML (an open `[`), and completion must still offer the names.
std::vector<std::string> var_names_of_hint(const Document& doc) {
  LineIndex index(doc.text);
  std::vector<std::string> names;
  bool in_vars = false;
  for (int l = 0; l < index.line_count(); ++l) {
    std::string_view t = index.line(l);
    if (t.empty() || t[0] == '#') continue;
    const int ind = indent_of(t);
    if (ind == 0) {
      in_vars = t.substr(0, 5) == "vars:";
      continue;
    }
    if (!in_vars || ind != 2) continue;
    std::string_view rest = t.substr(2);
    size_t colon = rest.find(':');
    if (colon == std::string_view::npos || colon == 0 || rest[0] == '#' || rest[0] == '-') continue;
    names.emplace_back(rest.substr(0, colon));
  }
  return names;
}

json complete_hint(const Document& doc, int line0, int character) {
  LineIndex index(doc.text);
  std::string_view line = index.line(line0);
  std::string before(line.substr(0, index.offset(line0, character) - index.offset(line0, 0)));
  if (typing_value_of(before, "type")) {
    // A rule's `type:` is a list item under `rules`; a var's sits under the var's name.
    const bool in_rule = line.find("- ") != std::string_view::npos ||
                         parent_key(index, line0, indent_of(line)) == "rules";
    return in_rule ? items({"oneof_required"}, kValue, "rule type")
                   : items({"string", "slice", "map"}, kValue, "var type");
  }
  if (typing_value_of(before, "format")) {
    std::vector<std::string> names;
    for (std::string_view n : formats::names()) names.emplace_back(n);
    json out = items(names, kValue, "format");
    for (auto& item : out) {
      if (auto f = formats::parse(item["label"].get<std::string>())) {
        item["documentation"] = std::string(formats::syntax(*f));
      }
    }
    return out;
  }
  const int ind = indent_of(line);
  const std::string parent = parent_key(index, line0, ind);
  std::string_view list = before;
  const bool in_list = (skip_key(list, "required_with") || skip_key(list, "required_without") ||
                        skip_key(list, "vars")) &&
                       list.starts_with('[');
  if (in_list || ((parent == "required_with" || parent == "required_without" || parent == "vars") &&
                  before.find("- ") != std::string::npos)) {
    return items(var_names_of_hint(doc), kVariable, "declared var");
  }
  if (before.find(':') != std::string::npos) return json::array();
  if (ind == 0) return items({"apiVersion", "kind", "vars", "rules"}, kKeyword, "hint file key");
  if (parent == "rules" || before.find("- ") != std::string::npos) {
    return items({"type", "vars", "message"}, kProperty, "rule key");
  }
  if (parent != "vars") {
    return items({"type", "required", "default", "description", "format", "required_with",
                  "required_without"},
                 kProperty, "var key");
  }
  return json::array();
}

json complete_config(const Document& doc, int line0, int character, const OpenText& open) {
  LineIndex index(doc.text);
  std::string_view line = index.line(line0);
  std::string before(line.substr(0, index.offset(line0, character) - index.offset(line0, 0)));
  if (typing_source_kind(before)) {
    return items({"env", "static", "op"}, kValue, "var source");
  }
  if (before.find(':') != std::string::npos) return json::array();
  // A var key under `helmfile.vars`: the hint's var names of the manifest around the cursor.
  if (parent_key(index, line0, indent_of(line)) != "vars") return json::array();
  diag::Diagnostics diags;
  resolver::Config config = resolver::parse_config(doc.text, doc.path, diags);
  const resolver::Manifest* around = nullptr;
  for (const resolver::Manifest& m : config.manifests) {
    if (m.span.begin.line <= line0 + 1) around = &m;
  }
  if (!around) return json::array();
  diag::Diagnostics hint_diags;
  auto hint = hint_for_dir(resolver::hint_dir(config, *around), open, hint_diags);
  if (!hint.ok() || !*hint) return json::array();
  json out = json::array();
  for (const hintfile::Var& v : (*hint)->vars) {
    bool declared = false;
    for (const auto& s : around->vars) declared = declared || s.name == v.name;
    if (declared) continue;
    json item = {{"label", v.name}, {"kind", kVariable}, {"documentation", describe_var(v)}};
    if (v.type) item["detail"] = std::string(hintfile::to_string(*v.type));
    out.push_back(item);
  }
  return out;
}

// --- helmfile templates --------------------------------------------------------------------

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `before` (the text up to a var's name) ends with a reference to the vars map that names a var
// next: `.Values.`, `.StateValues.`, `.Environment.Values.` (helmfile's environment values hold
// the state values, as tmplcheck's Flavor::kAny reads them), or the same with ` "` (`index
// .Values "`). The map starts a field chain (`$.Values`, `(.Values`): `.Other.Values.` is not it.
bool names_a_var(std::string_view before) {
  auto starts_chain = [](std::string_view head) { return head.empty() || !ident_char(head.back()); };
  for (std::string_view map : {".Values", ".StateValues"}) {
    for (std::string_view sep : {".", " \""}) {
      const std::string lead = std::string(map) + std::string(sep);
      if (!before.ends_with(lead)) continue;
      std::string_view head = before.substr(0, before.size() - lead.size());
      if (starts_chain(head)) return true;
      constexpr std::string_view kEnv = ".Environment";
      if (map == ".Values" && head.ends_with(kEnv)) {
        head.remove_suffix(kEnv.size());
        if (starts_chain(head)) return true;
      }
    }
  }
  return false;
}

// The byte offset of the cursor in its line (`line0` is in range).
size_t cursor_byte(const LineIndex& index, int line0, int character) {
  return index.offset(line0, character) - index.offset(line0, 0);
}

// The var named under the cursor (`.Values.NAME`, `index .Values "NAME"`), if any.
std::optional<std::string> var_under_cursor(std::string_view line, size_t at) {
  auto name_char = [](char c) { return ident_char(c) || c == '-'; };
  size_t begin = std::min(at, line.size()), end = begin;
  while (begin > 0 && name_char(line[begin - 1])) --begin;
  while (end < line.size() && name_char(line[end])) ++end;
  if (begin == end || !names_a_var(line.substr(0, begin))) return std::nullopt;
  return std::string(line.substr(begin, end - begin));
}

json hover_helmfile(const Document& doc, int line0, int character, const OpenText& open) {
  LineIndex index(doc.text);
  auto name = var_under_cursor(index.line(line0), cursor_byte(index, line0, character));
  if (!name) return nullptr;
  std::optional<hintfile::HintFile> hint = hint_of_template(doc, open);
  if (!hint) return nullptr;
  const hintfile::Var* v = hint->find(*name);
  if (!v) return markdown("**" + *name + "**: not declared by the hint");
  return markdown(describe_var(*v));
}

json complete_helmfile(const Document& doc, int line0, int character, const OpenText& open) {
  LineIndex index(doc.text);
  std::string_view before = index.line(line0).substr(0, cursor_byte(index, line0, character));
  while (!before.empty() && ident_char(before.back())) before.remove_suffix(1);
  if (!names_a_var(before)) return json::array();
  std::optional<hintfile::HintFile> hint = hint_of_template(doc, open);
  if (!hint) return json::array();
  json out = json::array();
  for (const hintfile::Var& v : hint->vars) {
    json item = {{"label", v.name}, {"kind", kVariable}, {"documentation", describe_var(v)}};
    if (v.type) item["detail"] = std::string(hintfile::to_string(*v.type));
    out.push_back(item);
  }
  return out;
}

diag::Diagnostics checked(const Document& doc, const OpenText& open) {
  diag::Diagnostics diags;
  if (doc.kind == DocKind::kHint) {
    hintfile::HintFile hint = hintfile::parse(doc.text, doc.path, diags);
    if (!diags.has_errors()) check_unused(doc, hint, open, diags);
  }
  if (doc.kind == DocKind::kConfig) check_config(doc, open, diags);
  if (doc.kind == DocKind::kHelmfile) check_helmfile(doc, open, diags);
  return diags;
}

// Whether one of our own published diagnostics (its range made by range_of: int fields)
// shares a line with `range`. Clients ask for code actions with the cursor's range, which
// may be anywhere on the line (Neovim sends the cursor's position from column 1): a fix is
// offered for the whole line, not only with the cursor inside the misspelt word.
bool on_lines_of(const json& diagnostic_range, const Range& range) {
  const int first = diagnostic_range["start"]["line"].get<int>();
  const int last = diagnostic_range["end"]["line"].get<int>();
  return first <= std::max(range.start.line, range.end.line) &&
         std::min(range.start.line, range.end.line) <= last;
}

}  // namespace

std::optional<std::string> did_you_mean(std::string_view hint) {
  constexpr std::string_view kLead = "did you mean \"";
  for (size_t at = hint.find(kLead); at != std::string_view::npos; at = hint.find(kLead, at + 1)) {
    const size_t begin = at + kLead.size();
    const size_t end = hint.find('"', begin);
    if (end == std::string_view::npos) break;
    if (end > begin && hint.substr(end + 1, 1) == "?") {
      return std::string(hint.substr(begin, end - begin));
    }
  }
  return std::nullopt;
}

int ytt_error_line(std::string_view message, std::string_view file_name) {
  const std::string key = std::string(file_name) + ":";
  for (size_t at = message.find(key); at != std::string_view::npos;
       at = message.find(key, at + 1)) {
    if (auto n = leading_number(message.substr(at + key.size()))) return *n;
  }
  const size_t at = message.find(key + "\n");
  if (at == std::string_view::npos) return 1;
  for (size_t pos = at + key.size() + 1; pos < message.size();) {
    size_t eol = message.find('\n', pos);
    if (eol == std::string_view::npos) eol = message.size();
    std::string_view l = skip_spaces(message.substr(pos, eol - pos));
    size_t digits = 0;
    while (digits < l.size() && std::isdigit(static_cast<unsigned char>(l[digits]))) ++digits;
    if (digits > 0 && l.substr(digits, 2) == " |") return *leading_number(l);
    pos = eol + 1;
  }
  return 1;
}

std::string path_of_uri(const std::string& uri) {
  if (uri.rfind("file://", 0) != 0) return "";
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (size_t i = 7; i < uri.size(); ++i) {
    const int high = uri[i] == '%' && i + 2 < uri.size() ? hex(uri[i + 1]) : -1;
    const int low = high >= 0 ? hex(uri[i + 2]) : -1;
    if (low >= 0) {
      out += static_cast<char>(high * 16 + low);
      i += 2;
    } else {
      out += uri[i];  // not an escape (`%zz`, a `%` at the end): the character itself
    }
  }
  // A NUL cannot be in a file name: such a URI names no file.
  if (out.find('\0') != std::string::npos) return "";
  return out;
}

std::string uri_of_path(const std::string& path) {
  static const char* hex = "0123456789ABCDEF";
  std::string out = "file://";
  for (unsigned char c : path) {
    if (std::isalnum(c) ||
        std::string_view("/-_.~").find(static_cast<char>(c)) != std::string_view::npos) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

DocKind classify(const std::string& path, const std::string& text) {
  const std::string name = base_name(path);
  if (name == hintfile::kFileName) return DocKind::kHint;
  if (name == kConfigName) return DocKind::kConfig;
  for (std::string_view helmfile : resolver::kHelmfileNames) {
    if (name == helmfile) return DocKind::kHelmfile;
  }
  if ((ends_with(name, ".yml") || ends_with(name, ".yaml")) &&
      (text.find("#@data/values") != std::string::npos ||
       text.find("#@schema/") != std::string::npos)) {
    return DocKind::kYtt;
  }
  return DocKind::kOther;
}

json diagnostics(const Document& doc, const OpenText& open) {
  if (doc.kind == DocKind::kYtt) return check_ytt(doc, open);
  diag::Diagnostics diags = checked(doc, open);
  return publishable(diags, doc, open);
}

json hover(const Document& doc, int line, int character, const OpenText& open) {
  LineIndex index(doc.text);
  if (line < 0 || line >= index.line_count()) return nullptr;
  if (doc.kind == DocKind::kHint) {
    if (auto f = format_hover(index.line(line))) return markdown(*f);
    diag::Diagnostics diags;
    hintfile::HintFile hint = hintfile::parse(doc.text, doc.path, diags);
    for (const hintfile::Var& v : hint.vars) {
      if (on_span_line(v.span, line)) return markdown(describe_var(v));
    }
    return nullptr;
  }
  if (doc.kind == DocKind::kConfig) {
    diag::Diagnostics diags;
    resolver::Config config = resolver::parse_config(doc.text, doc.path, diags);
    for (const resolver::Manifest& m : config.manifests) {
      for (const resolver::VarSource& s : m.vars) {
        if (!on_span_line(s.span, line)) continue;
        diag::Diagnostics hint_diags;
        auto hint = hint_for_dir(resolver::hint_dir(config, m), open, hint_diags);
        if (!hint.ok()) return markdown("**" + s.name + "**: " + hint.error().message);
        const hintfile::Var* v = *hint ? (*hint)->find(s.name) : nullptr;
        if (!v) return markdown("**" + s.name + "**: not declared by the manifest's hint");
        return markdown(describe_var(*v));
      }
    }
    (void)character;
    return nullptr;
  }
  if (doc.kind == DocKind::kYtt) {
    if (auto h = ytt_hover(doc, line, open)) return markdown(*h);
  }
  if (doc.kind == DocKind::kHelmfile) return hover_helmfile(doc, line, character, open);
  return nullptr;
}

json completion(const Document& doc, int line, int character, const OpenText& open) {
  // Past the end there is nothing to offer (and no line above to walk up from).
  if (line < 0 || line >= LineIndex(doc.text).line_count()) return json::array();
  if (doc.kind == DocKind::kHint) return complete_hint(doc, line, character);
  if (doc.kind == DocKind::kConfig) return complete_config(doc, line, character, open);
  if (doc.kind == DocKind::kHelmfile) return complete_helmfile(doc, line, character, open);
  return json::array();
}

json code_actions(const Document& doc, const Range& range, const OpenText& open) {
  json out = json::array();
  if (doc.kind != DocKind::kHint && doc.kind != DocKind::kConfig &&
      doc.kind != DocKind::kHelmfile) {
    return out;
  }
  diag::Diagnostics diags = checked(doc, open);
  json published = publishable(diags, doc, open);
  for (const json& d : published) {
    if (!d.contains("data") || !on_lines_of(d["range"], range)) continue;
    const std::string replacement = d["data"]["replacement"];
    const json& replaced = d["data"].contains("range") ? d["data"]["range"] : d["range"];
    json edit = {
        {"changes", {{doc.uri, json::array({{{"range", replaced}, {"newText", replacement}}})}}}};
    out.push_back({{"title", d["data"]["title"]},
                   {"kind", "quickfix"},
                   {"diagnostics", json::array({d})},
                   {"isPreferred", true},
                   {"edit", edit}});
  }
  return out;
}

}  // namespace hintkit::lsp
