// The annotated YAML model shared by the hint-file and ytt halves of hintkit.
//
// `load(source, file, diags)` parses a multi-document YAML text into `Document`s of `Node`s.
// Every node keeps its 1-based span, every map keeps its items in source order, and `#@`
// annotation comments are attached the way ytt attaches them (a `#@` line annotates the node
// that follows it; a trailing `#@` annotates the node on its own line). Plain scalars are
// resolved as go-yaml v2 resolves them (YAML 1.1: `yes`/`on` are bools, `0x1f`/`017` are
// ints, `1_000` is an int, `.5` a float), which is how ytt and tazuna read YAML. Problems
// (syntax errors, duplicate keys, limits) are appended to `diags` at line:col; the returned
// documents are whatever could be read.
//
// Attachment follows ytt exactly: a comment belongs to the first node at or below its line
// (documents that start with `---`, map items, array items); on a node's own line the
// innermost node owns it, above it the outermost. So `#@data/values` above `---` or on the
// `---` line annotates the Document, but above the first item of a file with no `---` it
// annotates that item (ytt then reports "Found @data/values on map item"). Annotations after
// the last node end up in an extra empty Document at the end (ytt does the same).
// Spans: `begin` is where the node starts; `end` is just past it (best effort for
// collections and block scalars). Duplicate keys keep one item holding the later value
// (as ytt does) and report HK002.
//
// `emit_yaml` / `emit_json` print values back out; `emit_yaml` prints the way ytt does
// (2-space indent, block style, `- ` arrays not indented under their key, minimal quoting).
//
// The reader is go-yaml v2's scanner and parser (go_scan.cpp); no other YAML library is used.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diag.h"
#include "fileio/fileio.h"

namespace hintkit::yaml {

// Named limits; each breach is a diagnostic, never a crash. A text is at most what a file
// may hold (fileio::kMaxFileBytes).
inline constexpr int kMaxDepth = 512;                 // deeper nesting is machine-made or hostile
inline constexpr size_t kMaxAliasExpansions = 10000;  // "billion laughs" guard
// Scalar text that aliases may copy, all aliases of a file together: as much as the largest
// file we read. Counting nodes alone lets a few big strings through (a 1 MiB string aliased
// 1,000 times is 1,000 nodes but 1 GB of output).
inline constexpr size_t kMaxAliasBytes = fileio::kMaxFileBytes;

enum class Kind : uint8_t { kNull, kBool, kInt, kFloat, kString, kMap, kArray };
std::string_view to_string(Kind k);  // "null", "bool", "int", "float", "string", "map", "array"

// How a scalar was written; quoted and block scalars are always strings.
enum class Style : uint8_t {
  kPlain,
  kSingleQuoted,
  kDoubleQuoted,
  kLiteral,
  kFolded,
  kFlow,
  kBlock
};

// `#@schema/default 3` -> name "schema/default", args "3". `#@ load("x.star", "f")` (code,
// no name) -> name "", args `load("x.star", "f")`. `#!` comments are dropped.
struct Annotation {
  std::string name;
  std::string args;
  diag::Span span;
};

// A plain `#` comment (not `#@`, not `#!`), kept so ytt-mode can reject them as ytt does.
struct Comment {
  std::string text;  // without the leading '#'
  diag::Span span;
};

// A vector that costs one pointer while it is empty. Annotations, comments and tags are rare
// (most nodes of a large values file have none), and a node is copied and moved in bulk, so
// keeping them out of line makes every node smaller. Reads see a `const std::vector<T>&`.
template <typename T>
class SparseVector {
 public:
  using value_type = T;
  using iterator = typename std::vector<T>::iterator;
  using const_iterator = typename std::vector<T>::const_iterator;

  SparseVector() = default;
  SparseVector(std::vector<T> v)  // NOLINT: implicit, as the std::vector it stands for
      : v_(v.empty() ? nullptr : std::make_unique<std::vector<T>>(std::move(v))) {}
  SparseVector(const SparseVector& o)
      : v_(o.v_ && !o.v_->empty() ? std::make_unique<std::vector<T>>(*o.v_) : nullptr) {}
  SparseVector(SparseVector&&) noexcept = default;
  SparseVector& operator=(const SparseVector& o) {
    if (this != &o) *this = SparseVector(o);
    return *this;
  }
  SparseVector& operator=(SparseVector&&) noexcept = default;

