// The loader: go-yaml's scanner and parser (go_scan.cpp) hand their events to a small
// builder that makes our `Node` tree directly. Limits are checked before and during the parse;
// where go-yaml stops, its error is reported at its place.

#include <algorithm>
#include <cerrno>
#include <climits>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <unordered_map>

#include "gocompat/gocompat.h"
#include "yaml/internal.h"
#include "yaml/yaml.h"

namespace hintkit::yaml {
namespace {

using internal::AnchorId;
using internal::Mark;
using internal::position_at;

constexpr std::string_view kLongTagPrefix = "tag:yaml.org,2002:";

constexpr std::string_view kBom = "\xEF\xBB\xBF";  // U+FEFF in UTF-8

bool starts_with_bom(std::string_view s) { return s.substr(0, kBom.size()) == kBom; }

// The text the reader reads. A YAML reader drops a byte order mark that starts its input (one
// only: a second is text); ytt's go-yaml never sees one there, its parser having put a `---`
// line first (LoadOptions::ytt_parser). Below this, a byte order mark is a character.
std::string_view without_dropped_bom(std::string_view source, const LoadOptions& options) {
  if (!options.ytt_parser && starts_with_bom(source)) source.remove_prefix(kBom.size());
  return source;
}

// A line (as go-yaml counts them: a CR without LF ends one) that ytt would look up past the end
// of `source`'s LF-separated lines, 0 if none: the last line with content, in the documents
// go-yaml decodes (those before the document of the first syntax error, reported from `first`).
int line_ytt_cannot_show(std::string_view source, const diag::Diagnostics& diags, size_t first) {
  // ytt splits "---\n" + text (or a text starting with `---`) at LFs: go-yaml's line L
  // (1-based in the text) has text if L <= LF count + 1.
  const int last_known = static_cast<int>(std::count(source.begin(), source.end(), '\n')) + 1;
  int limit = std::numeric_limits<int>::max();
  for (size_t i = first; i < diags.items().size(); ++i) {
    const diag::Diagnostic& d = diags.items()[i];
    if (d.severity == diag::Severity::kError && d.code != "HK002") {
      limit = d.span.begin.line;  // lines from its document on are not looked up (conservative)
      break;
    }
  }
  int line = 1, last_content = 0;
  bool content = false;
  for (size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '\n' || (c == '\r' && (i + 1 == source.size() || source[i + 1] != '\n'))) {
      if (content) last_content = line;
      content = false;
      ++line;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      content = true;
    }
  }
  if (content) last_content = line;
  if (last_content > last_known && last_known + 1 < limit) return last_known + 1;
  return 0;
}

// Thrown from inside the event handler to stop the parser: a limit is hit (HK003).
struct StopLoading {
  diag::Position at;
  std::string message;
};

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string key_label(const Node& key) {
  if (key.is_scalar()) return key.text;
  return std::string(to_string(key.kind));
}

// Two scalar keys are the same key when they have the same kind and value.
bool same_key(const Node& a, const Node& b) {
  if (a.kind != b.kind || !a.is_scalar()) return false;
  switch (a.kind) {
    case Kind::kString:
      return a.text == b.text;
    case Kind::kInt:
      return a.int_value == b.int_value && a.is_unsigned == b.is_unsigned;
    case Kind::kBool:
      return a.bool_value == b.bool_value;
    case Kind::kFloat:
      return a.float_value == b.float_value;
    default:
      return true;  // null
  }
}

uint64_t key_hash(const Node& k) {
  uint64_t h = static_cast<uint64_t>(k.kind) * 0x9E3779B97F4A7C15ull;
  switch (k.kind) {
    case Kind::kString:
      return h ^ std::hash<std::string_view>{}(k.text);
    case Kind::kInt:
      return h ^ (static_cast<uint64_t>(k.int_value) * 0xC2B2AE3D27D4EB4Full);
    case Kind::kBool:
      return h ^ static_cast<uint64_t>(k.bool_value);
    case Kind::kFloat:
      return h ^ std::hash<double>{}(k.float_value);
    default:
      return h;
  }
}

// An allocator whose `construct()` without arguments default-initializes: a map item or node
// built in place (Builder::slot) gets its members' own initial values once, without the
// zeroing of the whole object that value-initialization (`emplace_back()`) does first.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}  // NOLINT: as std::allocator
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using FrameItems = std::vector<MapItem, DefaultInitAllocator<MapItem>>;
using FrameElements = std::vector<Node, DefaultInitAllocator<Node>>;

// Open-addressing index from key to item position, for maps too big to scan linearly.
// Stores positions only; keys are compared in the items themselves.
class KeyIndex {
 public:
  // Position of an item whose key equals `key`, or SIZE_MAX.
  size_t find(const FrameItems& items, const Node& key) const {
    if (slots_.empty()) return SIZE_MAX;
    uint64_t h = key_hash(key);
    uint64_t tag = h >> 32;
    size_t mask = slots_.size() - 1;
    for (size_t i = tag & mask;; i = (i + 1) & mask) {
      uint64_t s = slots_[i];
      if (s == 0) return SIZE_MAX;
      size_t pos = static_cast<size_t>(s & 0xFFFFFFFFu) - 1;
      if ((s >> 32) == tag && same_key(items[pos].key, key)) return pos;
    }
  }
  void add(const FrameItems& items, size_t pos) {
    if ((count_ + 1) * 2 > slots_.size()) grow();
    place(key_hash(items[pos].key), pos);
    ++count_;
  }
  bool active() const { return !slots_.empty(); }
  void clear() {
    slots_.clear();
    count_ = 0;
  }
  void build(const FrameItems& items, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      if (items[i].key.is_scalar()) add(items, i);
    }
  }

