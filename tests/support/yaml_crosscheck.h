// The cross-check of the reader's tree against yaml-cpp (an independent parser), shared by
// tests/yaml/crosscheck_test.cpp and fuzz/yaml_differential.cpp; yaml-cpp is linked into those
// two only, never into hintkit. On text go-yaml's reader takes whole with no diagnostic,
// yaml-cpp must read the same structure and scalar text, key by key and item by item. Left
// out where YAML parsers differ by design or yaml-cpp reads otherwise than go-yaml (and ytt,
// which is what the reader follows): merge keys and duplicate keys (yaml-cpp does neither
// go-yaml's way), explicit tags, block scalars' line breaks (folding and chomping), text
// yaml-cpp rejects, and the classes in yaml_cpp_reads_differently.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "yaml/internal.h"
#include "yaml/yaml.h"

namespace hintkit::yaml::testing {

// Where yaml-cpp reads valid text differently from go-yaml (ytt v0.48.0 agrees with the
// reader): a CR without LF (a line break to go-yaml), the escapes `\N` and `\_`, an anchor
// on a node that is no key on its line, a line starting with ':' and a non-blank, a block
// scalar's indicator starting a line no deeper than the line before, and a plain scalar in a
// flow collection with a ':' right before ',', ']' or '}' (`{z:}`: go-yaml ends a plain scalar
// only at a ':' before a blank, so the key is "z:"), an empty key after `?` (`?\n: a`, `{? : a}`:
// yaml-cpp reads the lines below; in a flow list go-yaml's parser takes the token after it too,
// `[?, :z]` being [{null: z}]), a
// ':' with text right after a blank (`[&a :b]`: after `?`, an anchor or a tag a value
// indicator to go-yaml, a plain scalar to yaml-cpp), and an anchor or alias name go-yaml ends
// at ':', '?', '%', '@' or '`' (`&a: 1`: a null key anchored `a`). `compare` knows one more (a
// quoted scalar ending in line breaks).
inline bool yaml_cpp_reads_differently(std::string_view text) {
  // Both drop a byte order mark that starts the text: the shapes below are of what follows it.
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  // A CR without LF, NEL, LS and PS: line breaks to go-yaml, not to yaml-cpp.
  if (internal::has_lone_cr(text)) return true;
  for (std::string_view line_break : {"\xC2\x85", "\xE2\x80\xA8", "\xE2\x80\xA9"}) {
    if (text.find(line_break) != std::string_view::npos) return true;
  }
  // `\N` and `\_` in double quotes: U+0085 and U+00A0 to go-yaml, one byte to yaml-cpp.
  if (text.find("\\N") != std::string_view::npos || text.find("\\_") != std::string_view::npos) {
    return true;
  }
  for (std::string_view colon : {":,", ":]", ":}"}) {
    if (text.find(colon) != std::string_view::npos) return true;
  }
  auto is_blank = [](char c) { return c == ' ' || c == '\t'; };
  for (size_t at = text.find('?'); at != std::string_view::npos; at = text.find('?', at + 1)) {
    size_t next = at + 1;
    while (next < text.size() && is_blank(text[next])) ++next;
    if (next == text.size() || std::string_view("\r\n#:,]}").find(text[next]) != text.npos) {
      return true;
    }
  }
  for (size_t at = text.find(':'); at != std::string_view::npos; at = text.find(':', at + 1)) {
    if (at > 0 && is_blank(text[at - 1]) && at + 1 < text.size() &&
        std::string_view(" \t\r\n,[]{}").find(text[at + 1]) == std::string_view::npos) {
      return true;
    }
  }
  for (size_t at = text.find_first_of("&*"); at != std::string_view::npos;
       at = text.find_first_of("&*", at + 1)) {
    size_t end = at + 1;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                                 text[end] == '_' || text[end] == '-')) {
      ++end;
    }
    if (end > at + 1 && end < text.size() &&
        std::string_view(":?%@`").find(text[end]) != std::string_view::npos) {
      return true;
    }
  }
  // An anchor before a node that is no key on its line (`&x 2|\n  t\nb:1` is one plain scalar
  // to go-yaml): yaml-cpp opens an indentation level at it until it knows, and wants the
  // scalar's continuation lines (or a block scalar's) deeper than go-yaml does.
  for (size_t at = text.find('&'); at != std::string_view::npos; at = text.find('&', at + 1)) {
    if (at > 0 && text[at - 1] != ' ' && text[at - 1] != '\n' && text[at - 1] != '-') continue;
    size_t end = text.find('\n', at);
    std::string_view rest = text.substr(at, end == std::string_view::npos ? end : end - at);
    if (rest.find(": ") == std::string_view::npos && rest.back() != ':') return true;
  }
  // A line starting with ':' and a non-blank: a plain scalar's continuation to go-yaml
  // (`&a b\n:1` is "b :1" in ytt), where yaml-cpp starts something else.
  for (size_t at = text.find(':'); at != std::string_view::npos; at = text.find(':', at + 1)) {
    size_t line = at;
    while (line > 0 && text[line - 1] == ' ') --line;
    const bool starts_line = line == 0 || text[line - 1] == '\n' || text[line - 1] == '\r';
    if (starts_line && at + 1 < text.size() && text[at + 1] != ' ' && text[at + 1] != '\n' &&
        text[at + 1] != '\r' && text[at + 1] != '\t') {
      return true;
    }
  }
  // A block scalar whose `|` or `>` starts a line no deeper than the line before (`-\n|`: the
  // sequence entry's value to go-yaml): yaml-cpp rejects it, or reads a document of its own.
  // A flow collection starting a line no deeper than a line ending in `:` (a comment after it
  // aside): go-yaml takes it as that key's value (`a:\n[]: x` is {a: [], null: x}), yaml-cpp
  // as a key of its own.
  size_t previous_indent = 0;
  bool previous_ends_key = false;
  for (size_t line = 0; line < text.size();) {
    size_t end = text.find('\n', line);
    if (end == std::string_view::npos) end = text.size();
    size_t first = text.find_first_not_of(' ', line);
    if (first < end) {
      const bool no_deeper = line > 0 && first - line <= previous_indent;
      if ((text[first] == '|' || text[first] == '>') && no_deeper) return true;
      if ((text[first] == '[' || text[first] == '{') && no_deeper && previous_ends_key) {
        return true;
      }
      std::string_view content = text.substr(first, end - first);
      if (size_t hash = content.find(" #"); hash != std::string_view::npos) {
        content = content.substr(0, hash);
      }
      while (!content.empty() &&
             (content.back() == ' ' || content.back() == '\t' || content.back() == '\r')) {
        content.remove_suffix(1);
      }
      previous_ends_key = !content.empty() && content.back() == ':';
      previous_indent = first - line;
    }
    line = end + 1;
  }
  return false;
}