  operator const std::vector<T>&() const { return get(); }  // NOLINT: read as a vector
  const std::vector<T>& get() const { return v_ ? *v_ : none(); }
  std::vector<T>& mut() {
    if (!v_) v_ = std::make_unique<std::vector<T>>();
    return *v_;
  }

  bool empty() const { return !v_ || v_->empty(); }
  size_t size() const { return v_ ? v_->size() : 0; }
  const_iterator begin() const { return get().begin(); }
  const_iterator end() const { return get().end(); }
  iterator begin() { return v_ ? v_->begin() : iterator(); }
  iterator end() { return v_ ? v_->end() : iterator(); }
  const T& operator[](size_t i) const { return (*v_)[i]; }
  T& operator[](size_t i) { return (*v_)[i]; }
  const T& front() const { return v_->front(); }
  const T& back() const { return v_->back(); }
  T& front() { return v_->front(); }
  T& back() { return v_->back(); }
  void push_back(T t) { mut().push_back(std::move(t)); }
  template <typename... A>
  T& emplace_back(A&&... a) {
    return mut().emplace_back(std::forward<A>(a)...);
  }
  void clear() { v_.reset(); }

 private:
  static const std::vector<T>& none() {
    static const std::vector<T> empty;
    return empty;
  }
  std::unique_ptr<std::vector<T>> v_;
};

// A string that costs one pointer while it is empty (explicit tags are rare).
class SparseString {
 public:
  SparseString() = default;
  SparseString(std::string s)  // NOLINT: implicit, as the std::string it stands for
      : s_(s.empty() ? nullptr : std::make_unique<std::string>(std::move(s))) {}
  SparseString(const SparseString& o) : SparseString(o.str()) {}
  SparseString(SparseString&&) noexcept = default;
  SparseString& operator=(const SparseString& o) {
    if (this != &o) *this = SparseString(o.str());
    return *this;
  }
  SparseString& operator=(SparseString&&) noexcept = default;

  operator const std::string&() const { return str(); }  // NOLINT: read as a string
  operator std::string_view() const { return str(); }    // NOLINT
  const std::string& str() const { return s_ ? *s_ : none(); }
  bool empty() const { return !s_ || s_->empty(); }
  size_t size() const { return s_ ? s_->size() : 0; }

  friend bool operator==(const SparseString& a, const SparseString& b) {
    return a.str() == b.str();
  }
  friend bool operator==(const SparseString& a, std::string_view b) { return a.str() == b; }
  friend bool operator==(const SparseString& a, const char* b) { return a.str() == b; }
  friend std::string operator+(std::string a, const SparseString& b) { return a += b.str(); }
  friend std::ostream& operator<<(std::ostream& out, const SparseString& s) {
    return out << s.str();
  }

 private:
  static const std::string& none() {
    static const std::string empty;
    return empty;
  }
  std::unique_ptr<std::string> s_;
};

struct MapItem;

// Field order packs the small members together (sizeof(Node) is 152 bytes on x86-64).
struct Node {
  Kind kind = Kind::kNull;
  Style style = Style::kPlain;
  bool bool_value = false;
  // kInt. go-yaml v2 reads integers above INT64_MAX (up to UINT64_MAX) as uint64: then
  // `is_unsigned` is set and the value is `static_cast<uint64_t>(int_value)`. Integers beyond
  // uint64 are kFloat when they read as a float, else strings.
  bool is_unsigned = false;
  // Sequence elements whose `-` (in a flow sequence: the `[` or `,` before it) stands on an
  // earlier line than the element (`-` alone on its line): that line, which ytt gives as the
  // item's position. 0: the span's line.
  int32_t item_line = 0;
  int64_t int_value = 0;
  std::string text;          // scalar: the decoded string (for kString) or the source text
  double float_value = 0.0;  // kFloat
  SparseString tag;          // explicit tag as written (e.g. "!!str"), empty if none
  diag::Span span;
  std::vector<MapItem> items;            // kMap, in source order
  std::vector<Node> elements;            // kArray
  SparseVector<Annotation> annotations;  // for array items: the item's annotations
  SparseVector<Comment> comments;

