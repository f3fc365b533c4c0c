// ytt's yamlfmt Printer and its writer, over the tree as ytt's parser reads a file (every
// comment kept as written, attached as that parser attaches it).
//
// The printer hands the writer chunks: a line's text, its indentation, whether the next chunk
// may continue the line (a `key:` or `-` whose value follows on it) and whether the chunk may
// continue one; a spacer chunk asks for a blank line before the next text.
#include <string>
#include <string_view>
#include <vector>

#include "ytt/yamlfmt/yamlfmt.h"
#include "ytt/yamltemplate/yamltemplate.h"

namespace hintkit::ytt {

namespace {

struct Chunk {
  std::string content;
  std::string indent;
  bool allows_inlining = false;  // the next chunk may go on this one's line
  bool can_be_inlined = false;   // this chunk may go on the line of the one before
  bool spacer = false;
};

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}

  void add(Chunk chunk) {
    if (!chunk.spacer) write(chunk);
    last_ = std::move(chunk);
  }

 private:
  void write(const Chunk& chunk) {
    if (last_.spacer) out_ += '\n';
    if (last_.allows_inlining) {
      out_ += chunk.can_be_inlined ? " " : "\n" + chunk.indent;
    } else {
      out_ += chunk.indent;
    }
    // The lines after a multi-line chunk's first are indented one level less than the chunk.
    // At the top level ytt takes two characters off an empty indentation and crashes.
    if (chunk.content.find('\n') == std::string::npos) {
      out_ += chunk.content;
    } else {
      if (chunk.indent.size() < 2) {
        throw Unsupported{
            "`fmt` of a multi-line key or document value at the top level (ytt crashes)"};
      }
      const std::string_view outer(chunk.indent.data(), chunk.indent.size() - 2);
      for (char c : chunk.content) {
        out_ += c;
        if (c == '\n') out_ += outer;
      }
    }
    if (!chunk.allows_inlining) out_ += '\n';
  }

  std::string& out_;
  Chunk last_;
};

// A value as ytt's printer sees it: a leaf (a scalar) as go-yaml's Marshal writes it, without
// its last line break; maps and arrays are no leaves.
struct Leaf {
  std::string text;
  bool is_leaf = false;
  bool is_nil = false;
  bool multiline() const { return text.find('\n') != std::string::npos; }
};

Leaf leaf_of(const yaml::Node& n) {
  if (!n.is_scalar()) return {};
  Leaf leaf{emit_yaml(*from_yaml(n)), true, n.is_null()};
  if (!leaf.text.empty() && leaf.text.back() == '\n') leaf.text.pop_back();
  return leaf;
}

// What a node's comments print: the one on the node's line goes after it (`suffix`), the
// others on lines of their own before it (`any_full`: some did).
struct Meta {
  std::string suffix;
  bool any_full = false;
};

class Printer {
 public:
  // `line_offset`: what turns a 1-based line of the file into the 0-based line go-yaml gives in
  // the text ytt's parser reads (0 when ytt put a `---` line before the file, else 1).
  Printer(std::string& out, int line_offset) : writer_(out), line_offset_(line_offset) {}

  // `lines[i]`: the line document i is at, 0 where ytt knows none.
  void documents(const std::vector<const yaml::Document*>& docs, const std::vector<int>& lines) {
    for (size_t i = 0; i < docs.size(); ++i) {
      const yaml::Document& d = *docs[i];
      const Meta meta = print_meta(d.comments, lines[i], "", i == 0);
      if (i != 0 || !meta.suffix.empty()) writer_.add({"---" + meta.suffix, ""});
      if (!d.root.is_null()) value(d.root, "");
      if (meta.any_full) writer_.add(spacer());
    }
  }

 private:
  static Chunk spacer() {
    Chunk c;
    c.spacer = true;
    return c;
  }

  Meta print_meta(const std::vector<yaml::Comment>& comments, int line, const std::string& indent,
                  bool first_child) {
    Meta meta;
    bool spaced = first_child;  // no blank line before a collection's first child
    for (const yaml::Comment& c : comments) {
      if (line > 0 && c.span.begin.line == line) {
        meta.suffix = " #" + c.text;
        continue;
      }
      if (!spaced) {
        spaced = true;
        writer_.add(spacer());
      }
      meta.any_full = true;
      writer_.add({"#" + c.text, indent});
    }
    return meta;
  }

  // A sequence element's line, where ytt places its item (see yaml::Node::item_line).
  static int item_line(const yaml::Node& e) {
    return e.item_line > 0 ? e.item_line : e.span.begin.line;
  }

