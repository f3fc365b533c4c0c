// Internal helpers shared by the yaml/ sources; not part of the module's API.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "yaml/yaml.h"

namespace hintkit::yaml::internal {

// ---- scalars.cpp -------------------------------------------------------------------------

// True when `text` is a YAML 1.1 timestamp as go-yaml v2 recognises one (`2001-12-14`,
// `2001-12-14T21:59:43.10-05:00`, `2001-12-14 21:59:43.10`).
bool is_timestamp(std::string_view text);

// True when a plain scalar with this text would read back as something other than a string
// (or is a base-60 number that other YAML 1.1 parsers read as a number).
bool needs_quotes_to_stay_string(std::string_view text);

// `resolve_plain_scalar` into a default-constructed `out` (the loader builds nodes in place).
void resolve_plain_scalar_into(std::string_view text, Node& out);

// Go's strconv.FormatFloat(f, 'g', -1, 64) with go-yaml v2's spellings of inf and nan.
std::string format_float_yaml(double d);

// ---- strict.cpp --------------------------------------------------------------------------

// The first plain scalar (documents in order, keys before values) that ytt's strict YAML
// refuses, with go-yaml's words after "yaml: " ("Strict parsing: Found 'yes' ambigious
// (could be !!str or !!bool)").
struct StrictProblem {
  diag::Span span;
  std::string message;
};
std::optional<StrictProblem> strict_problem(const std::vector<Document>& docs);

// ---- scan.cpp ----------------------------------------------------------------------------

// The first thing that makes `source` unreadable as YAML text, as go-yaml's reader sees it:
// invalid UTF-8 or a character outside YAML's printable set (C0 controls but tab, LF and CR
// (NUL included), DEL, C1 controls but NEL, U+FFFE, U+FFFF). kind kNone when there is none.
// Failing those, the first of go-yaml's line breaks that ytt's line look-ups do not take (NEL,
// LS, PS: kUnsupportedLineBreak, refused under LoadOptions::ytt_parser; a CR without LF, see
// load_with).
struct NotText {
  ErrorKind kind = ErrorKind::kNone;  // kControlCharacter, kInvalidUtf8, kUnsupportedLineBreak
  size_t offset = 0;
  std::string message;       // ours: "control character U+001B is not allowed"
  std::string go_yaml_text;  // for invalid UTF-8: the reader's words
};
NotText find_not_text(std::string_view source);

// A CR not followed by LF: go-yaml's reader ends a line there (and reads the break as an LF in
// a scalar), and so does the reader here; ytt's own line look-ups do not (see load_with).
bool has_lone_cr(std::string_view text);

// Converts an offset to a 1-based position using `line_starts`.
diag::Position position_at(const std::vector<size_t>& line_starts, size_t offset);
// The position of `offset` in `text`, lines ended where go-yaml's reader ends them (LF, CR LF,
// CR, NEL, LS, PS).
diag::Position text_position(std::string_view text, size_t offset);

// Where `load_split` cuts `source` (the start of a `---` line past its middle), npos when it
// reads it whole (short, or holding anchors, directives, comments, tabs or CRs).
size_t split_offset(std::string_view source);

// ---- loader.cpp --------------------------------------------------------------------------

// Our words for a syntax error kind with a fixed message ("missing ':' after a map key"),
// without the "syntax error: " prefix; "" for kinds whose message carries details.
std::string_view syntax_error_text(ErrorKind kind);

// ---- go_scan.cpp -------------------------------------------------------------------------

enum class CommentKind { kAnnotation, kPlain };

struct ScannedComment {
  CommentKind kind = CommentKind::kPlain;
  int line = 0;        // 1-based
  int column = 0;      // 1-based, of the '#'
  int end_column = 0;  // 1-based, past its last byte (the end of its line)
  std::string text;    // after the '#' (for annotations: after "#@")
};

// What the reader notes of the text as it reads it, for the tree's places and comments.
struct SourceMap {
  bool plain_comments = false;           // keep plain `#` comments too, not only `#@` ones
  bool comments_as_written = false;      // keep every comment as a plain one (`#@`, `#!` too)
  std::vector<size_t> line_starts{0};    // offset of each line's first byte, as far as read
  std::vector<ScannedComment> comments;  // `#@` and plain `#` (`#!` dropped), in order
  // How many of `comments` ytt keeps: those after a `...` that no document follows come in
  // its decoder's last call, which finds no document and returns them with none.
  size_t comments_kept = SIZE_MAX;
};

// The first error go-yaml v2's scanner and parser meet in `source`.
// Scanner errors (`parser_error` false): kMissingColon (a key go-yaml requires, ending without
// `:`; `offset` at the key), kBadAnchorOrAlias (a name go-yaml does not take; `offset` at the
// `&` or `*`), kUnterminatedQuote (`offset` at the end of the
// input), kUnknownToken, kTabInIndentation (`offset` at the tab), kZeroIndentationIndicator
// (`offset` at the `0`), kBadHexEscape and kBadUnicodeEscape (`offset` where the escape's
// digits start), kBadDirective (`offset` at the `%`), kBadTagUri, kUnexpectedColon,
// kUnexpectedDash, kDocumentMarkerInQuote, kBadBlockScalarHeader. Parser errors
// (`parser_error` true, `offset` at the token the parser could not take): kMissingKey,
// kMissingDash, kMissingNodeContent, kMissingDocumentMarker, kMissingFlowListEntryEnd,
// kMissingFlowMapEntryEnd, kDuplicateDirective, kIncompatibleYamlVersion, kUndefinedAlias
// (go-yaml's decoder looks aliases up as its parser takes them), named more closely where the
// parser's state tells (an unclosed flow collection at the end, a stray closing bracket, the
// end of a block map or list). kNone when it reads to the end.
struct GoScan {
  ErrorKind kind = ErrorKind::kNone;
  size_t offset = 0;
  bool parser_error = false;
  // The end of the text whose documents go-yaml's decoder built before the stop (it builds a
  // document's values once its parser has read the document): the start of the document the
  // parser stopped in (0 in the first, implicit one), or the stop itself between documents.
  size_t decoded_end = 0;
  // go-yaml's message for the error as ytt prints it ("yaml: line 3: could not find expected
  // ':'"), from the problem and mark go-yaml sets where it meets it; empty for the reader's.
  std::string message;
};
// `after_document_start`: the text is read as if a `---` line stood before it, as ytt's parser
// puts one before a text that does not start with one (`ytt_puts_document_start`): then a
// leading `...` ends an empty first document, and content after it wants a `---`.
// go-yaml's reader decodes its input in chunks of 512 bytes and rejects a chunk holding a
// character that is not YAML text (`NotText`) when its scanner first needs a byte of it: a
// syntax error before that chunk comes first. `chunk_start`: where that chunk starts.
struct ReaderStop {
  size_t chunk_start = 0;
  ErrorKind kind = ErrorKind::kNone;  // kControlCharacter or kInvalidUtf8
  size_t offset = 0;                  // of the character
};
// Where go-yaml's reader starts the chunk holding `offset` of `text`, read after a `---` line
// when `after_document_start`.
size_t reader_chunk_start(std::string_view text, size_t offset, bool after_document_start);

// Where a node's event places it: its first token (its first property, if any); for an empty
// node the token after it, but for a map entry with no `:`, whose empty value sits at the
// entry's first token. Offset, 0-based line and 0-based byte column.
// A scalar's mark also has where the scanner's end mark puts its end (npos: an empty node).
struct Mark {
  size_t pos = 0;
  int line = 0;
  int column = 0;
  size_t end = std::string_view::npos;
  // A block sequence's element: where its entry's `-` stands (0-based; line -1 for other nodes).
  int dash_line = -1;
  int dash_column = 0;
  // A flow sequence's element: the line of the `[` or `,` before it, where go-yaml's fork
  // places the item (0-based; -1 for other nodes).
  int entry_line = -1;
};
using AnchorId = size_t;  // 0: none; counted from 1 in each document

// The events of go-yaml's parser, as the tree's builder takes them. Tags are resolved (prefix
// and suffix: "tag:yaml.org,2002:int", "!x"); an untagged node has "?" when it is a plain
// scalar or a collection, "!" when it is a quoted or block scalar. Untagged plain null words
// (`~`, `null`, `Null`, `NULL`) and empty untagged nodes are `OnNull`.
class EventHandler {
 public:
  virtual ~EventHandler() = default;
  // `explicit_start`: the document starts with `---` (after its directives, if any).
  virtual void OnDocumentStart(const Mark& mark, bool explicit_start) = 0;
  virtual void OnDocumentEnd() = 0;
  virtual void OnNull(const Mark& mark, AnchorId anchor) = 0;
  virtual void OnAlias(const Mark& mark, AnchorId anchor) = 0;
  virtual void OnScalarView(const Mark& mark, const std::string& tag, AnchorId anchor,
                            std::string_view value, Style style) = 0;
  virtual void OnSequenceStart(const Mark& mark, const std::string& tag, AnchorId anchor,
                               bool flow) = 0;
  virtual void OnSequenceEnd() = 0;
  virtual void OnMapStart(const Mark& mark, const std::string& tag, AnchorId anchor, bool flow) = 0;
  virtual void OnMapEnd() = 0;
};

// Which go-yaml v2 reads. ytt's fork has v2.2's scanner, which drops stale simple keys before
// every token; v2.4, which tazuna reads with (through sigs.k8s.io/yaml), checks a simple key only
// when the parser wants the token it starts at, or a ':' comes. They read the same values; the
// first error of a broken text may differ.
enum class GoYaml : uint8_t { kYttFork, kV2_4 };

// go-yaml v2's scanner and parser reading `source` whole, handing each event to `handler` (the
// tree's builder). False when it stops before the end, at go-yaml's first error: the events
// handed over so far from the document it stopped in must then be dropped. `*stop` (optional)
// gets where and why it stopped; `*map` (optional) what the reader notes as it reads (see
// SourceMap); `*reader` (optional) where go-yaml's reader rejects the text.
bool go_yaml_read(std::string_view source, EventHandler& handler, GoYaml version,
                  bool after_document_start, GoScan* stop = nullptr, SourceMap* map = nullptr,
                  const ReaderStop* reader = nullptr);

// ---- loader.cpp --------------------------------------------------------------------------

// `load` of one text, read whole (never split); `*read_whole` (optional) tells whether go-yaml's
// reader took it to the end without a stop.
std::vector<Document> load_with(std::string_view source, std::string_view file,
                                diag::Diagnostics& diags, const LoadOptions& options,
                                bool* read_whole);

}  // namespace hintkit::yaml::internal