  bool is_scalar() const { return kind != Kind::kMap && kind != Kind::kArray; }
  bool is_null() const { return kind == Kind::kNull; }
  // For maps: the item with this string key, or nullptr.
  const MapItem* find(std::string_view key) const;
  MapItem* find(std::string_view key);
};

struct MapItem {
  Node key;  // usually a kString scalar; YAML allows other scalar keys
  Node value;
  diag::Span span;                       // from the key to the end of the value
  SparseVector<Annotation> annotations;  // `#@` lines above the key or trailing on its line
  SparseVector<Comment> comments;
};

struct Document {
  Node root;          // kNull for an empty document
  bool empty = true;  // true when the document has no content at all
  // It starts with `---` (after its directives, if any); `span` begins there (at the first
  // directive). Otherwise it starts at its first node.
  bool explicit_start = false;
  diag::Span span;
  SparseVector<Annotation> annotations;  // annotations before or on the `---` line
  SparseVector<Comment> comments;
};

struct LoadOptions {
  bool keep_comments = false;  // collect plain `#` comments (ytt mode needs them)
  // Every comment (`#@`, `#!` and `#`) kept in `comments` as written after its `#`, none read
  // as an annotation: the tree as ytt's parser hands it over before templating (`ytt fmt`).
  bool comments_as_written = false;
  // Keep every item of a repeated key, in order, with HK002 as a warning (ytt templates
  // decide after evaluation: two branches of an `if` may hold the same key).
  bool keep_duplicate_keys = false;
  // Merge keys as ytt's fork of go-yaml v2 reads them: a `<<` whose value is a list of maps
  // is an error there (its decoder cannot merge into an ordered map from a list), an empty
  // list merges nothing.
  bool ytt_merge_keys = false;
  // Read as ytt's parser (yamlmeta's ParseBytes) hands a text to its go-yaml. It puts a `---`
  // line before a text that does not start with one, so a byte order mark at the start is text
  // (a character of the first scalar), not the mark YAML readers drop. It looks each node's line
  // up among the text's LF-separated lines, where go-yaml also ends lines at a CR without LF, NEL,
  // LS and PS: a NEL, LS or PS, and a CR without LF that puts a node past those lines (ytt
  // crashes) or stands in a template (whose code is read from those lines), are refused (HK004,
  // kUnsupportedLineBreak). tazuna's reading (sigs.k8s.io/yaml) does neither.
  bool ytt_parser = false;
  // ytt's --strict: a plain scalar that YAML 1.1 reads differently from a conservative
  // reading (`yes`, `0x1F`, `~`), or an unquoted string with white space, ':' or '---', is a
  // kStrictScalar error, ordered as go-yaml's decoder meets it: before the text's first error
  // when it stands earlier (in an earlier document than a syntax error, or earlier in the text
  // than a tag mismatch or bad merge).
  bool strict = false;
  // Off: messages name a scalar by its place only, never its text (provided values for
  // `resolve` and the hook carry secrets, and their messages reach CI logs).
  bool values_in_messages = true;
  int max_depth = kMaxDepth;
  size_t max_bytes = fileio::kMaxFileBytes;
  size_t max_alias_bytes = kMaxAliasBytes;
};

// Every HK001 and HK004 diagnostic of `load` carries one of these kinds (in
// `diag::Diagnostic::kind`) with its position, on both parser paths, so callers act on the
// kind and never on the wording. go-yaml v2's spelling of each is `go_yaml_message`.
enum class ErrorKind : uint16_t {
  kNone = 0,  // not an error of `load` (or a limit: HK002, HK003)
  // HK004: the input is not YAML text (go-yaml's reader rejects it before scanning).
  kControlCharacter,  // NUL, C0 but tab/LF/CR, DEL, C1 but NEL, U+FFFE, U+FFFF
  kInvalidUtf8,
  // HK001, found while scanning (go-yaml names the line of the problem).
  kUnterminatedQuote,
  kUnknownEscape,
  kUnknownToken,
  kDocumentMarkerInQuote,
  kBadBlockScalarHeader,
  kBadAnchorOrAlias,
  kUnexpectedColon,              // a map value where none may be
  kUnexpectedDash,               // a list item where none may be
  kMissingColon,                 // a block map key line without `:`
  kTabInIndentation,             // a tab in the indentation of a plain scalar's continuation line
  kTabInBlockScalarIndentation,  // a tab where a block scalar's indentation spaces belong
  // HK001, found while parsing (go-yaml names the line before the offending token).
  kMissingDash,  // a key where the next `- ` item of a block list belongs
  kMissingKey,   // `:` with no key before it
  kEndOfListNotFound,
  kEndOfMapNotFound,
  kMissingDocumentMarker,
  kUnclosedFlowMap,
  kUnclosedFlowList,
  kUnexpectedClosingBracket,
  kUndefinedAlias,
  // go-yaml's parser's problems the kinds above do not name (those name where a collection's
  // end or a bracket went wrong).
  kMissingNodeContent,        // no node where one must be (`- ` then `key:` at its column)
  kMissingFlowListEntryEnd,   // neither ',' nor ']' after a flow list's entry
  kMissingFlowMapEntryEnd,    // neither ',' nor '}' after a flow map's entry
  kUndefinedTagHandle,        // `!e!x`: a named tag handle no %TAG directive defines
  kBadTagUri,                 // scanner: a tag with nothing after its handle (`!<>`, `!!`)
  kZeroIndentationIndicator,  // scanner: a block scalar header `|0` or `>-0`
  kBadHexEscape,              // scanner: `\x`, `\u`, `\U` without their hex digits
  kBadUnicodeEscape,          // scanner: `\uD800`, `\U00110000` (a surrogate or beyond U+10FFFF)
  kTagNotFollowedBySpace,     // scanner: a tag with a character after it that ends no tag (`!a|`)
  kBadDirective,             // scanner: a `%` line go-yaml cannot read as a %YAML or %TAG directive
  kDuplicateDirective,       // parser: a second %YAML, or a second %TAG for one handle
  kIncompatibleYamlVersion,  // parser: a %YAML directive naming a version other than 1.1
  // HK001 while building values.
  kTagMismatch,           // `!!int abc`; kind_detail: "<resolved tag> <wanted tag> <value>"
  kBadMerge,              // `<<` with something other than a map or a list of maps
  kBadBinary,             // `!!binary` on text that is not padded standard base64
  kAnchorContainsItself,  // an alias inside the node its anchor names (`&a [*a]`)
  kStrictScalar,  // LoadOptions::strict; kind_detail: go-yaml's words ("Strict parsing: ...")
  // HK004, our refusal under LoadOptions::ytt_parser: NEL, LS or PS (U+0085, U+2028, U+2029),
  // or a CR without LF where ytt's line look-ups fail. go-yaml ends lines there, ytt's parser
  // looks lines up among the LF-separated ones.
  kUnsupportedLineBreak,
  // HK001, go-yaml's scanner: a `? ` key indicator where no key may start (`a: ? b`).
  kUnexpectedKeyIndicator,
  // HK004, our refusal in tazuna's reading: a text that starts with two byte order marks.
  // go-yaml drops the first; its test for a mark at a line's start reads the first bytes of its
  // read buffer, not the character there, so with the second one there it skips the first
  // character of lines until its buffer is next refilled.
  kUnsupportedByteOrderMark,
  kOther,  // any other problem (out of memory), in its own words
};
ErrorKind error_kind(const diag::Diagnostic& d);

// How go-yaml v2 (as vendored by ytt v0.48.0) words the error `d` that `load` reported, as ytt's
// parser shows it: "yaml: line 2: did not find expected key". A syntax error carries go-yaml's
// problem and line from where its scanner or parser met it (`kind_detail`).
// `through_ytt_parser`: files and flag values go through ytt's own parser, whose line fix-up
// cuts "did not find expected ',' or '}'" to "did not find expected ',' or '"; yaml.decode
// gets go-yaml's text unchanged. A diagnostic of kind kNone keeps its own words.
std::string go_yaml_message(const diag::Diagnostic& d, bool through_ytt_parser);

// Parses `source` (named `file` in diagnostics). Diagnostic codes: HK001 syntax error,
// HK002 duplicate key, HK003 limit exceeded, HK004 not text (control characters, invalid
// UTF-8).
std::vector<Document> load(std::string_view source, std::string_view file, diag::Diagnostics& diags,
                           const LoadOptions& options = {});

// The same documents, diagnostics and positions as `load`; a long stream (64 KB and more) of
// plain documents is read as two halves, cut at a `---` line, the second half on a thread of
// its own. Text that could read differently in halves (anchors, directives, comments) and any
// half with something to report are read whole. `after_thread` (optional) runs once the
// second half is back (the allocator may want the memory the thread held back); the thread's
// own end (its heap and stack handed back, 0.1-0.2 ms) may still be under way then, off the
// caller's path.
// `each_half` (optional) gets each half's documents (0: the first half, 1: the second), on the
// thread that read them, once their positions are those of the whole stream, and may consume
// them; `*halves_used` (optional) then says whether both halves got there and are what was
// returned (else the text was read again whole, and whatever `each_half` made is to be
// dropped).
std::vector<Document> load_split(
    std::string_view source, std::string_view file, diag::Diagnostics& diags,
    const LoadOptions& options = {}, const std::function<void()>& after_thread = {},
    const std::function<void(size_t half, std::vector<Document>& docs)>& each_half = {},
    bool* halves_used = nullptr);

// Whether ytt's parser puts a `---` line before `text` before reading it (it does unless the
// text starts with optional white space, `---` and white space): ytt then sees one document
// more, an empty one, ahead of a text whose first document starts with `---`.
bool ytt_puts_document_start(std::string_view text);

// go-yaml v2 scalar resolution of a plain scalar's text, filling kind and value fields.
Node resolve_plain_scalar(std::string_view text);

// Builders for values made in code.
Node make_null();
Node make_string(std::string s);
Node make_bool(bool b);
Node make_int(int64_t i);
Node make_float(double d);
Node make_map();
Node make_array();

// Deep structural equality of values (kinds and values; spans, styles, annotations ignored;
// map items compare in order, NaN equals NaN).
bool equal(const Node& a, const Node& b);

// Output. `emit_yaml` writes one document the way ytt prints it (no leading `---`);
// `emit_json` writes compact (indent 0) or indented JSON with keys in map order, strings and
// numbers spelled as Go's encoding/json does (`<` as \u003c, 1e+21, 1e-7); inf and nan have no
// JSON spelling and are written as null. Note: ytt's `-o json` sorts map keys.
std::string emit_yaml(const Node& node);
std::string emit_json(const Node& node, int indent = 0);

// How tazuna hands a YAML scalar to a Go string field: it decodes tazuna.yaml and hint files
// with sigs.k8s.io/yaml, so go-yaml v2 resolves plain scalars the YAML 1.1 way, the result is
// converted to JSON, and a number or bool that lands in a `string` field (or is a map key)
// becomes its Go spelling: `0755` -> "493", `1.50` -> "1.5", `yes` -> "true", `0x1F` -> "31".
// Floats are spelled as strconv.FormatFloat(f, 'g', -1, 32) spells them (float32 precision:
// 3.14159265 -> "3.1415927"; 1e6 -> "1e+06"). Null gives "" (JSON null leaves a string unset).
std::string go_string(const Node& scalar);
// A scalar as a map key: like go_string, but infinities and NaN are spelled as YAML spells
// them (".inf", "-.inf", ".nan"), as sigs.k8s.io/yaml does for keys.
std::string go_key_string(const Node& scalar);

// ---- tazuna's decoding: sigs.k8s.io/yaml's YAML -> JSON conversion ----------------------
//
// tazuna reads tazuna.yaml and hint files with sigs.k8s.io/yaml: go-yaml v2 reads the first
// document into Go values, `convertToJSONableObject` turns them into JSON-able ones guided by
// the Go type they are decoded into, `encoding/json` marshals that and unmarshals it into the
// type. What that does, ported here as one mechanism:
//  - every map key becomes a string: a bool "true"/"false", an int its digits, a float
//    strconv.FormatFloat(f, 'g', -1, 32) with ".inf", "-.inf", ".nan" (go_key_string); a
//    null key, an integer past INT64_MAX (go-yaml's uint64) and a collection key are refused,
//    and so is the whole file;
//  - a number or bool bound for a Go string becomes its spelling (go_string), so `.inf` there
//    is "+Inf"; anywhere else an infinity or NaN has no JSON spelling and the whole file is
//    refused (json: unsupported value);
//  - a value bound for an `any` (a hint default, a var's value) comes back from JSON: maps with
//    string keys, every number a float64 (2^53 + 1 -> 2^53, 12345678901234567890 ->
//    1.2345678901234567e19).
// Two keys of one map that become the same string (`1` and `"1"`) land in a Go map in random
// order, so tazuna keeps either; hintkit refuses them (HK002) rather than guess.

// The Go type a value is decoded into, as far as the conversion cares. Struct fields match a
// key exactly, else case-insensitively (encoding/json's rule); a key matching no field, and
// every kOther, gets no coercion.
struct GoType {
  enum class Kind : uint8_t { kOther, kString, kStruct, kMap, kSlice };
  struct Field {
    std::string_view name;
    const GoType* type;
  };
  Kind kind = Kind::kOther;
  std::vector<Field> fields;     // kStruct
  const GoType* elem = nullptr;  // kMap, kSlice