  // Go's %s of a key go-yaml decoded, as ytt's printer writes `key:`: a string as it is, other
  // scalars as %!s(type=value), nil as %!s(<nil>) (inside a struct fmt writes <nil>); a map
  // key is a yaml.MapSlice, `[{key value line} ...]`, and a list key `[{value line} ...]`
  // (yaml.ArrayItem), with go-yaml's 0-based lines.
  std::string go_text(const yaml::Node& n, bool nested) const {
    if (n.is_scalar()) {
      if (n.is_null()) return nested ? "<nil>" : "%!s(<nil>)";
      return go_key_text(scalar_of(n));
    }
    std::string out = "[";
    const bool map = n.kind == yaml::Kind::kMap;
    const size_t count = map ? n.items.size() : n.elements.size();
    for (size_t i = 0; i < count; ++i) {
      if (i > 0) out += ' ';
      out += '{';
      int line;
      if (map) {
        out += go_text(n.items[i].key, true) + " " + go_text(n.items[i].value, true);
        line = n.items[i].key.span.begin.line;
      } else {
        out += go_text(n.elements[i], true);
        line = item_line(n.elements[i]);
      }
      out += " %!s(int=" + std::to_string(line - line_offset_) + ")}";
    }
    return out + "]";
  }

  // A map item (`label` its key and `:`) or an array item (`label` `-`, `array_item`): its
  // value on the same line, or below it when it is no one-line leaf (a map or array below a
  // key, unlike one below a `-`, starts on a line of its own).
  void item(const std::string& label, const yaml::Node& value, const Meta& meta,
            const std::string& indent, bool array_item) {
    const Leaf leaf = leaf_of(value);
    if (!leaf.is_leaf || leaf.multiline()) {
      Chunk c{label + meta.suffix, indent};
      c.allows_inlining = meta.suffix.empty() && (leaf.is_leaf || array_item);
      c.can_be_inlined = true;
      writer_.add(std::move(c));
      this->value(value, indent + "  ");
    } else {
      const std::string text = !meta.suffix.empty() && leaf.is_nil ? "" : " " + leaf.text;
      Chunk c{label + text + meta.suffix, indent};
      c.can_be_inlined = true;
      writer_.add(std::move(c));
    }
    if (meta.any_full) writer_.add(spacer());
  }

  void value(const yaml::Node& n, const std::string& indent) {
    if (n.kind == yaml::Kind::kMap) {
      for (size_t i = 0; i < n.items.size(); ++i) {
        const yaml::MapItem& it = n.items[i];
        const Meta meta = print_meta(it.comments, it.key.span.begin.line, indent, i == 0);
        item(go_text(it.key, false) + ":", it.value, meta, indent, false);
      }
    } else if (n.kind == yaml::Kind::kArray) {
      for (size_t i = 0; i < n.elements.size(); ++i) {
        const yaml::Node& e = n.elements[i];
        item("-", e, print_meta(e.comments, item_line(e), indent, i == 0), indent, true);
      }
    } else {
      Chunk c{leaf_of(n).text, indent};
      c.can_be_inlined = true;
      writer_.add(std::move(c));
    }
  }

  Writer writer_;
  const int line_offset_;
};

}  // namespace

std::string format_yaml_file(const SourceFile& file, bool strict) {
  yaml::LoadOptions options = ytt_yaml_options(strict);
  options.comments_as_written = true;
  options.keep_duplicate_keys = true;  // ytt's parser keeps every item of a repeated key
  diag::Diagnostics diags;
  const std::string& text = file.readable_text();
  std::vector<yaml::Document> docs = yaml::load(text, file.path, diags, options);
  for (const auto& d : diags.items()) {
    if (d.severity == diag::Severity::kError && d.code != "HK002") {
      throw YttError{go_yaml_error(d, true)};
    }
  }
  // ytt reads the text after a `---` line it puts before it: when the text's first document
  // starts with `---` or the text has none (only comments, which the reader hands over in an
  // empty document of their own), ytt sees an empty document before it. (Before a first
  // document that starts with directives, the reader has that empty document already.)
  std::vector<const yaml::Document*> order;
  std::vector<int> lines;
  static const yaml::Document kEmpty;
  const bool dashes_put_before = yaml::ytt_puts_document_start(text);
  if (!docs.empty() && dashes_put_before &&
      (docs[0].explicit_start || (docs[0].empty && !docs[0].comments.empty()))) {
    order.push_back(&kEmpty);
    lines.push_back(0);
  }
  for (const yaml::Document& d : docs) {
    order.push_back(&d);
    // A document that starts with `---` is at that line; the comments after the last node
    // (an empty document our reader adds at the end) are at none.
    lines.push_back(d.explicit_start ? d.span.begin.line : 0);
  }
  std::string out;
  Printer(out, dashes_put_before ? 0 : 1).documents(order, lines);
  return out;
}

}  // namespace hintkit::ytt