// "" when `ours` and yaml-cpp's `theirs` have the same structure and scalar text.
inline std::string compare(const Node& ours, const YAML::Node& theirs, const std::string& path) {
  if (ours.kind == Kind::kMap) {
    if (!theirs.IsMap()) return path + ": a map here, not to yaml-cpp";
    if (ours.items.size() != theirs.size()) return path + ": map sizes differ";
    size_t i = 0;
    for (auto it = theirs.begin(); it != theirs.end(); ++it, ++i) {
      const MapItem& item = ours.items[i];
      std::string at = path + "." + item.key.text;
      if (std::string d = compare(item.key, it->first, at + "(key)"); !d.empty()) return d;
      if (std::string d = compare(item.value, it->second, at); !d.empty()) return d;
    }
    return "";
  }
  if (ours.kind == Kind::kArray) {
    if (!theirs.IsSequence()) return path + ": a list here, not to yaml-cpp";
    if (ours.elements.size() != theirs.size()) return path + ": list sizes differ";
    for (size_t i = 0; i < ours.elements.size(); ++i) {
      std::string d = compare(ours.elements[i], theirs[i], path + "[" + std::to_string(i) + "]");
      if (!d.empty()) return d;
    }
    return "";
  }
  if (ours.kind == Kind::kNull) {
    if (theirs.IsNull()) return "";
    if (theirs.IsScalar() && (theirs.Scalar() == ours.text || theirs.Scalar().empty())) return "";
    return path + ": null here, not to yaml-cpp";
  }
  if (!theirs.IsScalar()) return path + ": a scalar here, not to yaml-cpp";
  if (ours.style == Style::kFolded || ours.style == Style::kLiteral) return "";  // see above
  // A quoted scalar ending in line breaks (`"\n\n"`, `"x\n\n\n "`): go-yaml folds the breaks
  // before the closing quote to all but the first ("\n", "x\n\n"), yaml-cpp keeps fewer ("",
  // "x\n"). The same text but for fewer trailing breaks is that class.
  if ((ours.style == Style::kSingleQuoted || ours.style == Style::kDoubleQuoted) &&
      theirs.Scalar().size() < ours.text.size()) {
    auto without_breaks = [](std::string_view t) {
      while (!t.empty() && t.back() == '\n') t.remove_suffix(1);
      return t;
    };
    if (without_breaks(ours.text) == without_breaks(theirs.Scalar())) return "";
  }
  if (theirs.Scalar() != ours.text) {
    return path + ": \"" + ours.text + "\" vs \"" + theirs.Scalar() + "\"";
  }
  return "";
}

struct CrossCheck {
  bool read = false;     // go-yaml's reader took the text whole
  bool checked = false;  // with no diagnostic, and yaml-cpp read it too: it was compared
  std::string difference;
};

inline CrossCheck cross_check(std::string_view text) {
  CrossCheck out;
  diag::Diagnostics diags;
  bool whole = false;
  std::vector<Document> docs = internal::load_with(text, "in.yaml", diags, {}, &whole);
  out.read = whole;
  if (!whole || !diags.empty() || yaml_cpp_reads_differently(text)) return out;
  if (text.find("<<") != std::string_view::npos || text.find('!') != std::string_view::npos) {
    return out;
  }
  std::vector<YAML::Node> theirs;
  try {
    theirs = YAML::LoadAll(std::string(text));
  } catch (const YAML::Exception&) {
    return out;  // yaml-cpp rejects text go-yaml reads
  }
  out.checked = true;
  std::vector<const Document*> ours;
  for (const Document& d : docs) ours.push_back(&d);
  // Annotations after the last node make an empty document of their own (as ytt's do).
  while (ours.size() > theirs.size() && ours.back()->empty) ours.pop_back();
  if (ours.size() != theirs.size()) {
    out.difference =
        "document count " + std::to_string(ours.size()) + " vs " + std::to_string(theirs.size());
    return out;
  }
  for (size_t i = 0; i < ours.size() && out.difference.empty(); ++i) {
    out.difference = compare(ours[i]->root, theirs[i], "doc[" + std::to_string(i) + "]");
  }
  return out;
}

}  // namespace hintkit::yaml::testing