  static const GoType* other();   // bool, int, any: no coercion
  static const GoType* string();  // string and string kinds
};

// What the conversion refuses in `value` decoded into `target`: HK005 for a refused key or
// an infinity/NaN outside a string, HK002 for keys that become the same string. Appended to
// `diags` with their places; `what` names the file for the message ("the hint file").
void check_go_json(const Node& value, const GoType& target, std::string_view what,
                   diag::Diagnostics& diags);

// `value` as an `any` field receives it: keys as strings (the first of keys that collide is
// kept: check_go_json reports them), every int a float64 unless `keep_ints` (a value that
// stands for one read without the JSON round trip); other scalars and spans unchanged.
Node go_json_any(const Node& value, bool keep_ints = false);

// A scalar as the emitter needs it, so trees other than `Node` can describe their scalars.
struct ScalarRef {
  Kind kind = Kind::kNull;
  bool bool_value = false;
  bool is_unsigned = false;  // as in Node
  int64_t int_value = 0;
  double float_value = 0.0;
  std::string_view text;  // kString: the string
};
// The ScalarRef of any scalar with Node's field names (Node itself, the schema engine's).
template <class S>
ScalarRef scalar_ref_of(const S& s, Kind kind) {
  ScalarRef r;
  r.kind = kind;
  r.bool_value = s.bool_value;
  r.is_unsigned = s.is_unsigned;
  r.int_value = s.int_value;
  r.float_value = s.float_value;
  r.text = s.text;
  return r;
}

// The YAML writer behind `emit_yaml`, fed as a stream: a walk of any tree reports scalars and
// the start and end of each collection in document order (map items as key, value, key, ...),
// and the output is the same as `emit_yaml` of the equal `Node`. Lets the schema engine print
// its own tree without first copying it into `Node`s.
class YamlEmitter {
 public:
  YamlEmitter();
  ~YamlEmitter();
  YamlEmitter(const YamlEmitter&) = delete;
  YamlEmitter& operator=(const YamlEmitter&) = delete;

  void scalar(const ScalarRef& s);
  void begin_map(size_t size);  // every begin_* needs its end_*, also when size is 0
  void end_map();
  void begin_array(size_t size);
  void end_array();
  // Ends the document; returns everything written since the last finish().
  std::string finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace hintkit::yaml
