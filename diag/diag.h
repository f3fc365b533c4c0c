// Diagnostics shared by every hintkit module: where a problem is (`Position`, `Span`), what it
// is (`Diagnostic` with a stable code, a data path, related places and hints), a collector
// (`Diagnostics`) that checkers append to and keep going, `Result<T>` for operations that can
// fail outright, renderers (text, json, sarif, github) and `nearest()` for did-you-mean.
//
// Start with `Diagnostics`: a checker takes `Diagnostics&`, calls `error(...)`/`warning(...)`
// and returns; the caller sorts and renders once at the end.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace hintkit::diag {

// 1-based line and column; line 0 means "no position" (e.g. a whole-file problem).
struct Position {
  int line = 0;
  int column = 0;
  friend bool operator==(const Position&, const Position&) = default;
  friend auto operator<=>(const Position&, const Position&) = default;
};

// A file name interned once per process: spans copy a pointer, not the path, so a YAML tree
// of a million nodes does not hold a million copies of its file name. Converts to and from
// std::string implicitly, so it reads like one.
class FileName {
 public:
  FileName() = default;
  FileName(std::string_view name);  // NOLINT: implicit by design
  FileName(const std::string& name) : FileName(std::string_view(name)) {}  // NOLINT
  FileName(const char* name) : FileName(std::string_view(name)) {}         // NOLINT

  const std::string& str() const { return name_ ? *name_ : empty_string(); }
  operator const std::string&() const { return str(); }  // NOLINT
  operator std::string_view() const { return str(); }    // NOLINT
  bool empty() const { return str().empty(); }
  size_t size() const { return str().size(); }
  const char* c_str() const { return str().c_str(); }

  friend bool operator==(const FileName& a, const FileName& b) { return a.name_ == b.name_; }
  friend bool operator==(const FileName& a, std::string_view b) { return a.str() == b; }
  friend bool operator==(const FileName& a, const std::string& b) { return a.str() == b; }
  friend bool operator==(const FileName& a, const char* b) { return a.str() == b; }
  friend auto operator<=>(const FileName& a, const FileName& b) { return a.str() <=> b.str(); }
  friend std::string operator+(const FileName& a, std::string_view b) {
    std::string s = a.str();
    s += b;
    return s;
  }
  friend std::string operator+(std::string_view a, const FileName& b) {
    std::string s(a);
    s += b.str();
    return s;
  }
  friend std::string operator+(const FileName& a, char b) { return a.str() + b; }
  friend std::ostream& operator<<(std::ostream& out, const FileName& f) { return out << f.str(); }

 private:
  static const std::string& empty_string();
  const std::string* name_ = nullptr;  // owned by the process-wide table; null = empty
};

// A place in a named file. `file` is the path as the user gave it.
struct Span {
  FileName file;
  Position begin;
  Position end;  // may equal begin when only a point is known
  bool known() const { return begin.line > 0; }
};

enum class Severity { kError, kWarning, kNote };
std::string_view to_string(Severity s);

// Another place that explains the primary one ("declared here").
struct Related {
  Span span;
  std::string message;
};

struct Diagnostic {
  Severity severity = Severity::kError;
  std::string code;     // stable, e.g. "HK101"; see README's table
  Span span;            // primary place
  std::string path;     // data path, e.g. "vars.apiKey.required_with[0]"
  std::string message;  // one line, lower case, no trailing period
  std::vector<Related> related;
  std::vector<std::string> hints;  // e.g. `did you mean "required"?`
  // For callers that act on the kind of a problem rather than on its wording: a finer kind
  // within `code`, defined by the module that reports it (yaml: `yaml::ErrorKind`), 0 when
  // none, and what that kind's other spellings need besides the position. Never rendered.
  uint16_t kind = 0;
  std::string kind_detail;
};

// Collects findings. Not thread-safe: give each worker its own and `append` them afterwards.
class Diagnostics {
 public:
  Diagnostic& add(Diagnostic d);
  Diagnostic& error(std::string code, Span span, std::string message, std::string path = {});
  Diagnostic& warning(std::string code, Span span, std::string message, std::string path = {});
  void append(Diagnostics&& other);

  // Stable order (file, line, column, then insertion) and exact duplicates removed.
  void sort_and_dedupe();

  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }
  size_t error_count() const;
  size_t warning_count() const;
  bool has_errors() const { return error_count() > 0; }
  const std::vector<Diagnostic>& items() const { return items_; }
  std::vector<Diagnostic>& items() { return items_; }

 private:
  std::vector<Diagnostic> items_;
};

// A failure that makes an operation impossible (unreadable file, bad flags).
struct Error {
  std::string message;
  Span span;  // optional place
};

// `std::expected`'s spelling for g++ 12. Check `ok()` before `value()`. `E` is the error
// type: `Error` for operations, richer types where a module needs more (Starlark's stack).
template <typename T, typename E = Error>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(E error) : v_(std::move(error)) {}  // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const E& error() const { return std::get<1>(v_); }
  E& error() { return std::get<1>(v_); }

 private:
  std::variant<T, E> v_;
};

template <typename E>
class [[nodiscard]] Result<void, E> {
 public:
  Result() = default;
  Result(E error) : error_(std::move(error)) {}  // NOLINT
  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const E& error() const { return *error_; }