 private:
  // A slot holds the hash's high half (the probe start, and a check that skips most key
  // comparisons) and the item's position + 1; 0 is an empty slot.
  void place(uint64_t h, size_t pos) {
    size_t mask = slots_.size() - 1;
    size_t i = (h >> 32) & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = ((h >> 32) << 32) | static_cast<uint64_t>(pos + 1);
  }
  void grow() {
    std::vector<uint64_t> old = std::move(slots_);
    slots_.assign(old.empty() ? 32 : old.size() * 2, 0);
    size_t mask = slots_.size() - 1;
    for (uint64_t s : old) {
      if (s == 0) continue;
      size_t i = static_cast<size_t>(s >> 32) & mask;
      while (slots_[i] != 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }
  std::vector<uint64_t> slots_;
  size_t count_ = 0;
};

// Places in the source the builder's spans are made from: a mark's position and the position
// some bytes on, read off the text and the line starts the reader notes.
class SourcePlaces {
 public:
  SourcePlaces(std::string_view source, std::string_view file, const internal::SourceMap& map)
      : src_(source), file_name_(file), map_(map) {}

 protected:
  size_t offset(const Mark& m) const { return std::min(m.pos, src_.size()); }
  diag::Position pos(const Mark& m) const { return {m.line + 1, m.column + 1}; }
  diag::Span span_at(const Mark& m) const {
    diag::Span s;
    s.file = file_name_;
    s.begin = pos(m);
    s.end = s.begin;
    return s;
  }
  // Position of `to`, given that `from` is at `at` (the reader has read past `to`).
  diag::Position advance(diag::Position at, size_t from, size_t to) const {
    if (to <= from) return at;
    const size_t next = static_cast<size_t>(at.line);  // the next line's start, if read
    if (next >= map_.line_starts.size() || to < map_.line_starts[next]) {
      return {at.line, at.column + static_cast<int>(to - from)};
    }
    return position_at(map_.line_starts, to);
  }
  // Offset of a position, clamped to the input: spans made here are best effort and must
  // never send a read past the end of the source.
  size_t offset_of(diag::Position p) const {
    if (p.line < 1) return 0;
    if (static_cast<size_t>(p.line) > map_.line_starts.size()) return src_.size();
    size_t off = map_.line_starts[static_cast<size_t>(p.line - 1)] +
                 static_cast<size_t>(std::max(p.column, 1) - 1);
    return std::min(off, src_.size());
  }

  std::string_view src_;
  diag::FileName file_name_;  // interned once; every span copies the handle
  const internal::SourceMap& map_;
};

// Problems found while building values (go-yaml meets them after parsing the document).
bool is_value_error(const diag::Diagnostic& d) {
  ErrorKind k = error_kind(d);
  return k == ErrorKind::kTagMismatch || k == ErrorKind::kBadMerge || k == ErrorKind::kBadBinary ||
         k == ErrorKind::kAnchorContainsItself;
}

bool before_position(const diag::Position& a, const diag::Position& b) {
  return a.line < b.line || (a.line == b.line && a.column < b.column);
}

class Builder : public internal::EventHandler, private SourcePlaces {
 public:
  Builder(std::string_view source, std::string_view file, diag::Diagnostics& diags,
          const LoadOptions& options, const internal::SourceMap& map)
      : SourcePlaces(source, file, map), diags_(diags), options_(options) {}

  std::vector<Document>& documents() { return docs_; }

  // True when the tree's nodes are in source order (see attach_comments).
  bool in_source_order() const { return in_source_order_; }
  size_t node_count() const { return node_count_; }

  void OnDocumentStart(const Mark& mark, bool explicit_start) override {
    doc_ = Document{};
    doc_.span = span_at(mark);
    doc_.explicit_start = explicit_start;
    have_root_ = false;
    root_empty_ = false;
  }

  void OnDocumentEnd() override {
    if (have_root_) {
      doc_.root = std::move(root_);
      doc_.empty = root_empty_;
      doc_.span.end = doc_.root.span.end.line > 0 ? doc_.root.span.end : doc_.span.begin;
    }
    docs_.push_back(std::move(doc_));
    doc_ = Document{};
  }

  void OnNull(const Mark& mark, AnchorId anchor) override {
    // A null word (`~`, `null`, `Null`, `NULL`) is its token; with properties before it, or an
    // empty node, it is placed as an empty node is.
    std::string_view literal;
    if (mark.end != std::string_view::npos) literal = src_.substr(mark.pos, mark.end - mark.pos);
    if (literal != "~" && literal != "null" && literal != "Null" && literal != "NULL") literal = {};
    diag::Span span;
    if (!literal.empty()) {
      span = span_at(mark);
      span.end = advance(span.begin, mark.pos, mark.end);
    } else {
      span = empty_node_span(mark);  // before slot(): it reads the pending key
      if (top_ == 0) root_empty_candidate_ = true;
    }
    Node& n = slot();
    n.text = literal;
    n.span = span;
    note_dash_line(n, mark);
    placed(n, 1, 0, anchor, n.text.size());
  }

  void OnAlias(const Mark& mark, AnchorId anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {  // the parser has looked it up: its node is still open
      alias_inside_its_anchor(mark, anchor);
      return;
    }
    const Anchored& a = it->second;
    expansions_ += a.size;
    if (expansions_ > kMaxAliasExpansions) {
      throw StopLoading{pos(mark),
                        "alias expansion limit exceeded: aliases would expand to more than " +
                            std::to_string(kMaxAliasExpansions) + " nodes"};
    }
    expansion_bytes_ += a.bytes;
    if (expansion_bytes_ > options_.max_alias_bytes) {
      throw StopLoading{pos(mark), "alias expansion limit exceeded: aliases would copy more than " +
                                       std::to_string(options_.max_alias_bytes) + " bytes of text"};
    }
    if (static_cast<int>(top_) + a.depth > options_.max_depth) {
      throw StopLoading{pos(mark), "nesting deeper than " + std::to_string(options_.max_depth) +
                                       " levels (through an alias)"};
    }
    in_source_order_ = false;  // the copy's inner spans point back at the anchor
    Node& copy = slot();
    copy = a.node;
    copy.span.begin = pos(mark);
    copy.span.end = copy.span.begin;
    note_dash_line(copy, mark);
    placed_alias_kind_ = a.node.kind;
    placed(copy, a.size, a.depth, 0, a.bytes);
    placed_alias_kind_.reset();
  }

  void OnScalarView(const Mark& mark, const std::string& tag, AnchorId anchor,
                    std::string_view value, Style style) override {
    const bool plain_tag = tag.size() == 1 && tag[0] == '?';
    const bool quoted_tag = tag.size() == 1 && tag[0] == '!';
    // Built where it will live (no Node moves): nodes are big and this runs once per scalar.
    Node& n = slot();
    if (plain_tag && style == Style::kPlain) {
      internal::resolve_plain_scalar_into(value, n);
    } else if (plain_tag || quoted_tag) {
      n.kind = Kind::kString;
      n.text = value;
    } else {
      n = tagged_scalar(mark, tag, value);
    }
    n.style = style;
    n.span = span_at(mark);
    // Where the scanner's end mark puts it; an empty node (properties alone) ends where it starts.
    if (mark.end != std::string_view::npos) n.span.end = advance(n.span.begin, mark.pos, mark.end);
    note_dash_line(n, mark);
    placed(n, 1, 0, anchor, n.text.size());
  }

  void OnSequenceStart(const Mark& mark, const std::string& tag, AnchorId anchor,
                       bool flow) override {
    open(mark, Kind::kArray, tag, anchor, flow);
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const Mark& mark, const std::string& tag, AnchorId anchor, bool flow) override {
    open(mark, Kind::kMap, tag, anchor, flow);
  }
  void OnMapEnd() override { close(); }

 private:
  // One open collection. Frames are reused level by level, so `items` / `elements` keep
  // their capacity: children are built there in place and moved once, at the end, into an
  // exactly sized vector (growing the node's own vector by doubling and then shrinking it
  // moved every child about twice).
  struct Frame {
    Node node;  // kind, style, span, tag; its items/elements are filled at close
    FrameItems items;
    FrameElements elements;
    AnchorId anchor = 0;
    size_t size = 1;       // nodes in this subtree so far
    size_t bytes = 0;      // scalar text in this subtree so far
    int depth = 1;         // levels in this subtree so far
    bool has_key = false;  // items.back() holds a key whose value has not come yet
    size_t value_diags = 0;  // and the diagnostics before its value began
    // Per item: came in through `<<`. Empty until a merge happens (most maps have none);
    // items past its end were not merged.
    std::vector<bool> merged;
    KeyIndex index;  // once the map is big
  };
  struct Anchored {
    Node node;
    size_t size = 1;
    int depth = 0;
    size_t bytes = 0;
  };
  static constexpr size_t kIndexAfter = 8;  // maps with more items use a hash index

  Frame& top() { return stack_[top_ - 1]; }

  // An empty node's mark points at the next token; place it where it would have been.
  diag::Span empty_node_span(const Mark& mark) {
    diag::Span s = span_at(mark);
    // At the end of the input the next token is the end of the input (no line of its own).
    if (mark.pos >= src_.size()) {
      s.begin = s.end = position_at(map_.line_starts, src_.size());
    }
    if (top_ > 0) {
      Frame& f = top();
      if (f.node.kind == Kind::kMap && f.has_key && f.items.back().key.span.end.line > 0) {
        s.begin = f.items.back().key.span.end;
        size_t at = offset_of(s.begin);
        size_t p = at;
        while (p < src_.size() && (is_blank(src_[p]) || src_[p] == '"' || src_[p] == '\'')) ++p;
        if (p < src_.size() && src_[p] == ':') s.begin = advance(s.begin, at, p + 1);
      } else if (mark.dash_line >= 0) {  // just after its `-`
        s.begin = {mark.dash_line + 1, mark.dash_column + 2};
      } else if (f.node.kind == Kind::kMap && !f.has_key) {
        // `? ` with no key, or `: v`: keep the mark.
      }
    }
    s.end = s.begin;
    return s;
  }

  Node tagged_scalar(const Mark& mark, const std::string& tag, std::string_view value) {
    std::string short_tag = tag;
    if (tag.compare(0, kLongTagPrefix.size(), kLongTagPrefix) == 0) {
      short_tag = "!!" + tag.substr(kLongTagPrefix.size());
    }
    Node n;
    n.kind = Kind::kString;
    n.text = value;
    // go-yaml resolves text under the tags it knows how to resolve (!!str takes any text) and
    // fails when the text reads as something else; other tags (!!binary aside) leave the text
    // a string. !!timestamp is the one tag under which timestamps are tried: a timestamp stays
    // the string as written (go-yaml keeps timestamps read into interface{} as text).
    const bool resolvable = short_tag == "!!int" || short_tag == "!!float" ||
                            short_tag == "!!bool" || short_tag == "!!null" ||
                            short_tag == "!!timestamp";
    if (resolvable && !(short_tag == "!!timestamp" && internal::is_timestamp(value))) {
      Node r = resolve_plain_scalar(value);
      // An integer beyond int64 (Go's uint64) is not turned into a float, only int and int64.
      bool ok = (short_tag == "!!int" && r.kind == Kind::kInt) ||
                (short_tag == "!!float" &&
                 (r.kind == Kind::kFloat || (r.kind == Kind::kInt && !r.is_unsigned))) ||
                (short_tag == "!!bool" && r.kind == Kind::kBool) ||
                (short_tag == "!!null" && r.kind == Kind::kNull);
      if (ok) {
        n = std::move(r);
        if (short_tag == "!!float" && n.kind == Kind::kInt) {
          n.kind = Kind::kFloat;
          n.float_value = static_cast<double>(n.int_value);
          n.int_value = 0;
        }
      } else {
        std::string reads_as(to_string(r.kind));
        const std::string what = options_.values_in_messages ? "\"" + std::string(value) + "\""
                                                             : std::string("the value");
        diag::Diagnostic& d = diags_.error(
            "HK001", span_at(mark),
            "cannot read " + what + " as " + short_tag + " (it reads as " + reads_as + ")");
        d.kind = static_cast<uint16_t>(ErrorKind::kTagMismatch);
        d.kind_detail = (r.kind == Kind::kString ? std::string("!!str") : "!!" + reads_as) + " " +
                        short_tag + " " + std::string(value);
      }
    }
    if (short_tag == "!!binary") {
      // go-yaml decodes the text with Go's base64.StdEncoding.
      std::string bytes;
      size_t bad = 0;
      if (gocompat::Base64Encoding{}.decode(value, bytes, bad)) {
        n.text = std::move(bytes);
      } else {
        diags_.error("HK001", span_at(mark), "!!binary value contains invalid base64 data").kind =
            static_cast<uint16_t>(ErrorKind::kBadBinary);
      }
    }
    n.tag = short_tag;
    return n;
  }

  void open(const Mark& mark, Kind kind, const std::string& tag, AnchorId anchor, bool flow) {
    if (static_cast<int>(top_) + 1 > options_.max_depth) {
      throw StopLoading{pos(mark),
                        "nesting deeper than " + std::to_string(options_.max_depth) + " levels"};
    }
    if (top_ == stack_.size()) stack_.emplace_back();
    Frame& f = stack_[top_++];
    // A fresh node, default-initialized in place (`Node{}` would zero it first, then move it).
    std::destroy_at(&f.node);
    ::new (static_cast<void*>(&f.node)) Node;
    f.node.kind = kind;
    f.node.style = flow ? Style::kFlow : Style::kBlock;
    f.node.span = span_at(mark);
    note_dash_line(f.node, mark);
    if (tag.size() > 1 || (tag.size() == 1 && tag[0] != '?' && tag[0] != '!')) {
      f.node.tag = tag.compare(0, kLongTagPrefix.size(), kLongTagPrefix) == 0
                       ? "!!" + tag.substr(kLongTagPrefix.size())
                       : tag;
    }
    f.anchor = anchor;
    f.size = 1;
    f.bytes = 0;
    f.depth = 1;
    f.has_key = false;
    f.merged.clear();
    f.index.clear();
  }

  // An alias inside the node its anchor names: go-yaml's parser takes it, and its decoder,
  // copying the alias's node, meets the alias again ("anchor 'a' value contains itself", a
  // value error as tag mismatches are). A null stands in for it here.
  void alias_inside_its_anchor(const Mark& mark, AnchorId anchor) {
    std::string name;
    for (size_t i = offset(mark) + 1; i < src_.size(); ++i) {
      const char c = src_[i];
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') break;
      name += c;
    }
    diag::Diagnostic& d = diags_.error(
        "HK001", span_at(mark), "alias *" + name + " stands inside the node its anchor names");
    d.kind = static_cast<uint16_t>(ErrorKind::kAnchorContainsItself);
    d.kind_detail = name;
    Node& n = slot();
    n = Node{};
    n.span = span_at(mark);
    note_dash_line(n, mark);
    for (size_t i = 0; i < top_; ++i) {  // the open node it names
      if (stack_[i].anchor == anchor) placed_alias_kind_ = stack_[i].node.kind;
    }
    placed(n, 1, 0, 0, 0);
    placed_alias_kind_.reset();
  }

  void close() {
    Frame& f = top();
    if (f.has_key) {  // a key with no value: dropped, as it always was
      f.items.pop_back();
      f.has_key = false;
    }
    --top_;  // `f` stays valid: frames are never destroyed while building
    Node& n = slot();
    n = std::move(f.node);
    // Exactly sized: the tree lives as long as its file is in use.
    n.items.assign(std::make_move_iterator(f.items.begin()),
                   std::make_move_iterator(f.items.end()));
    n.elements.assign(std::make_move_iterator(f.elements.begin()),
                      std::make_move_iterator(f.elements.end()));
    f.items.clear();
    f.elements.clear();
    if (n.kind == Kind::kMap && !n.items.empty()) {
      n.span.end = n.items.back().span.end;
    } else if (n.kind == Kind::kArray && !n.elements.empty()) {
      n.span.end = n.elements.back().span.end;
    } else if (n.style == Style::kFlow) {
      n.span.end = {n.span.begin.line, n.span.begin.column + 2};
    }
    placed(n, f.size, f.depth, f.anchor, f.bytes);
  }

  // Where the next node goes: the document root, a new array element, a new item's key, or
  // the value of the item whose key came last. Fill it, then call `placed`.
  Node& slot() {
    if (top_ == 0) {
      root_ = Node{};
      return root_;
    }
    Frame& f = top();
    if (f.node.kind == Kind::kArray) return f.elements.emplace_back();
    if (!f.has_key) return f.items.emplace_back().key;
    return f.items.back().value;
  }

  // A sequence element that starts below its `-` (or the `[` or `,` before it): remember that
  // line (see Node::item_line). Other nodes keep theirs (an alias's copy, its anchor's).
  static void note_dash_line(Node& n, const Mark& mark) {
    const int entry = mark.dash_line >= 0 ? mark.dash_line : mark.entry_line;
    if (entry >= 0) n.item_line = entry + 1 < n.span.begin.line ? entry + 1 : 0;
  }

  // Bookkeeping for the node just built in `slot()`.
  // `size`: nodes in the subtree; `bytes`: its scalar text.
  void placed(const Node& n, size_t size, int depth, AnchorId anchor, size_t bytes) {
    ++node_count_;
    if (anchor != 0) anchors_[anchor] = Anchored{n, size, depth, bytes};
    if (top_ == 0) {
      have_root_ = true;
      root_empty_ = root_empty_candidate_;
      root_empty_candidate_ = false;
      return;
    }
    root_empty_candidate_ = false;
    Frame& f = top();
    f.size += size;
    f.bytes += bytes;
    f.depth = std::max(f.depth, depth + 1);
    if (f.node.kind == Kind::kArray) {
      return;
    }
    if (!f.has_key) {
      f.has_key = true;
      f.value_diags = diags_.size();
      return;
    }
    f.has_key = false;
    MapItem& last = f.items.back();
    last.span = last.key.span;
    last.span.end = last.value.span.end.line > 0 ? last.value.span.end : last.key.span.end;
    const Node& key = last.key;
    // go-yaml's merge key: a plain `<<`, or any `<<` tagged `!!merge`.
    if (key.kind == Kind::kString && std::string_view(key.text) == "<<" &&
        ((key.style == Style::kPlain && key.tag.empty()) || key.tag == "!!merge")) {
      MapItem item = std::move(last);
      f.items.pop_back();
      merge(f, std::move(item));
      return;
    }
    finish_pair(f);
  }

  // A new item is complete at `f.items.back()`: keep it, or, for a key seen before, move its
  // value into the first item's place.
  void finish_pair(Frame& f) {
    FrameItems& items = f.items;
    MapItem& item = items.back();
    size_t found = find_key(f, item.key, items.size() - 1);
    if (options_.keep_duplicate_keys) {  // ytt templates judge duplicates after evaluation
      if (found != SIZE_MAX) {
        diags_.warning("HK002", item.key.span,
                       "duplicate key \"" + key_label(item.key) + "\" in map (kept)");
      }
      added(f);
      return;
    }
    if (found != SIZE_MAX) {
      MapItem& first = items[found];
      if (!was_merged(f, found)) {
        diag::Diagnostic& d = diags_.error("HK002", item.key.span,
                                           "duplicate key \"" + key_label(item.key) + "\" in map");
        d.related.push_back({first.key.span, "first defined here"});
      }
      in_source_order_ = false;  // a later value now sits under an earlier key
      first.value = std::move(item.value);
      first.span.end = item.span.end;
      set_merged(f, found, false);
      items.pop_back();
      return;
    }
    added(f);
  }

  // Among the first `count` items.
  size_t find_key(const Frame& f, const Node& key, size_t count) const {
    if (!key.is_scalar()) return SIZE_MAX;
    const FrameItems& items = f.items;
    if (f.index.active()) return f.index.find(items, key);
    for (size_t i = 0; i < count; ++i) {
      if (same_key(items[i].key, key)) return i;
    }
    return SIZE_MAX;
  }

  static bool was_merged(const Frame& f, size_t i) { return i < f.merged.size() && f.merged[i]; }
  static void set_merged(Frame& f, size_t i, bool v) {
    if (i >= f.merged.size()) {
      if (!v) return;
      f.merged.resize(f.items.size(), false);
    }
    f.merged[i] = v;
  }

  // Bookkeeping after an item was appended.
  void added(Frame& f) {
    FrameItems& items = f.items;
    if (f.index.active()) {
      if (items.back().key.is_scalar()) f.index.add(items, items.size() - 1);
    } else if (items.size() > kIndexAfter) {
      f.index.build(items, items.size());
    }
  }

  // go-yaml's decoder checks a merge value's shape before it decodes it, and a list's elements
  // from the last to the first: a scalar (or any element that is not a map) fails without being
  // decoded, an element after it is decoded first. ytt's fork takes no list of maps: it decodes
  // the last element and fails.
  void merge(Frame& f, MapItem&& item) {
    in_source_order_ = false;  // merged items keep the spans of where they were written
    Node& v = item.value;
    // An alias is judged by its node's kind: only a map merges (its items; none when the alias
    // stands inside that map, which decoding the alias reports).
    if (v.kind == Kind::kMap || placed_alias_kind_ == Kind::kMap) {
      for (MapItem& m : v.items) merge_item(f, std::move(m));
      return;
    }
    if (placed_alias_kind_) {
      keep_decoded_value_errors(v, v.elements.size(), f.value_diags);
      bad_merge(
          v, "merge key \"<<\" takes an alias of a map (not of a list of maps), this one names " +
                 std::string(to_string(*placed_alias_kind_)));
      return;
    }
    if (v.kind == Kind::kArray && options_.ytt_merge_keys && v.elements.empty()) return;
    const std::vector<Node>& elements = v.elements;
    size_t decoded_from = elements.size();  // elements [decoded_from, size) decoded before failing
    if (!options_.ytt_merge_keys) {
      while (decoded_from > 0 && elements[decoded_from - 1].kind == Kind::kMap) --decoded_from;
    } else if (!elements.empty() && elements.back().kind == Kind::kMap) {
      decoded_from = elements.size() - 1;
    }
    keep_decoded_value_errors(v, decoded_from, f.value_diags);
    if (v.kind == Kind::kArray && !options_.ytt_merge_keys && decoded_from == 0) {
      // Later inserts win, so the first map listed goes last: earlier maps take precedence.
      for (auto it = v.elements.rbegin(); it != v.elements.rend(); ++it) {
        for (MapItem& m : it->items) merge_item(f, std::move(m));
      }
      return;
    }
    bad_merge(v, "merge key \"<<\" needs a map or a list of maps, found " +
                     std::string(to_string(v.kind)));
  }

  void bad_merge(const Node& v, std::string message) {
    diags_.error("HK001", v.span, std::move(message)).kind =
        static_cast<uint16_t>(ErrorKind::kBadMerge);
  }

  // Of the value errors found while building merge value `v` (diagnostics from `from` on), the
  // ones go-yaml's decoder meets: those of list elements [decoded_from, size), the last element's
  // first; none of a scalar's.
  void keep_decoded_value_errors(const Node& v, size_t decoded_from, size_t from) {
    auto& items = diags_.items();
    if (from >= items.size()) return;
    std::vector<diag::Diagnostic> others;
    std::vector<std::vector<diag::Diagnostic>> by_element(v.elements.size());
    for (size_t i = from; i < items.size(); ++i) {
      if (!is_value_error(items[i])) {
        others.push_back(std::move(items[i]));
        continue;
      }
      // The element whose text holds it: the last one starting at or before it.
      auto after = std::upper_bound(
          v.elements.begin(), v.elements.end(), items[i].span.begin,
          [](const diag::Position& p, const Node& e) { return before_position(p, e.span.begin); });
      const size_t element = after == v.elements.begin() ? 0 : (after - v.elements.begin()) - 1;
      if (element < by_element.size() && element >= decoded_from) {
        by_element[element].push_back(std::move(items[i]));
      }
    }
    items.resize(from);
    for (diag::Diagnostic& d : others) items.push_back(std::move(d));
    for (size_t e = by_element.size(); e > decoded_from; --e) {
      for (diag::Diagnostic& d : by_element[e - 1]) items.push_back(std::move(d));
    }
  }

  // An item a merge key brings in. It replaces the value of an item with its key, in that
  // item's place; a key written later in the map replaces it in turn, without a duplicate-key
  // error (was_merged).
  void merge_item(Frame& f, MapItem&& item) {
    FrameItems& items = f.items;
    const size_t found = find_key(f, item.key, items.size());
    if (found != SIZE_MAX) {
      items[found].value = std::move(item.value);
      items[found].span.end = item.span.end;
      set_merged(f, found, true);
      return;
    }
    items.push_back(std::move(item));
    set_merged(f, items.size() - 1, true);
    added(f);
  }

  diag::Diagnostics& diags_;
  const LoadOptions& options_;
  std::vector<Document> docs_;
  Document doc_;
  Node root_;
  bool have_root_ = false;
  bool root_empty_ = false;
  bool root_empty_candidate_ = false;
  std::vector<Frame> stack_;  // frames [0, top_) are open; the rest wait for reuse
  size_t top_ = 0;
  bool in_source_order_ = true;  // no alias, merge or duplicate key has moved nodes around
  size_t node_count_ = 0;        // nodes placed, aliases counted once
  std::unordered_map<AnchorId, Anchored> anchors_;
  size_t expansions_ = 0;
  size_t expansion_bytes_ = 0;  // scalar text copied by aliases
  // While an alias's node is placed: the kind of the node it names (a merge judges that).
  std::optional<Kind> placed_alias_kind_;
};

// ---- Annotations and comments ---------------------------------------------------------

struct Owner {
  int line;
  SparseVector<Annotation>* annotations;
  SparseVector<Comment>* comments;
};

struct OwnerCollector {
  std::vector<Owner> owners;
  // With the tree in source order, owners come out sorted by line, and once one lies past
  // every comment the rest cannot own any: the walk stops there (`done`).
  int stop_after_line = INT_MAX;
  bool sorted = true;
  bool done = false;

  void add(int line, SparseVector<Annotation>* annotations, SparseVector<Comment>* comments) {
    if (!owners.empty() && line < owners.back().line) sorted = false;
    owners.push_back({line, annotations, comments});
    if (line > stop_after_line && sorted) done = true;
  }

  void walk(Node& n) {
    if (n.kind == Kind::kMap) {
      for (MapItem& item : n.items) {
        add(item.key.span.begin.line, &item.annotations, &item.comments);
        // A key's own nodes own nothing: ytt holds a key as go-yaml's value, not as nodes.
        if (!item.value.is_scalar()) walk(item.value);
        if (done) return;
      }
    } else if (n.kind == Kind::kArray) {
      for (Node& e : n.elements) {
        // A sequence's element is owned from its `-` (`[`, `,`) line (see Node::item_line).
        add(e.item_line > 0 ? e.item_line : e.span.begin.line, &e.annotations, &e.comments);
        if (!e.is_scalar()) walk(e);
        if (done) return;
      }
    }
  }
};

Annotation make_annotation(const internal::ScannedComment& c, const diag::FileName& file) {
  Annotation a;
  std::string_view t = c.text;
  auto trim = [](std::string_view v) {
    size_t b = v.find_first_not_of(" \t");
    if (b == std::string_view::npos) return std::string_view{};
    size_t e = v.find_last_not_of(" \t");
    return v.substr(b, e - b + 1);
  };
  bool named = !t.empty() && ((t[0] >= 'a' && t[0] <= 'z') || (t[0] >= 'A' && t[0] <= 'Z'));
  if (named) {
    size_t sp = t.find_first_of(" \t");
    std::string_view name = t.substr(0, sp);
    if (name.find('(') == std::string_view::npos) {
      a.name = std::string(name);
      a.args = std::string(sp == std::string_view::npos ? std::string_view{} : trim(t.substr(sp)));
    } else {
      named = false;
    }
  }
  if (!named) a.args = std::string(trim(t));
  a.span.file = file;
  a.span.begin = {c.line, c.column};
  a.span.end = {c.line, c.end_column};
  return a;
}

// `in_source_order`: the builder saw no alias, merge or duplicate key, so every node sits
// where it was written and a walk of the tree meets owners in line order.
void attach_comments(std::vector<Document>& docs, const internal::SourceMap& scan,
                     const diag::FileName& file, bool in_source_order, size_t node_count) {
  if (scan.comments.empty()) return;
  OwnerCollector collector;
  if (in_source_order) {
    collector.stop_after_line = scan.comments.back().line;  // comments are in line order
  } else {
    collector.owners.reserve(node_count);
  }
  for (Document& d : docs) {
    // Only a document that starts with `---` (or directives) has a line of its own (as in
    // ytt).
    if (d.explicit_start) collector.add(d.span.begin.line, &d.annotations, &d.comments);
    if (collector.done) break;
    collector.walk(d.root);
    if (collector.done) break;
  }
  std::vector<Owner>& owners = collector.owners;
  if (!std::is_sorted(owners.begin(), owners.end(),
                      [](const Owner& a, const Owner& b) { return a.line < b.line; })) {
    std::stable_sort(owners.begin(), owners.end(),
                     [](const Owner& a, const Owner& b) { return a.line < b.line; });
  }
  Document trailing;
  bool have_trailing = false;
  const size_t kept = std::min(scan.comments.size(), scan.comments_kept);
  for (const internal::ScannedComment& c : std::span(scan.comments).first(kept)) {
    auto it = std::lower_bound(owners.begin(), owners.end(), c.line,
                               [](const Owner& o, int line) { return o.line < line; });
    SparseVector<Annotation>* annotations;
    SparseVector<Comment>* comments;
    if (it == owners.end()) {
      if (!have_trailing) {
        have_trailing = true;
        trailing.span.file = file;
        trailing.span.begin = {c.line, c.column};
        trailing.span.end = trailing.span.begin;
      }
      annotations = &trailing.annotations;
      comments = &trailing.comments;
    } else {
      if (it->line == c.line) {
        // Same line: the innermost (last) node on it owns a trailing comment.
        auto last = std::upper_bound(it, owners.end(), c.line,
                                     [](int line, const Owner& o) { return line < o.line; });
        it = last - 1;
      }
      annotations = it->annotations;
      comments = it->comments;
    }
    if (c.kind == internal::CommentKind::kAnnotation) {
      annotations->push_back(make_annotation(c, file));
    } else {
      Comment k;
      k.text = c.text;
      k.span.file = file;
      k.span.begin = {c.line, c.column};
      k.span.end = {c.line, c.end_column};
      comments->push_back(std::move(k));
    }
  }
  if (have_trailing) docs.push_back(std::move(trailing));
}

// ytt's strict YAML is checked by go-yaml's decoder, which builds each document's values once
// its parser has read the document and stops at the first problem: a strict problem is a value
// error like a tag mismatch or a bad merge. It comes first when it stands before the first error
// of the text (from `before` in `diags`), among `decoded`: the documents the decoder built
// before the reader stopped (GoScan::decoded_end).
void add_strict_problem(const std::vector<Document>& decoded, size_t before,
                        diag::Diagnostics& diags) {
  const diag::Diagnostic* first = nullptr;
  for (size_t i = before; i < diags.items().size() && first == nullptr; ++i) {
    const diag::Diagnostic& d = diags.items()[i];
    if (d.severity == diag::Severity::kError && d.code != "HK002") first = &d;
  }
  if (first != nullptr && first->code != "HK001") return;  // a limit, or not text: nothing decoded
  std::optional<internal::StrictProblem> problem = internal::strict_problem(decoded);
  if (!problem || (first != nullptr && !before_position(problem->span.begin, first->span.begin))) {
    return;
  }
  diag::Diagnostic d;
  d.severity = diag::Severity::kError;
  d.code = "HK001";
  d.span = problem->span;
  d.message = "strict YAML: " + problem->message;
  d.kind = static_cast<uint16_t>(ErrorKind::kStrictScalar);
  d.kind_detail = std::move(problem->message);
  auto& items = diags.items();
  items.insert(items.begin() + static_cast<std::ptrdiff_t>(before), std::move(d));
}

}  // namespace

std::vector<Document> load(std::string_view source, std::string_view file, diag::Diagnostics& diags,
                           const LoadOptions& options) {
  return internal::load_with(source, file, diags, options, nullptr);
}

namespace internal {

std::string_view syntax_error_text(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kUnterminatedQuote:
      return "unterminated quoted string";
    case ErrorKind::kUnknownEscape:
      return "unknown escape in a double-quoted string";
    case ErrorKind::kBadAnchorOrAlias:
      return "an anchor or alias name is letters, digits, '_' and '-'";
    case ErrorKind::kDocumentMarkerInQuote:
      return "document marker inside a quoted string";
    case ErrorKind::kUnknownToken:
      return "unknown token";
    case ErrorKind::kBadBlockScalarHeader:
      return "unexpected character in block scalar";
    case ErrorKind::kUnexpectedColon:
      return "unexpected ':' (a map value is not allowed here)";
    case ErrorKind::kUnexpectedDash:
      return "unexpected '-' (a list item is not allowed here)";
    case ErrorKind::kUnexpectedKeyIndicator:
      return "unexpected '?' (a map key is not allowed here)";
    case ErrorKind::kMissingColon:
      return "missing ':' after a map key";
    case ErrorKind::kMissingDash:
      return "expected '- ' (a list item) at this indentation";
    case ErrorKind::kMissingKey:
      return "':' with no key before it";
    case ErrorKind::kEndOfListNotFound:
      return "bad indentation of a list item (end of list not found)";
    case ErrorKind::kEndOfMapNotFound:
      return "bad indentation or missing ':' (end of map not found)";
    case ErrorKind::kMissingDocumentMarker:
      return "a new document needs '---' before it";
    case ErrorKind::kUnclosedFlowMap:
      return "unclosed '{' (end of flow map not found)";
    case ErrorKind::kUnclosedFlowList:
      return "unclosed '[' (end of flow list not found)";
    case ErrorKind::kUnexpectedClosingBracket:
      return "unexpected closing bracket";
    case ErrorKind::kUndefinedAlias:
      return "alias refers to an undefined anchor";
    case ErrorKind::kTabInIndentation:
      return "a tab in the indentation of a continued scalar";
    case ErrorKind::kTabInBlockScalarIndentation:
      return "a tab where the block scalar's indentation spaces belong";
    case ErrorKind::kMissingNodeContent:
      return "expected a value here";
    case ErrorKind::kMissingFlowListEntryEnd:
      return "expected ',' or ']' after a flow list entry";
    case ErrorKind::kMissingFlowMapEntryEnd:
      return "expected ',' or '}' after a flow map entry";
    case ErrorKind::kUndefinedTagHandle:
      return "undefined tag handle (no %TAG directive defines it)";
    case ErrorKind::kBadDirective:
      return "a '%' line that is not a well-formed %YAML or %TAG directive";
    case ErrorKind::kDuplicateDirective:
      return "a directive repeated for one document";
    case ErrorKind::kIncompatibleYamlVersion:
      return "a %YAML directive naming a version other than 1.1";
    case ErrorKind::kBadTagUri:
      return "a tag needs a name after its handle";
    case ErrorKind::kZeroIndentationIndicator:
      return "a block scalar's indentation indicator is 1 to 9, not 0";
    case ErrorKind::kBadHexEscape:
      return "an escape \\x, \\u or \\U needs 2, 4 or 8 hex digits";
    case ErrorKind::kBadUnicodeEscape:
      return "an escape names no Unicode character (a surrogate or beyond U+10FFFF)";
    case ErrorKind::kTagNotFollowedBySpace:
      return "a tag must be followed by a space or a line break";
    default:
      return "";
  }
}

namespace {

// load_with's reading, once the text's size is known to be within the limit.
std::vector<Document> read_text(std::string_view source, std::string_view file,
                                diag::Diagnostics& diags, const LoadOptions& options,
                                bool* read_whole) {
  const diag::FileName file_name(file);
  auto whole_file = [&]() {
    diag::Span s;
    s.file = file_name;
    return s;
  };
  source = without_dropped_bom(source, options);
  if (!options.ytt_parser && starts_with_bom(source)) {  // (ytt's parser puts `---` first)
    diag::Span s = whole_file();
    s.begin = s.end = {1, static_cast<int>(kBom.size()) + 1};
    diags
        .error("HK004", s,
               "a second byte order mark (U+FEFF) at the start: go-yaml then skips characters "
               "that depend on how its read buffer was filled; not supported")
        .kind = static_cast<uint16_t>(ErrorKind::kUnsupportedByteOrderMark);
    return {};
  }
  // ytt's parser reads the text after a `---` line it puts before it (see go_yaml_read).
  const bool after_document_start = options.ytt_parser && ytt_puts_document_start(source);
  // go-yaml's first error, where its scanner or parser stopped.
  auto syntax_error = [&](const internal::GoScan& go, diag::Position at) {
    diag::Span s = whole_file();
    s.begin = s.end = at;
    std::string_view words = syntax_error_text(go.kind);
    diag::Diagnostic& d = diags.error(
        "HK001", s, "syntax error: " + std::string(words.empty() ? "not YAML here" : words));
    d.kind = static_cast<uint16_t>(go.kind);
    d.kind_detail = go.message;
  };
  const size_t first_diag = diags.size();
  // Text go-yaml's reader rejects (a character that is not YAML text): it rejects it when its
  // scanner first needs the chunk of input that holds it, and the scanner and parser may stop
  // at an error of the text before that. A line break go-yaml has and ytt's line look-ups do not
  // (NEL, LS, PS): go-yaml's error, if it meets one, is its answer; otherwise ytt's parser's
  // reading is refused (LoadOptions::ytt_parser).
  internal::NotText bad = internal::find_not_text(source);
  if (bad.kind == ErrorKind::kUnsupportedLineBreak && !options.ytt_parser) bad = {};
  std::optional<internal::ReaderStop> reader;
  if (bad.kind != ErrorKind::kNone && bad.kind != ErrorKind::kUnsupportedLineBreak) {
    reader =
        internal::ReaderStop{internal::reader_chunk_start(source, bad.offset, after_document_start),
                             bad.kind, bad.offset};
  }

  // Nesting is limited by the builder, as it opens each collection.
  internal::SourceMap map;
  map.plain_comments = options.keep_comments;
  map.comments_as_written = options.comments_as_written;
  Builder builder(source, file, diags, options, map);
  internal::GoScan go;
  bool whole = false;
  std::optional<StopLoading> limit;
  try {
    const internal::GoYaml version =
        options.ytt_parser ? internal::GoYaml::kYttFork : internal::GoYaml::kV2_4;
    whole = internal::go_yaml_read(source, builder, version, after_document_start, &go, &map,
                                   reader ? &*reader : nullptr);
  } catch (const StopLoading& e) {
    limit = e;
  } catch (const std::bad_alloc&) {
    // an address-space limit (`ulimit -v`), with several files loading at once (lint -j N)
    diag::Span s = whole_file();
    s.begin = s.end = position_at(map.line_starts, source.size());
    diags.error("HK001", s, "cannot load YAML: out of memory (the process may not have more)")
        .kind = static_cast<uint16_t>(ErrorKind::kOther);
    return {};
  }
  if (read_whole != nullptr) *read_whole = whole && bad.kind == ErrorKind::kNone;
  if (limit) {
    diag::Span s = whole_file();
    s.begin = s.end = limit->at;
    diags.error("HK003", s, limit->message);
  } else if (!whole) {
    // go-yaml parses a whole document before building values from it: problems found while
    // building the document it stopped in come after its syntax error, and are not reported.
    const diag::Position decoded = position_at(map.line_starts, go.decoded_end);
    auto& items = diags.items();
    items.erase(std::remove_if(items.begin() + static_cast<std::ptrdiff_t>(first_diag), items.end(),
                               [&](const diag::Diagnostic& d) {
                                 return is_value_error(d) &&
                                        !before_position(d.span.begin, decoded);
                               }),
                items.end());
    if (go.kind != bad.kind) syntax_error(go, position_at(map.line_starts, go.offset));
  }
  if (bad.kind != ErrorKind::kNone && !limit && (whole || go.kind == bad.kind)) {
    diag::Span s = whole_file();
    s.begin = s.end = internal::text_position(source, bad.offset);
    diag::Diagnostic& d = diags.error("HK004", s, std::move(bad.message));
    d.kind = static_cast<uint16_t>(bad.kind);
    d.kind_detail = std::move(bad.go_yaml_text);
  }
  std::vector<Document> docs = std::move(builder.documents());
  if (options.strict) add_strict_problem(docs, first_diag, diags);
  if (bad.kind != ErrorKind::kNone) return {};
  attach_comments(docs, map, file_name, builder.in_source_order(), builder.node_count());
  return docs;
}

}  // namespace

std::vector<Document> load_with(std::string_view source, std::string_view file,
                                diag::Diagnostics& diags, const LoadOptions& options,
                                bool* read_whole) {
  if (read_whole != nullptr) *read_whole = false;
  diag::Span whole_file;
  whole_file.file = file;
  if (source.size() > options.max_bytes) {
    diags.error("HK003", whole_file,
                "file is " + std::to_string(source.size()) + " bytes, over the limit of " +
                    std::to_string(options.max_bytes) + " bytes");
    return {};
  }
  const size_t before = diags.size();
  std::vector<Document> docs = read_text(source, file, diags, options, read_whole);
  // go-yaml's reader ends a line at a CR without LF (and reads the break in a scalar as an LF);
  // ytt looks the text of each node's line up among the text's LF-separated lines, by the line
  // go-yaml counts: past the last of them, it crashes. Its templates (`#@`, `#!`) read code
  // from those lines too, which the engine here does not model.
  if (!options.ytt_parser || !internal::has_lone_cr(source)) return docs;
  const int line = line_ytt_cannot_show(source, diags, before);
  const bool annotated =
      source.find("#@") != std::string::npos || source.find("#!") != std::string::npos;
  if (line == 0 && !annotated) return docs;
  diags.items().resize(before);
  whole_file.begin = whole_file.end =
      line > 0 ? diag::Position{line, 1} : internal::text_position(source, source.find('\r'));
  diags
      .error("HK004", whole_file,
             line > 0 ? "a line break U+000D (a CR without LF) puts this line past the text's "
                        "LF-separated lines, where ytt crashes: not supported"
                      : "a line break U+000D (a CR without LF) in a template: not supported")
      .kind = static_cast<uint16_t>(ErrorKind::kUnsupportedLineBreak);
  return {};
}

}  // namespace internal

}  // namespace hintkit::yaml