 private:
  std::optional<E> error_;
};

// ---- Did you mean ----------------------------------------------------------------------

// Words longer than this get no suggestion: names people type (keys, vars, identifiers) are
// far shorter (Kubernetes caps a name part at 63), a longer word is pasted data no suggestion
// would help with, and capping it keeps each comparison at most kMaxSpellingBytes cells times
// the distance budget, whatever the input.
inline constexpr size_t kMaxSpellingBytes = 64;
// The same cap for ytt's messages (go_spell_nearest), set higher: ytt suggests for any length,
// and real data value keys and struct fields pass 64 bytes. Its budget is half the word, so a
// comparison costs at most 256 * 257 cells; candidates whose length differs by more than the
// budget cost nothing.
inline constexpr size_t kMaxGoSpellingBytes = 256;

// The edit distance of `a` and `b` (insertions, deletions, substitutions of bytes, and with
// `transpositions` two adjacent bytes swapped as one edit: optimal string alignment) when it
// is at most `limit`, else nothing. Banded: O(min(|a|, |b|) * (2 * limit + 1)) time, and no
// work at all when the lengths differ by more than `limit`. The one edit distance of hintkit.
std::optional<size_t> edit_distance_within(std::string_view a, std::string_view b, size_t limit,
                                           bool transpositions);

// The closest candidate by edit distance, if close enough to be a plausible typo
// (distance <= max(1, len/3), ignoring case, transpositions counted as one edit); a
// case-only difference always qualifies. Nothing for a word over kMaxSpellingBytes.
std::optional<std::string> nearest(std::string_view word,
                                   std::span<const std::string_view> candidates);
std::optional<std::string> nearest(std::string_view word,
                                   const std::vector<std::string>& candidates);
// `did you mean "x"?` or "" when nothing is close.
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates);
// starlark-go's spell.Nearest, as ytt's messages use it: the candidate at the smallest
// Levenshtein distance (no transpositions) under half the word's length, the first of equals,
// with '_' dropped and ASCII case folded on both sides; "" if none or the word is over
// kMaxGoSpellingBytes.
std::string go_spell_nearest(std::string_view word, const std::vector<std::string>& candidates);

// ---- Lines of a text -------------------------------------------------------------------

// Where the lines of `text` start, lines ended by LF, CR LF or CR: as hintkit's positions
// count them (the YAML reader's, with go-yaml) and as the language server protocol does.
std::vector<size_t> line_starts(std::string_view text);
// Line `index` (0-based) of `text`, without its line break; "" past the last line.
std::string_view line_at(std::string_view text, const std::vector<size_t>& starts, size_t index);

// ---- Rendering -------------------------------------------------------------------------

enum class Format { kText, kJson, kSarif, kGithub };
std::string_view to_string(Format f);
std::optional<Format> parse_format(std::string_view name);

struct RenderOptions {
  std::string tool_name = "hintkit";
  std::string tool_version;
  std::string message_prefix;  // e.g. "manifest api: " in front of every message
  // One-line description of a diagnostic code, for SARIF rule metadata; empty: the code.
  std::function<std::string(std::string_view code)> describe_code;
  // sarif: an absolute folder (the repository root): artifact URIs become relative to it
  // under the uriBaseId %SRCROOT%, which originalUriBaseIds defines. Empty, or a file outside
  // it: the path as given (absolute paths as file:// URIs).
  std::string source_root;
  // sarif: rules' helpUri is this + "#" + the lower-case code (e.g. ".../diagnostics.md" +
  // "#hk101"); empty: no helpUri.
  std::string help_uri_base;
  // text only: ANSI colour for the severity word, the place and the code (the CLI decides,
  // from --color and whether the stream is a terminal); the other formats never colour.
  bool color = false;
};

// text:   `file:line:col: error: message [code]` then indented `note:`/`hint:` lines
//         (bold place, red error, yellow warning, cyan note, green hint, dim code: with
//         options.color)
// json:   {"diagnostics":[{...}], "errors":N, "warnings":N}
// sarif:  SARIF 2.1.0 as GitHub code scanning reads it: one run, rules = distinct codes with
//         help text and helpUri; columns in UTF-16 code units (the files are read again to
//         count them; a file that cannot be read keeps byte columns); paths under
//         %SRCROOT%; partialFingerprints.primaryLocationLineHash = 16 hex digits of FNV-1a
//         (64-bit) over code, relative path and message (no line numbers, so a finding keeps
//         its identity when lines move), then ":N" for the N-th result with that hash
// github: `::error file=…,line=…,col=…,title=code::message` workflow commands
void render(std::ostream& out, Format format, const Diagnostics& diags,
            const RenderOptions& options = {});
std::string render_text(const Diagnostic& d, const RenderOptions& options = {});

// `"name"`: how messages quote a user's name or value.
std::string in_quotes(std::string_view s);

// A JSON string literal escaped as Go's encoding/json writes it (`<`, `>`, `&`, U+2028/9 as
// \u escapes, invalid UTF-8 as U+FFFD): what helmfile and ytt print, and valid JSON for all.
std::string json_quote(std::string_view s);
void append_json_string(std::string& out, std::string_view s);

}  // namespace hintkit::diag
